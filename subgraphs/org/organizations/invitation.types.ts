import { ArgsType, Field, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { PayloadOf } from '../../../shared/user-errors';
import { ORG_ROLES } from '../../../shared/permissions';
import { IsEmailAddress, IsOneOf, IsText } from '../../../shared/validation';
import { InvitationStatus, OrganizationInvitation } from './invitation.entity';

@InputType({ description: 'Whom to invite and with which role' })
export class SendInvitationInput {
  @Field({ description: 'Where the invitation goes; the person accepts it signed in with this email' })
  @IsEmailAddress()
  email!: string;

  @Field({ description: ORG_ROLES.join(', ') })
  @IsOneOf(ORG_ROLES)
  role!: string;
}

@ObjectType({
  description:
    'What sendInvitation answers: the invitation, or what the user must fix (a member already, an invitation pending, a bad field)',
})
export class SendInvitationPayload extends PayloadOf(OrganizationInvitation, 'invitation') {}

@ArgsType()
export class InvitationListArgs extends PageArgs {
  @Field(() => InvitationStatus, { nullable: true, description: 'Only invitations in this status; every status when omitted' })
  status?: InvitationStatus;
}

@ArgsType()
export class AcceptInvitationArgs {
  @Field({ description: 'The token from the invitation mail' })
  @IsText(200)
  token!: string;
}

@ObjectType()
export class OrganizationInvitationPage extends PageOf(OrganizationInvitation) {}
