import { LockMode, type EntityClass, type FilterQuery } from '@mikro-orm/core';
import type { SubgraphContext } from './subgraph';

/**
 * Applies `change` to a row locked (`SELECT ... FOR UPDATE`) in a transaction, so two changes of the same row at
 * the same moment (sign and cancel, discharge and transfer) run one after the other, each seeing the other's result.
 * `change` gets the request's context bound to the transaction: what it creates or records (events, audit) commits
 * with the row.
 */
export function lockedChange<T extends { id: string }>(
  ctx: SubgraphContext,
  entity: EntityClass<T>,
  id: string,
  change: (tx: SubgraphContext, row: T) => void | Promise<void>,
): Promise<T> {
  return ctx.em.transactional(async (em) => {
    const row = await em.findOneOrFail(entity, { id } as FilterQuery<T>, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    await change({ ...ctx, em }, row);
    return row;
  });
}
