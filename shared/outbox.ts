import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import type { z } from 'zod';
import type { EntityManager } from './db';
import type { EventEnvelope, TopicDefinition } from './events';

export type { EventEnvelope };

/**
 * Events waiting to be published, written in the same transaction as the change that caused them; the outbox
 * relay moves them to the bus. Every subgraph has this table in its own schema.
 */
@Entity({ tableName: 'outbox' })
@Index({ properties: ['publishedAt', 'createdAt'] })
export class OutboxEvent {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  topic!: string;

  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Property({ type: 'text' })
  sourceService!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  publishedAt?: Date | null;
}

/** Queues an event; it is written by the caller's next flush, atomically with the change that caused it. */
export function recordEvent(em: EntityManager, sourceService: string, topic: string, payload: object): OutboxEvent {
  const event = new OutboxEvent();
  event.topic = topic;
  event.payload = payload as Record<string, unknown>;
  event.sourceService = sourceService;
  em.persist(event);
  return event;
}

/**
 * Queues an event of a declared topic, its payload checked against the declaration: an event that does not match
 * its catalogue entry is a bug, caught where it is written rather than by a consumer later.
 */
export function emitEvent<P extends z.ZodObject>(
  em: EntityManager,
  sourceService: string,
  topic: TopicDefinition<P>,
  payload: z.input<P>,
): OutboxEvent {
  const checked = topic.payload.safeParse(payload);
  if (!checked.success) {
    throw new Error(
      `payload of ${topic.name} does not match its declaration: ${checked.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  }
  return recordEvent(em, sourceService, topic.name, payload as object);
}

/**
 * That a consumer applied an event: written in the same transaction as the consumer's changes, so a redelivered
 * event is recognised and skipped. Every subgraph with consumers has this table in its own schema.
 */
@Entity({ tableName: 'processed_events' })
export class ProcessedEvent {
  @PrimaryKey({ type: 'text' })
  consumer!: string;

  @PrimaryKey({ type: 'text' })
  eventId!: string;

  @Property({ type: 'timestamptz' })
  processedAt: Date = new Date();
}

export function toEnvelope(event: OutboxEvent): EventEnvelope {
  return {
    id: event.id,
    topic: event.topic,
    timestamp: event.createdAt.toISOString(),
    source_service: event.sourceService,
    payload: event.payload,
  };
}
