import type { EntityClass } from '@mikro-orm/core';
import { Max, Min } from 'class-validator';
import { ArgsType, Directive, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import type { EntityManager } from './db';
import { errors } from './errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, isUuid } from './model';
import type { SubgraphContext } from './subgraph';

/**
 * Cursor connections (the GraphQL Cursor Connections specification) for lists that grow: `first`/`after` pages
 * forward, `last`/`before` backward, `pageInfo` says whether there is more, `totalCount` is counted only when asked.
 * Paging is by keyset (the sort key and the id of the last row seen, in an opaque cursor), never by offset: a row
 * inserted or removed at the head of the list while a client scrolls shifts nothing, so no row is seen twice or
 * skipped. See docs/graphql.md ("Lists").
 */

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, {
    nullable: true,
    description: `Items after \`after\`, 1 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when neither first nor last is given`,
  })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'A cursor from this list: the items that come after it' })
  after?: string | null;

  @Field(() => Int, { nullable: true, description: `Items before \`before\`, 1 to ${MAX_PAGE_SIZE}; pages backward` })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  last?: number | null;

  @Field(() => String, { nullable: true, description: 'A cursor from this list: the items that come before it' })
  before?: string | null;
}

@ObjectType({ description: 'Where a page of a connection sits in the whole list' })
@Directive('@shareable')
export class PageInfo {
  @Field(() => Boolean, { description: 'More items follow the last edge (in list order)' })
  hasNextPage!: boolean;

  @Field(() => Boolean, {
    description: 'More items precede the first edge; when paging forward, true whenever `after` was given',
  })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first edge; null for an empty page' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last edge; null for an empty page' })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  nodes: T[];
  pageInfo: PageInfo;
  /** Read lazily: the count runs only when a client selects `totalCount`. */
  readonly totalCount: Promise<number> | number;
}

/**
 * A connection of `item`s, named after `name` (the item's GraphQL type name): `XConnection` with `XEdge`. Used
 * like `PageOf`: `@ObjectType() export class VitalConnection extends ConnectionOf(Vital, 'Vital') {}`.
 */
export function ConnectionOf<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} in a connection, with its cursor` })
  class EdgeType implements Edge<T> {
    @Field(() => String, { description: 'Opaque; pass it as `after` or `before` to page from this item' })
    cursor!: string;

    @Field(() => item)
    node!: T;
  }

  @ObjectType()
  abstract class ConnectionType implements Connection<T> {
    @Field(() => [EdgeType])
    edges!: Edge<T>[];

    @Field(() => [item], { description: 'The nodes of `edges`, for clients that need no cursors' })
    nodes!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'Items in the whole list (every page); counted only when selected' })
    totalCount!: number;
  }
  return ConnectionType;
}

/** What a cursor holds: the row's sort key (a canonical UTC timestamp with microseconds) and its id. */
export interface CursorPosition {
  key: string;
  id: string;
}

const KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const MAX_CURSOR_LENGTH = 200;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id]), 'utf8').toString('base64url');
}

/** The position in `cursor`, or a VALIDATION_ERROR naming `field` for anything this platform did not hand out. */
export function decodeCursor(cursor: string, field: string): CursorPosition {
  const bad = () => errors.invalidField(field, 'must be a cursor taken from this list');
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw bad();
  const [key, id] = parsed as unknown[];
  if (typeof key !== 'string' || !KEY.test(key) || !isUuid(id)) throw bad();
  // A real instant: the same text back (no 31 February, no hour 25), or PostgreSQL would refuse it.
  const ms = Date.parse(key);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 23) !== key.slice(0, 23)) throw bad();
  return { key, id };
}

/** Which way and how far to read: `first`/`after` forward, `last`/`before` backward, never both ways at once. */
export interface Window {
  forward: boolean;
  size: number;
  from?: CursorPosition;
}

export function windowOf(args: ConnectionArgs): Window {
  const { first, after, last, before } = args;
  const backward = last != null || before != null;
  if (backward && (first != null || after != null)) {
    throw errors.invalidField(last != null ? 'last' : 'before', 'cannot be combined with first or after: page one way at a time');
  }
  if (backward) {
    return { forward: false, size: last ?? DEFAULT_PAGE_SIZE, from: before != null ? decodeCursor(before, 'before') : undefined };
  }
  return { forward: true, size: first ?? DEFAULT_PAGE_SIZE, from: after != null ? decodeCursor(after, 'after') : undefined };
}

/**
 * A list read by keyset: the rows of one table whose `parentColumn` is a given id (a patient's vitals, a
 * conversation's messages), newest first by a non-null sort key then id. Written once per list.
 */
export interface KeysetList<T> {
  /** Unique per list: names the loaders and the cached SQL. */
  name: string;
  entity: EntityClass<T>;
  parentColumn: string;
  /** The sort key's column, or a constant SQL expression over the table's columns; never null. */
  sortColumn: string;
  /** The sort key's SQL type: an instant (default) or a calendar date. */
  sortType?: 'timestamptz' | 'date';
  /** A constant SQL filter on the table's columns (no parameters), such as hiding entered-in-error rows. */
  where?: string;
}

/**
 * Which rows of a list the caller may see, when that depends on who asks (the caller's organizations, their user
 * id): an SQL condition on the table's columns with its parameters (`?`), as the list's root query has it.
 */
export interface KeysetScope {
  sql: string;
  params: readonly unknown[];
}

const sqlCache = new Map<string, { page: Record<'forward' | 'backward' | 'forwardFrom' | 'backwardFrom', string>; count: string }>();

function sqlFor<T>(em: EntityManager, list: KeysetList<T>, scope?: KeysetScope) {
  const meta = em.getMetadata().get(list.entity.name);
  const schema = meta.schema ?? em.config.get('schema');
  const key = `${schema}.${list.name}${scope ? `|${scope.sql}` : ''}`;
  const cached = sqlCache.get(key);
  if (cached) return cached;
  const table = `"${schema}"."${meta.tableName}"`;
  const columns = meta.props
    .filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length)
    .flatMap((p) => p.fieldNames.map((f) => `"${f}"`));
  const parent = `"${list.parentColumn}"`;
  const sort = /^[a-z_]+$/.test(list.sortColumn) ? `"${list.sortColumn}"` : `(${list.sortColumn})`;
  const type = list.sortType ?? 'timestamptz';
  const cursorKey =
    type === 'date'
      ? `to_char(${sort}, 'YYYY-MM-DD"T00:00:00.000000Z"')`
      : `to_char(${sort} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const filter = (list.where ? ` and (${list.where})` : '') + (scope ? ` and (${scope.sql})` : '');
  const page = (forward: boolean, from: boolean) => {
    const dir = forward ? 'desc' : 'asc';
    const after = from ? ` and (${sort}, "id") ${forward ? '<' : '>'} (?::${type}, ?::uuid)` : '';
    return (
      `select ${columns.join(', ')}, "__cursor_key" ` +
      `from (select *, ${cursorKey} as "__cursor_key", row_number() over (partition by ${parent} order by ${sort} ${dir}, "id" ${dir}) as "__rn" ` +
      `from ${table} where ${parent} in (?)${filter}${after}) ranked where "__rn" <= ? order by ${parent}, "__rn"`
    );
  };
  const sql = {
    page: { forward: page(true, false), backward: page(false, false), forwardFrom: page(true, true), backwardFrom: page(false, true) },
    count: `select ${parent} as "parent", count(*)::int as "count" from ${table} where ${parent} in (?)${filter} group by ${parent}`,
  };
  sqlCache.set(key, sql);
  return sql;
}

