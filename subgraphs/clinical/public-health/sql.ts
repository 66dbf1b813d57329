import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';

/** The schema-qualified table of an entity, for the few aggregate queries written in SQL. */
export function tableOf(em: EntityManager, entity: EntityClass<object>): string {
  const meta = em.getMetadata().get(entity.name);
  return `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
}

/** Runs a read in the entity manager's transaction, if it has one. */
export function rows<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

/** Serializes work on one key until the transaction ends (PostgreSQL advisory lock). */
export async function lockKey(em: EntityManager, key: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** Today, `YYYY-MM-DD`, in UTC. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
