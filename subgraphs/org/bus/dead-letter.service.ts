import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { config } from '../../../shared/config';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { requirePlatformPermission } from '../../../shared/permissions';
import { DEAD_LETTER_QUEUE, openQueue, retryOptions } from '../../../shared/queues';
import { appRedis } from '../../../shared/redis';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DeadLetter } from './bus.entities';
import type { DeadLetterAction, DeadLetterDepth, DeadLetterListArgs } from './bus.types';

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
  logger.warn({ deadLetterId: entry.id, eventId: entry.eventId, topic: entry.topic, queue: entry.queue, error: entry.error }, 'event dead-lettered');
  return entry;
}

/** The dead letter queue, for administrators (SUPER:ADMIN, APP:ADMIN). */
export class DeadLetterService {
  async list(ctx: SubgraphContext, args: DeadLetterListArgs): Promise<PageResult<DeadLetter>> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const where: FilterQuery<DeadLetter> = args.topic ? { topic: args.topic } : {};
    return paginate(ctx.em, DeadLetter, where, args, { createdAt: 'desc', id: 'desc' });
  }

  async depth(ctx: SubgraphContext): Promise<DeadLetterDepth> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const threshold = config().DLQ_ALERT_THRESHOLD;
    const [depth, oldest] = await Promise.all([
      ctx.em.count(DeadLetter, {}),
      ctx.em.find(DeadLetter, {}, { orderBy: { createdAt: 'asc' }, fields: ['createdAt'], limit: 1 }).then((rows) => rows[0]),
    ]);
    return { depth, alert: depth >= threshold, threshold, oldestEvent: oldest?.createdAt ?? null };
  }

  /** Puts the event back on the queue it failed in, with fresh attempts, and removes it from the DLQ. */
  async retry(ctx: SubgraphContext, id: string): Promise<DeadLetterAction> {
    const entry = await this.find(ctx, id);
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
    await this.remove(ctx.em, entry);
    return { id: entry.id, eventId: entry.eventId, topic: entry.topic, outcome: 'retried', queue: entry.queue };
  }

  async discard(ctx: SubgraphContext, id: string): Promise<DeadLetterAction> {
    const entry = await this.find(ctx, id);
    await this.remove(ctx.em, entry);
    logger.info({ deadLetterId: entry.id, eventId: entry.eventId, by: ctx.viewer?.userId }, 'dead letter discarded');
    return { id: entry.id, eventId: entry.eventId, topic: entry.topic, outcome: 'discarded', queue: null };
  }

  private async find(ctx: SubgraphContext, id: string): Promise<DeadLetter> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const entry = isUuid(id) ? await ctx.em.findOne(DeadLetter, { id }) : null;
    if (!entry) throw errors.notFound('Dead letter');
    return entry;
  }

  private async remove(em: EntityManager, entry: DeadLetter): Promise<void> {
    await em.nativeDelete(DeadLetter, { id: entry.id });
    await withQueue(DEAD_LETTER_QUEUE, (q) => q.remove(entry.id)).catch(() => undefined);
  }
}
