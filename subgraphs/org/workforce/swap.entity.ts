import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum SwapStatus {
  pending = 'pending',
  accepted = 'accepted',
  rejected = 'rejected',
  cancelled = 'cancelled',
}
registerEnumType(SwapStatus, { name: 'SwapRequestStatus', description: 'pending, accepted (applied), rejected, cancelled' });

/**
 * accept: the colleague (or a manager for a colleague without an account) takes it; the swap is applied in the same
 * transaction, only when both members still keep every hard rule. reject: the colleague declines. cancel: the member
 * who asked withdraws it, or it lapses because one of its shifts was removed (approved leave).
 */
export const SWAP = stateMachine<SwapStatus, 'accept' | 'reject' | 'cancel'>('swap request', {
  accept: { from: [SwapStatus.pending], to: SwapStatus.accepted },
  reject: { from: [SwapStatus.pending], to: SwapStatus.rejected },
  cancel: { from: [SwapStatus.pending], to: SwapStatus.cancelled },
});

/**
 * A member asks a colleague to take one of their shifts (`assignmentId`), in exchange for one of the colleague's
 * (`targetAssignmentId`) or not (a give-away).
 */
@ObjectType('SwapRequest', { description: 'A request to swap (or give away) a shift with a colleague' })
@Entity({ tableName: 'workforce_swap_requests' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({
  name: 'workforce_swap_requests_pending_unique',
  expression:
    'create unique index "workforce_swap_requests_pending_unique" on "org"."workforce_swap_requests" ("assignment_id") where "status" = \'pending\'',
})
export class SwapRequest extends BaseRecord {
  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'The roster of both shifts' })
  @Property({ type: 'uuid' })
  rosterId!: string;

  @Field(() => ID, { description: 'The shift the requester gives' })
  @Property({ type: 'uuid' })
  assignmentId!: string;

  @Field(() => ID, { description: 'The member asking' })
  @Property({ type: 'uuid' })
  requesterMemberId!: string;

  @Field(() => ID, { description: 'The colleague asked' })
  @Property({ type: 'uuid' })
  targetMemberId!: string;

  @Field(() => ID, { nullable: true, description: 'The colleague’s shift the requester takes in exchange; null for a give-away' })
  @Property({ type: 'uuid', nullable: true })
  targetAssignmentId?: string | null;

  @Field(() => SwapStatus, { description: 'pending, accepted, rejected, cancelled' })
  @Enum({ items: () => SwapStatus, default: SwapStatus.pending })
  status: Opt<SwapStatus> = SwapStatus.pending;

  @Field(() => String, { nullable: true, description: 'Why the requester asks' })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => ID, { description: 'The user who asked (the requester, or a manager for them)' })
  @Property({ type: 'uuid' })
  requestedBy!: string;

  @Field(() => ID, { nullable: true, description: 'The user who accepted, rejected or cancelled it' })
  @Property({ type: 'uuid', nullable: true })
  decidedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was accepted, rejected or cancelled' })
  @Property({ type: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was cancelled by the platform (a shift removed for leave)' })
  @Property({ type: 'text', nullable: true })
  cancelReason?: string | null;
}
