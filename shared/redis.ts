import { Redis, type RedisOptions } from 'ioredis';
import { config, redactUrl } from './config';
import { StartupError } from './db';
import { logger } from './logger';

export { Redis };

/**
 * A Redis connection. `forWorkers` connections wait forever for Redis to come back (BullMQ requires
 * `maxRetriesPerRequest: null`); others give up after two retries. `failFast` ones (the request path, connected
 * at start) reject commands at once while Redis is away, so callers fall back instead of waiting.
 */
export function createRedis(opts: { forWorkers?: boolean; failFast?: boolean; url?: string } = {}): Redis {
  const options: RedisOptions = {
    lazyConnect: true,
    enableAutoPipelining: true,
    enableOfflineQueue: !opts.failFast,
    maxRetriesPerRequest: opts.forWorkers ? null : 2,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
  const client = new Redis(opts.url ?? config().REDIS_URL, options);
  client.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  return client;
}

/** Connects and pings once; an unreachable Redis becomes one clear line naming the URL. */
export async function connectRedis(client: Redis, url = config().REDIS_URL): Promise<void> {
  try {
    if (client.status === 'wait') await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    throw new StartupError(
      `Cannot reach Redis at ${redactUrl(url)} (${(err as Error).message}). Start it (for example: ` +
        `redis-server --daemonize yes) or set REDIS_URL.`,
    );
  }
}

/** Every key this deployment writes starts with the configured prefix. */
export function redisKey(...parts: string[]): string {
  return [config().REDIS_PREFIX, ...parts].join(':');
}

let shared: Redis | undefined;
let holders = 0;

/** The process-wide Redis connection for caches and rate limits (request path: fails fast). */
export function appRedis(): Redis {
  shared ??= createRedis({ failFast: true });
  return shared;
}

/** Declares a user of the shared connection (a platform, a subgraph server); pair with `closeAppRedis`. */
export function holdAppRedis(): Redis {
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

/** Deletes every key of a deployment prefix (scratch runs: tests, the bench). */
export async function deletePrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
