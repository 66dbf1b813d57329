import { Queue, type ConnectionOptions } from 'bullmq';
import { config } from './config';
import { logger } from './logger';

/** The queue every published event goes through first; the dispatcher fans it out to the consumers' queues. */
export const EVENTS_QUEUE = 'events';

/** A mirror of the dead letter table for the dashboard (no worker: entries wait there until handled). */
export const DEAD_LETTER_QUEUE = 'dead-letters';

/** Jobs the modules run on a schedule (one BullMQ job scheduler per job). */
export const SCHEDULED_QUEUE = 'scheduled';

export const consumerQueue = (consumer: string) => `consumer.${consumer}`;

/** Retries with exponential backoff, from configuration. */
export function retryOptions(): { attempts: number; backoff: { type: 'exponential'; delay: number } } {
  return { attempts: config().EVENT_MAX_ATTEMPTS, backoff: { type: 'exponential', delay: config().EVENT_BACKOFF_MS } };
}

/**
 * The key prefix of a queue's BullMQ keys: `<REDIS_PREFIX>:bull:{<queue>}`. The braces are a Redis Cluster hash
 * tag: every key of one queue hashes to one slot (BullMQ's scripts touch several keys of a queue at once), while
 * different queues spread over the masters. On one Redis the braces mean nothing.
 */
export function bullPrefix(queue: string): string {
  return `${config().REDIS_PREFIX}:bull:{${queue}}`;
}

export function openQueue(name: string, connection: ConnectionOptions): Queue {
  const queue = new Queue(name, {
    connection,
    prefix: bullPrefix(name),
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

/**
 * Options of every BullMQ worker: a job whose worker dies (kill -9, a lost machine) is taken up again once its lock
 * expires and the next stalled-job check runs, within WORKER_LOCK_MS + WORKER_STALLED_INTERVAL_MS (15 s by default,
 * against BullMQ's 60 s).
 */
export function workerOptions(): { lockDuration: number; stalledInterval: number; maxStalledCount: number } {
  const cfg = config();
  return { lockDuration: cfg.WORKER_LOCK_MS, stalledInterval: cfg.WORKER_STALLED_INTERVAL_MS, maxStalledCount: 2 };
}
