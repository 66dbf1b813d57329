import type { WebhookProvider } from './events';

/**
 * Platform services a subgraph uses but does not own, handed in by whoever starts it (the composition root in
 * bin/): the dead letter store and the queue overview behind the operators' API. A subgraph never imports them.
 */
export interface Plumbing {
  deadLetters?: DeadLetterStore;
  queues?: QueueOverview;
}

export interface DeadLetterEntry {
  id: string;
  eventId: string;
  topic: string;
  queue: string;
  originalPayload: string;
  error: string;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeadLetterStore {
  /** Newest first, optionally of one topic. */
  list(query: { page: number; limit: number; topic?: string }): Promise<{ items: DeadLetterEntry[]; total: number }>;
  depth(): Promise<{ depth: number; oldestEvent: Date | null }>;
  /**
   * Puts the entry's event back on the queue it failed in with fresh attempts and removes the entry; null when
   * unknown. Throws CONFLICT when the entry holds no JSON (it can never be processed).
   */
  retry(id: string): Promise<DeadLetterEntry | null>;
  /** Removes the entry for good; null when unknown. */
  discard(id: string): Promise<DeadLetterEntry | null>;
}

export interface QueueCounts {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export interface QueueOverview {
  names(): string[];
  counts(): Promise<QueueCounts[]>;
}

/** A verified inbound webhook delivery, as the edge hands it to the platform's inbox. */
export interface WebhookDeliveryInput {
  provider: WebhookProvider;
  providerEventId: string;
  eventType: string | null;
  rawBody: string;
}

export interface WebhookReceipt {
  deliveryId: string;
  /** True when this provider event was already received: acknowledged, not applied again. */
  duplicate: boolean;
}

/** Where the edge stores verified webhook deliveries (workers/store implements it). */
export interface WebhookInbox {
  record(input: WebhookDeliveryInput): Promise<WebhookReceipt>;
}
