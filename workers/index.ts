import type { MikroORM } from '../shared/db';
import { logger } from '../shared/logger';
import { EVENTS_QUEUE, openQueue } from '../shared/queues';
import { createRedis } from '../shared/redis';
import { EventBus } from './bus';
import { OutboxRelay } from './outbox-relay';

export interface Workers {
  relay: OutboxRelay;
  bus: EventBus;
  close(): Promise<void>;
}

/** Starts the background work: the outbox relay of every subgraph, the dispatcher and the consumers. */
export async function startWorkers(sources: { name: string; orm: MikroORM }[]): Promise<Workers> {
  // The relay publishes inside a database transaction: its connection fails fast instead of waiting for Redis,
  // so a pass rolls back (nothing is lost, row locks are released) and the next pass tries again.
  const connection = createRedis();
  const queue = openQueue(EVENTS_QUEUE, connection);
  const relay = new OutboxRelay(sources, queue);
  relay.start();
  const bus = new EventBus(new Map(sources.map((s) => [s.name, s.orm])));
  bus.start();
  logger.info({ subgraphs: sources.map((s) => s.name) }, 'workers started');
  return {
    relay,
    bus,
    async close() {
      await relay.stop();
      await bus.stop();
      await queue.close();
      await connection.quit().catch(() => undefined);
    },
  };
}
