import type { QueueCounts, QueueOverview } from '../shared/plumbing';
import { openQueue } from '../shared/queues';
import { appRedis } from '../shared/redis';
import { platformQueueNames, type WorkRegistry } from './registry';

/** The platform's queues with their job counts, for the health check (queues opened per call: health checks are rare). */
export function queueOverview(registry: WorkRegistry): QueueOverview {
  const names = platformQueueNames(registry);
  return {
    names: () => names,
    async counts(): Promise<QueueCounts[]> {
      const queues = names.map((name) => openQueue(name, appRedis()));
      try {
        return await Promise.all(
          queues.map(async (q) => {
            const c = await q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
            return {
              name: q.name,
              waiting: c.waiting ?? 0,
              active: c.active ?? 0,
              delayed: c.delayed ?? 0,
              failed: c.failed ?? 0,
              completed: c.completed ?? 0,
            };
          }),
        );
      } finally {
        await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
      }
    },
  };
}
