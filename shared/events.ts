import { z } from 'zod';
import type { EntityManager } from './db';
import type { Peers } from './peers';
import type { Viewer } from './viewer';

/**
 * The event envelope of the internal bus (SPEC, Events). `source_service` is the publishing subgraph.
 */
export interface EventEnvelope<P extends object = Record<string, unknown>> {
  id: string;
  topic: string;
  timestamp: string;
  source_service: string;
  payload: P;
}

/**
 * A bus topic (`svc.<area>.<event>`) and its payload. Each module declares the topics it emits in its manifest
 * (`topics`), next to the code that emits them; docs/events.md is generated from those declarations
 * (`npm run docs`), so the catalogue cannot drift from the code. Payload fields are snake_case, as on the wire.
 */
export interface TopicDefinition<P extends z.ZodObject = z.ZodObject> {
  name: string;
  /** When it is emitted, completing "emitted when ...". */
  emittedWhen: string;
  payload: P;
}

export type PayloadOf<T extends TopicDefinition> = z.input<T['payload']>;

const TOPIC_NAME = /^svc\.[a-z0-9_]+\.[a-z0-9_]+$/;

export function defineTopic<P extends z.ZodObject>(name: string, emittedWhen: string, payload: P): TopicDefinition<P> {
  if (!TOPIC_NAME.test(name)) throw new Error(`topic ${name} must look like svc.<area>.<event>`);
  return { name, emittedWhen, payload };
}

/** Inbound webhook providers (SPEC: Events, inbound webhooks). Each verified delivery travels on its own topic. */
export const WEBHOOK_PROVIDERS = [
  'billing',
  'video',
  'mobile_money_a',
  'mobile_money_b',
  'messaging',
  'mailer',
  'forms',
  'workforce_leave',
] as const;
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

export const webhookTopic = (provider: WebhookProvider) => `svc.webhook.${provider}_received`;

/** A verified inbound webhook delivery, carried whole so its consumer needs nothing else. */
const webhookReceived = z.object({
  delivery_id: z.uuid(),
  provider: z.enum(WEBHOOK_PROVIDERS),
  provider_event_id: z.string(),
  event_type: z.string().nullable(),
  /** The request body exactly as received (a JSON string, unless the sender broke it). */
  raw_body: z.string(),
});

export type WebhookReceivedPayload = z.infer<typeof webhookReceived>;

/** The platform's own topics: one per webhook provider, emitted by the webhook inbox (workers/). */
export const WEBHOOK_TOPICS: TopicDefinition[] = WEBHOOK_PROVIDERS.map((provider) =>
  defineTopic(webhookTopic(provider), `a verified ${provider.replace(/_/g, ' ')} webhook delivery is stored`, webhookReceived),
);

const envelopeSchema = z.object({
  id: z.string().min(1),
  topic: z.string().regex(TOPIC_NAME, 'must look like svc.<area>.<event>'),
  timestamp: z.iso.datetime({ offset: true }),
  source_service: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});

/** An envelope as a consumer receives it; throws with the reason when the data is not one. */
export function parseEnvelope(data: unknown): EventEnvelope {
  const parsed = envelopeSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`not an event envelope: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'event'} ${i.message}`).join('; ')}`);
  }
  return parsed.data as EventEnvelope;
}

/**
 * What a consumer's handler gets: the event, a transaction of its subgraph's database, and the other subgraphs
 * (asked as the platform itself, SYSTEM_VIEWER, which holds no permission: only entity lookups answer it).
 */
export interface ConsumerContext {
  em: EntityManager;
  /** How many times this event was tried before (0 on the first attempt). */
  attempt: number;
  peers: Peers;
  viewer: Viewer;
  requestId: string;
}

/**
 * A consumer of bus events. It owns one queue (`consumer.<name>`); each event is applied once: the handler's
 * changes and the record that the event was processed commit together.
 */
export interface ConsumerDefinition {
  name: string;
  /** What it does with an event, completing "the consumer ..." (printed in docs/events.md). */
  description: string;
  topics: readonly string[];
  handle(event: EventEnvelope, ctx: ConsumerContext): Promise<void>;
}

/** Thrown by a handler for an event that can never succeed (bad data): it goes to the dead letter queue at once. */
export class PermanentEventError extends Error {
  override name = 'PermanentEventError';
}
