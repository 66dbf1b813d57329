import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { BaseRecord } from '../../shared/model';

/**
 * The platform's own tables, in the `platform` schema: they belong to no domain module. Dead letters of every
 * subgraph's events and the inbox of verified webhook deliveries live here (with the outbox that carries a
 * delivery to its consumer).
 */

/** An event that could not be processed: kept until an administrator retries or discards it. */
@Entity({ tableName: 'dead_letters' })
export class DeadLetter extends BaseRecord {
  /** Id of the original event. */
  @Index()
  @Property({ type: 'text' })
  eventId!: string;

  @Index()
  @Property({ type: 'text' })
  topic!: string;

  /** The queue it failed in: events (dispatch) or consumer.<name>. */
  @Property({ type: 'text' })
  queue!: string;

  /** The raw JSON that failed (for a webhook, the body exactly as received). */
  @Property({ type: 'text' })
  originalPayload!: string;

  /** What to put back on the queue on retry: the envelope, when there was a valid one. */
  @Property({ type: 'jsonb', nullable: true })
  envelope?: Record<string, unknown> | null;

  @Property({ type: 'text' })
  error!: string;

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
