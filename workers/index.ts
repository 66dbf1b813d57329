import type { MikroORM } from '../shared/db';
import { logger } from '../shared/logger';
import type { Peers } from '../shared/peers';
import type { Plumbing } from '../shared/plumbing';
import { EVENTS_QUEUE, openQueue } from '../shared/queues';
import { createRedis } from '../shared/redis';
import { EventBus } from './bus';
import { OutboxRelay } from './outbox-relay';
import { queueOverview } from './queue-overview';
import type { WorkRegistry } from './registry';
import { Scheduler } from './scheduler';
import type { PlatformStore } from './store';

export interface Workers {
  relay: OutboxRelay;
  bus: EventBus;
  scheduler: Scheduler;
  close(): Promise<void>;
}

export interface WorkerParts {
  /** Each subgraph's database, by subgraph name. */
  sources: { name: string; orm: MikroORM }[];
  /** The platform schema: dead letters, webhook deliveries and their outbox. */
  store: PlatformStore;
  registry: WorkRegistry;
  /** The subgraphs, for consumers that ask them. */
  peers: Peers;
}

/** Starts the background work: the outbox relay of every schema, the dispatcher, the consumers and the scheduler. */
export async function startWorkers(parts: WorkerParts): Promise<Workers> {
  const outboxes = [...parts.sources, { name: 'platform', orm: parts.store.orm }];
  const orms = new Map(outboxes.map((s) => [s.name, s.orm]));
  // The relay publishes inside a database transaction: its connection fails fast instead of waiting for Redis,
  // so a pass rolls back (nothing is lost, row locks are released) and the next pass tries again.
  const connection = createRedis();
  const queue = openQueue(EVENTS_QUEUE, connection);
  const relay = new OutboxRelay(outboxes, queue);
  relay.start();
  const bus = new EventBus(orms, parts.registry.consumers, parts.peers);
  bus.start();
  const scheduler = new Scheduler(orms, parts.registry.jobs);
  await scheduler.start();
  logger.info({ schemas: outboxes.map((s) => s.name) }, 'workers started');
  return {
    relay,
    bus,
    scheduler,
    async close() {
      await relay.stop();
      await bus.stop();
      await scheduler.stop();
      await queue.close();
      await connection.quit().catch(() => undefined);
    },
  };
}

export { platformQueueNames, workRegistry, type WorkRegistry } from './registry';
export { openPlatformStore, type PlatformStore } from './store';

/** What the platform hands to each subgraph it starts (shared/plumbing.ts): the dead letter store and the queues. */
export function plumbingOf(store: PlatformStore, registry: WorkRegistry): Plumbing {
  return { deadLetters: store.deadLetters, queues: queueOverview(registry) };
}
