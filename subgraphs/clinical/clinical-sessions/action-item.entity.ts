import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum ActionItemStatus {
  open = 'open',
  done = 'done',
  cancelled = 'cancelled',
}
registerEnumType(ActionItemStatus, { name: 'ActionItemStatus', description: 'open, done, or cancelled (kept, no longer to do)' });

export enum ActionItemPriority {
  low = 'low',
  normal = 'normal',
  high = 'high',
  urgent = 'urgent',
}
registerEnumType(ActionItemPriority, { name: 'ActionItemPriority', description: 'How soon it matters' });

/**
 * edit: only an open item changes. complete: it was done. reopen: it was not done after all. cancel: it will not be
 * done (an open item; once).
 */
export const ACTION_ITEM = stateMachine<ActionItemStatus, 'edit' | 'complete' | 'reopen' | 'cancel'>('action item', {
  edit: { from: [ActionItemStatus.open], to: ActionItemStatus.open },
  complete: { from: [ActionItemStatus.open], to: ActionItemStatus.done },
  reopen: { from: [ActionItemStatus.done], to: ActionItemStatus.open },
  cancel: { from: [ActionItemStatus.open], to: ActionItemStatus.cancelled },
});

/** Something to do that came out of a clinical session: a task with an assignee and a due date. */
@ObjectType('ActionItem', { description: 'Something to do that came out of a clinical session, for an assignee, by a due date' })
@Entity({ tableName: 'session_action_items' })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['assigneeId', 'status'] })
export class ActionItem extends PatientRecord {
  @Field(() => ID, { nullable: true, description: 'The recording (session) it came from' })
  @Property({ type: 'uuid', nullable: true })
  recordingId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The extraction whose follow-up made it' })
  @Property({ type: 'uuid', nullable: true })
  extractionId?: string | null;

  @Field({ description: 'What to do' })
  @Property({ type: 'text' })
  title!: string;

  @Field(() => String, { nullable: true, description: 'More about it' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => ID, { nullable: true, description: 'The user who is to do it' })
  @Property({ type: 'uuid', nullable: true })
  assigneeId?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'By when, YYYY-MM-DD' })
  @Property({ type: 'date', nullable: true })
  dueDate?: string | null;

  @Field(() => ActionItemPriority, { description: 'low, normal, high or urgent' })
  @Enum({ items: () => ActionItemPriority })
  priority: Opt<ActionItemPriority> = ActionItemPriority.normal;

  @Field(() => ActionItemStatus, { description: 'open, done or cancelled' })
  @Enum({ items: () => ActionItemStatus })
  status: Opt<ActionItemStatus> = ActionItemStatus.open;

  @Field(() => ID, { description: 'Who wrote it' })
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => ID, { nullable: true, description: 'Who marked it done' })
  @Property({ type: 'uuid', nullable: true })
  completedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was marked done' })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who cancelled it' })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was cancelled' })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was cancelled' })
  @Property({ type: 'text', nullable: true })
  cancellationReason?: string | null;
}
