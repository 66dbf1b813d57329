import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsCalendarDate, IsOneOf, IsText } from '../../../shared/validation';
import { LocalDate } from '../../../shared/scalars';
import { PayloadOf } from '../../../shared/user-errors';
import { LEAVE_TYPES, LeaveRequest, LeaveStatus, LeaveType } from './leave.entity';

@InputType({ description: 'The leave asked for: the organization, type, dates and reason' })
export class CreateLeaveRequestInput {
  @Field(() => ID, { nullable: true, description: 'Optional when the caller belongs to exactly one organization' })
  organizationId?: string;

  @Field(() => LeaveType, { nullable: true, description: `${LEAVE_TYPES.join(', ')}; other when omitted` })
  @IsOneOf(LEAVE_TYPES)
  type?: string;

  @Field(() => LocalDate, { description: 'YYYY-MM-DD' })
  @IsCalendarDate()
  startDate!: string;

  @Field(() => LocalDate, { description: 'YYYY-MM-DD, on or after startDate' })
  @IsCalendarDate()
  endDate!: string;

  @Field({ nullable: true })
  @IsText(2000)
  reason?: string;
}

@ArgsType()
export class LeaveListArgs extends PageArgs {
  @Field(() => LeaveStatus, { nullable: true, description: 'Only requests in this status; every status when omitted' })
  status?: LeaveStatus;

  @Field(() => LeaveType, { nullable: true, description: 'Only leave of this type' })
  @IsOneOf(LEAVE_TYPES)
  type?: string;
}

@ArgsType()
export class OrganizationLeaveListArgs extends LeaveListArgs {
  @Field(() => ID, { nullable: true, description: 'One member (approvers; others see only their own)' })
  userId?: string;
}

@ArgsType()
export class LeaveDecisionArgs {
  @Field(() => ID, { description: 'The organization the leave request belongs to' })
  organizationId!: string;

  @Field(() => ID, { description: 'The leave request (pending)' })
  id!: string;
}

@ArgsType()
export class RejectLeaveArgs extends LeaveDecisionArgs {
  @Field({ nullable: true, description: 'Why, shown to the requester' })
  @IsText(2000)
  reason?: string;
}

@ObjectType()
export class LeaveRequestPage extends PageOf(LeaveRequest) {}

@ObjectType({
  description:
    'What createLeaveRequest answers: the new request, or what the user must fix (a bad field, dates that overlap pending or approved leave)',
})
export class CreateLeaveRequestPayload extends PayloadOf(LeaveRequest, 'leaveRequest') {}