/**
 * One page of `list` under `parentId`. Batched: every parent asked for with the same arguments in one GraphQL
 * request is read in one statement (a window function keeps each parent's rows apart), and `totalCount` in one more.
 * `scope`, when given, keeps the rows the caller may see (the same for every parent of the request).
 */
export async function keysetConnection<T extends { id: string }>(
  ctx: SubgraphContext,
  list: KeysetList<T>,
  parentId: string,
  args: ConnectionArgs,
  scope?: KeysetScope,
): Promise<Connection<T>> {
  const window = windowOf(args);
  const sql = sqlFor(ctx.em, list, scope);
  const text = sql.page[`${window.forward ? 'forward' : 'backward'}${window.from ? 'From' : ''}`];
  const scoped = scope ? `:${scope.sql}:${JSON.stringify(scope.params)}` : '';
  const loaderName = `connection:${list.name}${scoped}:${window.forward ? 'f' : 'b'}:${window.size}:${window.from ? encodeCursor(window.from) : ''}`;
  const scopeParams = scope?.params ?? [];
  const rows = await ctx
    .loader<string, Edge<T>[]>(loaderName, async (parents) => {
      const params: unknown[] = [parents, ...scopeParams, ...(window.from ? [window.from.key, window.from.id] : []), window.size + 1];
      const raw = await ctx.em.getConnection().execute<Record<string, unknown>[]>(text, params, 'all', ctx.em.getTransactionContext());
      const byParent = new Map<string, Edge<T>[]>();
      for (const { __cursor_key: key, __rn: _rank, ...row } of raw) {
        const parent = String(row[list.parentColumn]);
        const node = ctx.em.map(list.entity, row as never) as T;
        const edges = byParent.get(parent) ?? [];
        edges.push({ node, cursor: encodeCursor({ key: String(key), id: node.id }) });
        byParent.set(parent, edges);
      }
      return parents.map((id) => byParent.get(id) ?? []);
    })
    .load(parentId);
  const read = rows ?? [];
  const more = read.length > window.size;
  const edges = read.slice(0, window.size);
  if (!window.forward) edges.reverse();
  let count: Promise<number> | undefined;
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: window.forward ? more : !!window.from,
      hasPreviousPage: window.forward ? !!window.from : more,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    get totalCount() {
      count ??= ctx
        .loader<string, number>(`connection-count:${list.name}${scoped}`, async (parents) => {
          const raw = await ctx.em
            .getConnection()
            .execute<{ parent: string; count: number }[]>(sql.count, [parents, ...scopeParams], 'all', ctx.em.getTransactionContext());
          const counts = new Map(raw.map((r) => [String(r.parent), Number(r.count)]));
          return parents.map((id) => counts.get(id) ?? 0);
        })
        .load(parentId)
        .then((n) => n ?? 0);
      return count;
    },
  };
}

/** An empty page, for a parent whose list the caller may not read or that has none. */
export function emptyConnection<T>(): Connection<T> {
  return {
    edges: [],
    nodes: [],
    pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    totalCount: 0,
  };
}
