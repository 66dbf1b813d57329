import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { EntityManager } from './db';

/**
 * Human-facing numbers that count up per owner (medical record numbers per organization, invoice numbers per
 * organization). Every subgraph that needs one has this table in its own schema.
 */
@Entity({ tableName: 'counters' })
export class Counter {
  @PrimaryKey({ type: 'text' })
  scope!: string;

  @PrimaryKey({ type: 'text' })
  owner!: string;

  @Property({ type: 'integer' })
  value!: number;
}

/**
 * The next value of a counter, atomically: concurrent callers never get the same number. Call it inside the
 * transaction that uses the number, so a rollback leaves a gap rather than a duplicate.
 */
export async function nextCounterValue(em: EntityManager, scope: string, owner: string): Promise<number> {
  const schema = em.config.get('schema');
  const rows = await em.getConnection().execute<{ value: number }[]>(
    `insert into "${schema}".counters (scope, owner, value) values (?, ?, 1)
     on conflict (scope, owner) do update set value = counters.value + 1 returning value`,
    [scope, owner],
    'all',
    em.getTransactionContext(),
  );
  return rows[0].value;
}

export function formatNumber(prefix: string, value: number): string {
  return `${prefix}-${String(value).padStart(6, '0')}`;
}
