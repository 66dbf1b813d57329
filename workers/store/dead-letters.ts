import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '../../shared/db';
import { errors } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { isUuid } from '../../shared/model';
import type { DeadLetterEntry, DeadLetterStore } from '../../shared/plumbing';
import { DEAD_LETTER_QUEUE, openQueue, retryOptions } from '../../shared/queues';
import { appRedis } from '../../shared/redis';
import { DeadLetter } from './entities';

export interface DeadLetterInput {
  /** Given when the same failure may be recorded twice (the bus derives it from the failed job): once is kept. */
  id?: string;
  eventId: string;
  topic: string;
  queue: string;
  originalPayload: string;
  envelope?: Record<string, unknown> | null;
  error: string;
  attempts: number;
}

/** Runs `work` with a queue on the shared connection, closing the queue after (the connection stays open). */
async function withQueue<T>(name: string, work: (q: ReturnType<typeof openQueue>) => Promise<T>): Promise<T> {
  const queue = openQueue(name, appRedis());
  try {
    return await work(queue);
  } finally {
    await queue.close().catch(() => undefined);
  }
}

/**
 * Stores a failed event in the dead letter table (the source of truth) and mirrors it onto the dashboard's
 * dead-letters queue. The mirror is best effort: with Redis down the entry is still kept.
 */
export async function recordDeadLetter(em: EntityManager, input: DeadLetterInput): Promise<DeadLetter> {
  if (input.id) {
    const recorded = await em.findOne(DeadLetter, { id: input.id });
    if (recorded) return recorded;
  }
  const entry = em.create(DeadLetter, { ...input, envelope: input.envelope ?? null, error: input.error.slice(0, 4000) });
  try {
    await em.flush();
  } catch (err) {
    // The same failure recorded at this moment by the bus's handler and its sweep: the first one stands.
    if (!(input.id && err instanceof UniqueConstraintViolationException)) throw err;
    em.clear();
    return em.findOneOrFail(DeadLetter, { id: input.id });
  }
  await withQueue(DEAD_LETTER_QUEUE, (q) =>
    q.add(entry.topic, { dead_letter_id: entry.id, event_id: entry.eventId, queue: entry.queue, error: entry.error }, { jobId: entry.id }),
  ).catch((err) => logger.warn({ err: (err as Error).message, deadLetterId: entry.id }, 'could not mirror a dead letter to the dashboard'));
  logger.warn(
    { deadLetterId: entry.id, eventId: entry.eventId, topic: entry.topic, queue: entry.queue, error: entry.error },
    'event dead-lettered',
  );
  return entry;
}

/** The dead letter queue as the operators' API sees it (the org subgraph's `dlq` module is handed this). */
export function deadLetterStore(orm: MikroORM): DeadLetterStore {
  const em = () => orm.em.fork();
  const find = (id: string) => (isUuid(id) ? em().findOne(DeadLetter, { id }) : Promise.resolve(null));
  const remove = async (entry: DeadLetter) => {
    await em().nativeDelete(DeadLetter, { id: entry.id });
    await withQueue(DEAD_LETTER_QUEUE, (q) => q.remove(entry.id)).catch(() => undefined);
  };
  return {
    async list({ page, limit, topic }) {
      const where: FilterQuery<DeadLetter> = topic ? { topic } : {};
      const [items, total] = await em().findAndCount(DeadLetter, where, {
        limit,
        offset: (page - 1) * limit,
        orderBy: { createdAt: 'desc', id: 'desc' },
      });
      return { items: items as DeadLetterEntry[], total };
    },
    async depth() {
      const [depth, oldest] = await Promise.all([
        em().count(DeadLetter, {}),
        em()
          .find(DeadLetter, {}, { orderBy: { createdAt: 'asc' }, fields: ['createdAt'], limit: 1 })
          .then((rows) => rows[0]),
      ]);
      return { depth, oldestEvent: oldest?.createdAt ?? null };
    },
    /** Puts the event back on the queue it failed in, with fresh attempts, and removes it from the DLQ. */
    async retry(id) {
      const entry = await find(id);
      if (!entry) return null;
      let data: unknown = entry.envelope;
      if (!data) {
        try {
          data = JSON.parse(entry.originalPayload);
        } catch {
          throw errors.conflict('This entry is not JSON and can never be processed; discard it');
        }
      }
      await withQueue(entry.queue, async (queue) => {
        // The failed job still holds the event's id on that queue; the retry gets a fresh job.
        await queue.remove(entry.eventId).catch(() => undefined);
        await queue.add(entry.topic, data, { ...retryOptions(), jobId: `${entry.eventId}:retry:${entry.id}` });
      });
      await remove(entry);
      return entry;
    },
    async discard(id) {
      const entry = await find(id);
      if (!entry) return null;
      await remove(entry);
      return entry;
    },
  };
}
