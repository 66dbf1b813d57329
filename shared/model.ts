import { createHash, randomUUID } from 'node:crypto';
import { PrimaryKey, Property, raw, type EntityClass, type FilterQuery, type Opt, type QueryOrderMap } from '@mikro-orm/core';
import { Max, Min } from 'class-validator';
import { ArgsType, Field, ID, Int, ObjectType, type ClassType } from 'type-graphql';
import type { EntityManager } from './db';
import { errors } from './errors';

/**
 * Building blocks shared by every subgraph's entities and GraphQL types. Entities double as GraphQL object types:
 * a column is exposed only when it also carries `@Field`.
 */
@ObjectType()
export abstract class BaseRecord {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Field(() => Date)
  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 1, description: 'Page number, from 1' })
  @Min(1)
  page: number = 1;

  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Items per page, 1 to ${MAX_PAGE_SIZE}` })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
}

export interface PageResult<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  /** The total is the planner's estimate, not a count (see paginateCapped). */
  totalIsEstimate?: boolean;
}

/** A page of `item`s. The REST adapter answers any `*Page` type with the list envelope and its `meta`. */
export function PageOf<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class Page implements PageResult<T> {
    @Field(() => [item], { description: 'The items of this page, at most `limit`' })
    items!: T[];

    @Field(() => Int, { description: 'Total number of items across all pages' })
    total!: number;

    @Field(() => Int, { description: "This page's number, from 1" })
    page!: number;

    @Field(() => Int, { description: 'Most items per page' })
    limit!: number;
  }
  return Page;
}

export async function paginate<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
  args: PageArgs,
  orderBy: QueryOrderMap<T> = { createdAt: 'desc', id: 'asc' } as QueryOrderMap<T>,
): Promise<PageResult<T>> {
  const [items, total] = await em.findAndCount(entity, where, {
    limit: args.limit,
    offset: (args.page - 1) * args.limit,
    orderBy,
  });
  return { items, total, page: args.page, limit: args.limit };
}

/** Totals up to this are counted exactly; past it, paginateCapped estimates them. */
export const EXACT_TOTAL_UP_TO = 1000;

/**
 * A page whose total does not cost a count of every match: matches are counted up to EXACT_TOTAL_UP_TO (a count over
 * `LIMIT cap + 1`, which stops early); past that the total is PostgreSQL's own estimate of the matches (never below
 * cap + 1) and `totalIsEstimate` is true. For lists that grow with an organization (its patients), where counting
 * them all on every page would make each page cost as much as the organization is large. `where` may be a function
 * building the filter, for filters with `raw()` keys (each such key is good for one query).
 */
export async function paginateCapped<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  where: FilterQuery<T> | (() => FilterQuery<T>),
  args: PageArgs,
  orderBy: QueryOrderMap<T>,
  cap = EXACT_TOTAL_UP_TO,
): Promise<PageResult<T>> {
  const filter = () => (typeof where === 'function' ? (where as () => FilterQuery<T>)() : where);
  const matches = () => em.createQueryBuilder(entity).select(raw('1')).where(filter());
  const knex = em.getKnex();
  const ctx = em.getTransactionContext();
  const [items, counted] = await Promise.all([
    em.find(entity, filter(), { limit: args.limit, offset: (args.page - 1) * args.limit, orderBy }),
    em.getConnection().execute<{ n: number }[]>(
      knex.count({ n: '*' }).from(
        matches()
          .limit(cap + 1)
          .getKnexQuery()
          .as('capped'),
      ),
      [],
      'all',
      ctx,
    ),
  ]);
  const total = Number(counted[0].n);
  if (total <= cap) return { items, total, page: args.page, limit: args.limit };
  const plan = await em
    .getConnection()
    .execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[]>(
      `explain (format json) ${matches().getFormattedQuery()}`,
      [],
      'all',
      ctx,
    );
  const estimate = Math.round(plan[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  return { items, total: Math.max(cap + 1, estimate), totalIsEstimate: true, page: args.page, limit: args.limit };
}

const byIdSql = new Map<string, string>();

/**
 * Loads entities by id for a DataLoader batch, preserving key order. This is the hottest read of every subgraph,
 * so the SQL is built once per entity from the ORM's metadata and rows are hydrated with `em.map`: the entities
 * are managed as usual, without the query builder's cost on every call.
 */
export function byIds<T extends { id: string }>(em: EntityManager, entity: EntityClass<T>) {
  return async (ids: readonly string[]): Promise<(T | null)[]> => {
    const meta = em.getMetadata().get(entity.name);
    const schema = meta.schema ?? em.config.get('schema');
    const key = `${schema}.${meta.className}`;
    let sql = byIdSql.get(key);
    if (!sql) {
      const columns = meta.props
        .filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length)
        .flatMap((p) => p.fieldNames.map((f) => `"${f}"`));
      sql = `select ${columns.join(', ')} from "${schema}"."${meta.tableName}" where "id" in (?)`;
      byIdSql.set(key, sql);
    }
    const rows = await em.getConnection().execute<Record<string, unknown>[]>(sql, [ids], 'all', em.getTransactionContext());
    const found = new Map<string, T>();
    for (const row of rows) {
      const item = em.map(entity, row as never);
      found.set(item.id, item);
    }
    return ids.map((id) => found.get(id) ?? null);
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID derived from `name` (RFC 9562 version 8 over SHA-256): the same name always gives the same id. */
export function uuidFrom(name: string): string {
  const h = createHash('sha256').update(name).digest().subarray(0, 16);
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Ids come from URLs and clients; anything that is not a UUID cannot name a record. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * The fields a PATCH-style input sets: absent fields are left alone, null clears an optional field, and null on a
 * field listed in `required` is a validation error naming it.
 */
export function patchFrom<T extends object>(input: T, required: readonly (keyof T & string)[] = []): Partial<T> {
  const patch: Record<string, unknown> = {};
  const nulls: string[] = [];
  for (const [key, value] of Object.entries(input) as [keyof T & string, unknown][]) {
    if (value === undefined) continue;
    if (value === null && required.includes(key)) nulls.push(key);
    patch[key] = value;
  }
  if (nulls.length) throw errors.validation(nulls.map((field) => ({ field, message: 'cannot be null' })));
  return patch as Partial<T>;
}

/** The fields a create input sets: a field sent as null is as if it were not sent (its default applies). */
export function given<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** The fields of a patch that would change the record (times compared as instants, a missing value as null). */
export function changedKeys<T extends object>(record: T, patch: Partial<T>): (keyof T & string)[] {
  const same = (a: unknown, b: unknown) =>
    a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === (b ?? null);
  return (Object.keys(patch) as (keyof T & string)[]).filter((k) => !same(record[k], patch[k]));
}

/** The answer of an action that returns no record (logout, password reset, ...). */
@ObjectType({ description: 'The outcome of an action that returns no record' })
export class ActionResult {
  @Field(() => Boolean)
  success!: boolean;

  @Field()
  message!: string;
}

export const done = (message: string): ActionResult => ({ success: true, message });
