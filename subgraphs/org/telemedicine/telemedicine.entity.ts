import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum VideoSessionStatus {
  /** The room exists; nobody has connected yet (the provider has not reported `room_started`). */
  created = 'created',
  active = 'active',
  ended = 'ended',
}
registerEnumType(VideoSessionStatus, { name: 'VideoSessionStatus', description: 'Where a video session is: created, active or ended' });

/** Sessions move by the platform's own actions and by the provider's webhooks; each way is one action here. */
export const videoSessionMachine = stateMachine<VideoSessionStatus, 'start' | 'end'>('video session', {
  start: { from: [VideoSessionStatus.created], to: VideoSessionStatus.active },
  end: { from: [VideoSessionStatus.created, VideoSessionStatus.active], to: VideoSessionStatus.ended },
});

/** A telemedicine video session of an appointment: one provider room. */
@ObjectType('VideoSession', { description: 'A video session of a telemedicine appointment' })
@Entity({ tableName: 'video_sessions' })
/** One open session per appointment (initiations are also serialized with an advisory lock). */
@Index({
  name: 'video_sessions_one_open_per_appointment',
  expression:
    'create unique index "video_sessions_one_open_per_appointment" on "org"."video_sessions" ' +
    `("appointment_id") where "status" in ('created', 'active')`,
})
export class VideoSession extends BaseRecord {
  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  appointmentId!: string;

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Video provider (`sandbox` or `livekit`)' })
  @Property({ type: 'text' })
  provider!: string;

  @Field({ description: "The provider's room name" })
  @Property({ type: 'text', unique: true })
  roomName!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  roomSid?: string | null;

  @Field(() => VideoSessionStatus)
  @Enum({ items: () => VideoSessionStatus })
  status: Opt<VideoSessionStatus> = VideoSessionStatus.created;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  initiatedBy!: string;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  endedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  endedBy?: string | null;

  @Field(() => Int, { nullable: true, description: 'Seconds between the first start and the end' })
  durationSeconds(): number | null {
    return this.startedAt && this.endedAt ? Math.round((this.endedAt.getTime() - this.startedAt.getTime()) / 1000) : null;
  }
}

export enum ParticipantRole {
  doctor = 'doctor',
  patient = 'patient',
  /** Someone the provider let in whom the appointment does not name: disconnected at once. */
  unauthorized = 'unauthorized',
}
registerEnumType(ParticipantRole, {
  name: 'ParticipantRole',
  description: 'Who joined a video session: the doctor, the patient, or someone unauthorized (refused)',
});

/** Someone who was in a session's room, as the provider reported (one row per identity and session). */
@ObjectType('VideoParticipant', { description: 'Someone who joined a video session, and when' })
@Entity({ tableName: 'video_participants' })
@Unique({ properties: ['session', 'identity'] })
export class VideoParticipant extends BaseRecord {
  @ManyToOne(() => VideoSession, { deleteRule: 'cascade' })
  session!: VideoSession;

  @Field({ description: "The provider identity: the participant's user id" })
  @Property({ type: 'text' })
  identity!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name?: string | null;

  @Field(() => ParticipantRole)
  @Enum({ items: () => ParticipantRole })
  role!: ParticipantRole;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  joinedAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  leftAt?: Date | null;

  @Field({ description: 'Whether the participant is in the room now' })
  connected(): boolean {
    return !!this.joinedAt && (!this.leftAt || this.leftAt < this.joinedAt);
  }

  @Field(() => Int, { description: 'Times the participant joined (reconnections count)' })
  @Property({ type: 'integer' })
  joinCount: Opt<number> = 0;

  @Field(() => [String], { description: 'Kinds of tracks published (`audio`, `video`, `screen_share`)' })
  @Property({ type: 'json' })
  publishedTracks: Opt<string[]> = [];
}
