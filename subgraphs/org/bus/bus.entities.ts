import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

/** An event that could not be processed: kept until an administrator retries or discards it. */
@ObjectType('DeadLetter')
@Entity({ tableName: 'dead_letters' })
export class DeadLetter extends BaseRecord {
  @Field({ description: 'Id of the original event' })
  @Index()
  @Property({ type: 'text' })
  eventId!: string;

  @Field()
  @Index()
  @Property({ type: 'text' })
  topic!: string;

  @Field({ description: 'The queue it failed in: events (dispatch) or consumer.<name>' })
  @Property({ type: 'text' })
  queue!: string;

  @Field({ description: 'The raw JSON that failed (for a webhook, the body exactly as received)' })
  @Property({ type: 'text' })
  originalPayload!: string;

  /** What to put back on the queue on retry: the envelope, when there was a valid one. */
  @Property({ type: 'jsonb', nullable: true })
  envelope?: Record<string, unknown> | null;

  @Field({ description: 'Why it failed' })
  @Property({ type: 'text' })
  error!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  attempts!: number;
}

/** A verified inbound webhook delivery, stored before it is acknowledged. */
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['provider', 'providerEventId'] })
export class WebhookDelivery extends BaseRecord {
  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'text' })
  providerEventId!: string;

  @Property({ type: 'text', nullable: true })
  eventType?: string | null;

  @Property({ type: 'text' })
  rawBody!: string;
}
