import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum FeedbackCategory {
  service = 'service',
  appointment = 'appointment',
  staff = 'staff',
  facility = 'facility',
  billing = 'billing',
  platform = 'platform',
  other = 'other',
}
registerEnumType(FeedbackCategory, {
  name: 'FeedbackCategory',
  description: 'What the feedback is about: service, appointment, staff, facility, billing, platform (the app itself), other',
});

export enum FeedbackStatus {
  new = 'new',
  triaged = 'triaged',
  resolved = 'resolved',
}
registerEnumType(FeedbackStatus, { name: 'FeedbackStatus', description: 'new, triaged (seen and routed), resolved' });

/** triage: seen and routed to whoever acts on it. resolve: acted on, from new or triaged. Resolved is final. */
export const FEEDBACK = stateMachine<FeedbackStatus, 'triage' | 'resolve'>('feedback', {
  triage: { from: [FeedbackStatus.new], to: FeedbackStatus.triaged },
  resolve: { from: [FeedbackStatus.new, FeedbackStatus.triaged], to: FeedbackStatus.resolved },
});

/**
 * Feedback about an organization, an appointment or the platform. Anonymous feedback keeps only what was typed:
 * no account, address or user agent.
 */
@ObjectType('Feedback', { description: 'Feedback about an organization, an appointment or the platform' })
@Entity({ tableName: 'feedback' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['submittedBy', 'createdAt'] })
@Index({ properties: ['status', 'createdAt'] })
export class Feedback extends BaseRecord {
  @Field(() => FeedbackCategory, { description: 'What it is about' })
  @Enum({ items: () => FeedbackCategory })
  category!: FeedbackCategory;

  @Field(() => Int, { description: 'From 1 (very poor) to 5 (excellent)' })
  // Written as PostgreSQL prints `rating between 1 and 5`, so the schema diff sees no change.
  @Property({ type: 'smallint', check: '((rating >= 1) AND (rating <= 5))' })
  rating!: number;

  @Field({ description: 'What the person wrote' })
  @Property({ type: 'text' })
  message!: string;

  @Field(() => ID, { nullable: true, description: 'The organization it is about; null for feedback about the platform' })
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The appointment it is about (signed-in feedback only)' })
  @Property({ type: 'uuid', nullable: true })
  appointmentId?: string | null;

  @Field({ description: 'Sent without an account: nothing about the sender is kept' })
  @Property({ type: 'boolean' })
  anonymous!: boolean;

  @Field(() => ID, { nullable: true, description: 'Who sent it; null when anonymous' })
  @Property({ type: 'uuid', nullable: true })
  submittedBy?: string | null;

  @Field(() => FeedbackStatus, { description: 'new, triaged or resolved' })
  @Enum({ items: () => FeedbackStatus })
  status: Opt<FeedbackStatus> = FeedbackStatus.new;

  @Field(() => String, { nullable: true, description: 'What was done about it, from the administrator who handled it' })
  @Property({ type: 'text', nullable: true })
  resolutionNote?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who triaged it' })
  @Property({ type: 'uuid', nullable: true })
  triagedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was triaged' })
  @Property({ type: 'timestamptz', nullable: true })
  triagedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who resolved it' })
  @Property({ type: 'uuid', nullable: true })
  resolvedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was resolved' })
  @Property({ type: 'timestamptz', nullable: true })
  resolvedAt?: Date | null;
}
