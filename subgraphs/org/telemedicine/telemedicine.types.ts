import { Field, ObjectType } from 'type-graphql';
import { PageOf } from '../../../shared/model';
import { ParticipantRole, VideoParticipant } from './telemedicine.entity';

@ObjectType('VideoJoin', { description: "Credentials for the caller to connect to the session's room" })
export class VideoJoinType {
  @Field({ description: "The provider's access token (a LiveKit-style JWT for this room and this person)" })
  token!: string;

  @Field({ description: 'The identity the provider will report for the caller (their user id)' })
  identity!: string;

  @Field(() => ParticipantRole)
  role!: ParticipantRole;

  @Field()
  expiresAt!: Date;

  @Field(() => String, { nullable: true, description: "The provider's server address (none for the sandbox)" })
  serverUrl?: string | null;
}

@ObjectType()
export class VideoParticipantPage extends PageOf(VideoParticipant) {}
