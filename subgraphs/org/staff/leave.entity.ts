import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';

export const LEAVE_TYPES = ['annual', 'sick', 'maternity', 'paternity', 'study', 'unpaid', 'other'] as const;
export const LeaveType = enumOf(
  LEAVE_TYPES,
  'LeaveType',
  'The kind of leave asked for: annual, sick, maternity, paternity, study, unpaid or other',
);

export enum LeaveStatus {
  pending = 'pending',
  approved = 'approved',
  rejected = 'rejected',
  cancelled = 'cancelled',
}
registerEnumType(LeaveStatus, { name: 'LeaveStatus', description: 'Where a leave request is: pending, approved, rejected or cancelled' });

/** approve and reject: someone with `leave:approve` decides a pending request. cancel: the requester withdraws it. */
export const LEAVE_REQUEST = stateMachine<LeaveStatus, 'approve' | 'reject' | 'cancel'>('leave request', {
  approve: { from: [LeaveStatus.pending], to: LeaveStatus.approved },
  reject: { from: [LeaveStatus.pending], to: LeaveStatus.rejected },
  cancel: { from: [LeaveStatus.pending], to: LeaveStatus.cancelled },
});

/** Requests in these states hold their days: another request of the same member may not overlap them. */
export const HOLDING_DAYS = [LeaveStatus.pending, LeaveStatus.approved];

/** A member's request for leave from an organization, for whole days from `startDate` to `endDate` inclusive. */
@ObjectType('LeaveRequest', { description: "A staff member's request for leave, and its decision" })
@Entity({ tableName: 'leave_requests' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['userId', 'organizationId', 'startDate'] })
export class LeaveRequest extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'The member asking for leave' })
  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => LeaveType, { description: LEAVE_TYPES.join(', ') })
  @Property({ type: 'text' })
  type!: string;

  @Field(() => LocalDate, { description: 'First day of leave, YYYY-MM-DD' })
  @Property({ type: 'date' })
  startDate!: string;

  @Field(() => LocalDate, { description: 'Last day of leave, YYYY-MM-DD' })
  @Property({ type: 'date' })
  endDate!: string;

  @Field(() => Int, { description: 'Calendar days from start to end, both included' })
  @Property({ type: 'integer' })
  days!: number;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => LeaveStatus)
  @Enum({ items: () => LeaveStatus })
  status: Opt<LeaveStatus> = LeaveStatus.pending;

  @Field(() => ID, { nullable: true, description: 'Who approved or rejected it' })
  @Property({ type: 'uuid', nullable: true })
  decidedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was rejected' })
  @Property({ type: 'text', nullable: true })
  decisionReason?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;
}
