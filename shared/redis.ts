import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { config, redactUrl } from './config';
import { StartupError } from './db';
import { logger } from './logger';

export { Cluster, Redis };

/** A connection to one Redis or to a Redis Cluster (REDIS_CLUSTER_NODES): the same commands either way. */
export type RedisClient = Redis | Cluster;

/** The seed nodes of the configured Redis Cluster; none when the deployment uses one Redis (REDIS_URL). */
export function clusterNodes(): { host: string; port: number }[] {
  const nodes = config().REDIS_CLUSTER_NODES;
  if (!nodes) return [];
  return nodes.split(',').map((n) => {
    const at = n.lastIndexOf(':');
    return { host: n.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(n.slice(at + 1)) };
  });
}

/**
 * A Redis connection. `forWorkers` connections wait forever for Redis to come back (BullMQ requires
 * `maxRetriesPerRequest: null`); others give up after two retries. `failFast` ones (the request path, connected
 * at start) reject commands at once while Redis is away, so callers fall back instead of waiting.
 * With REDIS_CLUSTER_NODES it is a cluster client: commands go to the master of their key's slot, and a failover
 * (a replica promoted) is followed by refreshing the slot map. Every multi-key command and script of the platform
 * keeps its keys in one slot (BullMQ: one hash tag per queue, shared/queues.ts).
 */
export function createRedis(opts: { forWorkers?: boolean; failFast?: boolean; url?: string } = {}): RedisClient {
  const options: RedisOptions = {
    lazyConnect: true,
    enableAutoPipelining: true,
    enableOfflineQueue: !opts.failFast,
    maxRetriesPerRequest: opts.forWorkers ? null : 2,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
  const seeds = opts.url ? [] : clusterNodes();
  let client: RedisClient;
  if (seeds.length) {
    const url = new URL(config().REDIS_URL);
    client = new Cluster(seeds, {
      lazyConnect: true,
      enableAutoPipelining: true,
      enableOfflineQueue: !opts.failFast,
      clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      // A moved slot or a failover answers MOVED/TRYAGAIN/CLUSTERDOWN for a moment: retry rather than fail.
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 300,
      retryDelayOnTryAgain: 200,
      slotsRefreshTimeout: 2000,
      redisOptions: {
        maxRetriesPerRequest: options.maxRetriesPerRequest,
        username: url.username ? decodeURIComponent(url.username) : undefined,
        password: url.password ? decodeURIComponent(url.password) : undefined,
        tls: url.protocol === 'rediss:' ? {} : undefined,
      },
    });
  } else {
    client = new Redis(opts.url ?? config().REDIS_URL, options);
  }
  client.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  return client;
}

/** Connects and pings once; an unreachable Redis becomes one clear line naming the URL. */
export async function connectRedis(client: RedisClient, url = config().REDIS_CLUSTER_NODES ?? config().REDIS_URL): Promise<void> {
  try {
    if (client.status === 'wait') await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    throw new StartupError(
      `Cannot reach Redis at ${url.includes('://') ? redactUrl(url) : url} (${(err as Error).message}). Start it (for example: ` +
        `redis-server --daemonize yes) or set REDIS_URL (REDIS_CLUSTER_NODES for a Redis Cluster).`,
    );
  }
}

/** Every key this deployment writes starts with the configured prefix. */
export function redisKey(...parts: string[]): string {
  return [config().REDIS_PREFIX, ...parts].join(':');
}

let shared: RedisClient | undefined;
let holders = 0;

/** The process-wide Redis connection for caches and rate limits (request path: fails fast). */
export function appRedis(): RedisClient {
  shared ??= createRedis({ failFast: true });
  return shared;
}

/** Declares a user of the shared connection (a platform, a subgraph server); pair with `closeAppRedis`. */
export function holdAppRedis(): RedisClient {
  holders++;
  return appRedis();
}

/** Releases the shared connection; the last holder closes it. */
export async function closeAppRedis(): Promise<void> {
  holders = Math.max(0, holders - 1);
  if (holders > 0) return;
  const client = shared;
  shared = undefined;
  if (client) await client.quit().catch(() => client.disconnect());
}

/** Deletes every key of a deployment prefix (scratch runs: tests, the bench); on a cluster, on every master. */
export async function deletePrefix(client: RedisClient, prefix: string): Promise<void> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      // One DEL per key: keys of a cluster node may still lie in different slots.
      await Promise.all(keys.map((k) => node.del(k)));
      cursor = next;
    } while (cursor !== '0');
  }
}

/** Deletes keys that may lie in different cluster slots (a multi-key DEL would be refused there: CROSSSLOT). */
export async function deleteKeys(client: RedisClient, keys: string[]): Promise<number> {
  const removed = await Promise.all(keys.map((k) => client.del(k)));
  return removed.reduce((a, b) => a + b, 0);
}
