import { Queue, type ConnectionOptions } from 'bullmq';
import { config } from './config';
import { logger } from './logger';

/** The queue every published event goes through first; the dispatcher fans it out to the consumers' queues. */
export const EVENTS_QUEUE = 'events';

/** A mirror of the dead letter table for the dashboard (no worker: entries wait there until handled). */
export const DEAD_LETTER_QUEUE = 'dead-letters';

export const consumerQueue = (consumer: string) => `consumer.${consumer}`;

/** Retries with exponential backoff, from configuration. */
export function retryOptions(): { attempts: number; backoff: { type: 'exponential'; delay: number } } {
  return { attempts: config().EVENT_MAX_ATTEMPTS, backoff: { type: 'exponential', delay: config().EVENT_BACKOFF_MS } };
}

export function bullPrefix(): string {
  return `${config().REDIS_PREFIX}:bull`;
}

export function openQueue(name: string, connection: ConnectionOptions): Queue {
  const queue = new Queue(name, {
    connection,
    prefix: bullPrefix(),
    defaultJobOptions: {
      ...retryOptions(),
      removeOnComplete: { age: 24 * 3600, count: 10000 },
      // Failed jobs are recorded in the dead letter table; the queue keeps a day of them for the dashboard.
      removeOnFail: { age: 24 * 3600 },
    },
  });
  queue.on('error', (err) => logger.warn({ err: err.message, queue: name }, 'queue connection error'));
  return queue;
}
