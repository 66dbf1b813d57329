import { Kind, parse } from 'graphql';
import { config } from './config';
import { replicaUrls } from './db';
import { logger } from './logger';
import { appRedis, redisKey } from './redis';
import type { Viewer } from './viewer';

/**
 * Where a subgraph request reads, when the deployment has read replicas (DATABASE_REPLICA_URLS). The rule:
 *
 * - Mutations use the primary, and mark their caller (user or API key) as a recent writer in Redis for
 *   READ_YOUR_WRITES_SECONDS, before they run; every process sees the mark.
 * - Queries of a signed-in caller read from a replica unless that caller is marked: a client that just wrote
 *   reads its own write from the primary, whichever gateway or subgraph replica serves it.
 * - Everything else reads from the primary: anonymous callers (no identity to remember a write by), the platform
 *   itself (consumers and scheduled jobs asking peers about what an event just said), and any request while the
 *   mark cannot be checked (Redis unreachable).
 * - Whatever the request, its transactions and flushes go to the primary (MikroORM), so checks made inside a
 *   write transaction never see a replica.
 */
export async function readsFor(viewer: Viewer | undefined, body: unknown): Promise<'primary' | 'replica'> {
  if (!replicaUrls().length || !viewer || viewer.system) return 'primary';
  const kind = operationKind(body);
  const mark = redisKey('wrote', viewer.apiKey ? `key:${viewer.apiKey.id}` : `user:${viewer.userId}`);
  try {
    if (kind !== 'query') {
      await appRedis().set(mark, '1', 'EX', config().READ_YOUR_WRITES_SECONDS);
      return 'primary';
    }
    return (await appRedis().exists(mark)) ? 'primary' : 'replica';
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'read-your-writes mark unavailable; reading from the primary');
    return 'primary';
  }
}

/** The kind of the operation a GraphQL request body runs; anything unclear counts as a mutation (primary). */
function operationKind(body: unknown): 'query' | 'mutation' {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return 'mutation';
  try {
    const ops = parse(query, { noLocation: true }).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    const op = ops.length === 1 ? ops[0] : ops.find((o) => o.name?.value === operationName);
    return op?.operation === 'query' ? 'query' : 'mutation';
  } catch {
    return 'mutation';
  }
}
