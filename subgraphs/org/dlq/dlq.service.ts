import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import type { PageResult } from '../../../shared/model';
import { requirePlatformPermission } from '../../../shared/permissions';
import type { DeadLetterEntry, DeadLetterStore } from '../../../shared/plumbing';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { DeadLetterAction, DeadLetterDepth, DeadLetterListArgs } from './dlq.types';

/** The store the platform handed this subgraph; without one, the operators' API cannot answer. */
function store(ctx: SubgraphContext): DeadLetterStore {
  const found = ctx.plumbing.deadLetters;
  if (!found) throw errors.serviceUnavailable('The dead letter store is not available in this process');
  return found;
}

/**
 * The dead letter queue for administrators (SUPER:ADMIN, APP:ADMIN). The entries live in the platform's own store
 * (workers/), which dead letters of every subgraph's events go to; this module is only their API.
 */
export class DeadLetterService {
  async list(ctx: SubgraphContext, args: DeadLetterListArgs): Promise<PageResult<DeadLetterEntry>> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const { items, total } = await store(ctx).list({ page: args.page, limit: args.limit, topic: args.topic });
    return { items, total, page: args.page, limit: args.limit };
  }

  async depth(ctx: SubgraphContext): Promise<DeadLetterDepth> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const threshold = config().DLQ_ALERT_THRESHOLD;
    const { depth, oldestEvent } = await store(ctx).depth();
    return { depth, alert: depth >= threshold, threshold, oldestEvent };
  }

  /** Puts the event back on the queue it failed in, with fresh attempts, and removes it from the DLQ. */
  async retry(ctx: SubgraphContext, id: string): Promise<DeadLetterAction> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const entry = await store(ctx).retry(id);
    if (!entry) throw errors.notFound('Dead letter');
    return { id: entry.id, eventId: entry.eventId, topic: entry.topic, outcome: 'retried', queue: entry.queue };
  }

  async discard(ctx: SubgraphContext, id: string): Promise<DeadLetterAction> {
    requirePlatformPermission(ctx.viewer, 'admin:dlq');
    const entry = await store(ctx).discard(id);
    if (!entry) throw errors.notFound('Dead letter');
    logger.info({ deadLetterId: entry.id, eventId: entry.eventId, by: ctx.viewer?.userId }, 'dead letter discarded');
    return { id: entry.id, eventId: entry.eventId, topic: entry.topic, outcome: 'discarded', queue: null };
  }
}
