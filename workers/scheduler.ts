import { Worker, type Queue } from 'bullmq';
import { clock } from '../shared/clock';
import type { MikroORM } from '../shared/db';
import { logger } from '../shared/logger';
import { bullPrefix, openQueue, SCHEDULED_QUEUE, workerOptions } from '../shared/queues';
import { createRedis, type RedisClient } from '../shared/redis';
import type { JobRegistration } from './registry';

/**
 * Runs the modules' scheduled jobs. Each job is a BullMQ job scheduler keyed by the job's name, so however many
 * worker processes start, each run happens once; a run works in one transaction of its subgraph's database.
 * Schedulers of jobs that no longer exist are removed.
 */
export class Scheduler {
  private queue?: Queue;
  private worker?: Worker;
  private readonly connections: RedisClient[] = [];

  constructor(
    private readonly orms: Map<string, MikroORM>,
    private readonly jobs: JobRegistration[],
  ) {}

  async start(): Promise<void> {
    const jobs = this.jobs.filter((j) => this.orms.has(j.subgraph));
    const connection = createRedis();
    this.connections.push(connection);
    this.queue = openQueue(SCHEDULED_QUEUE, connection);
    for (const { job } of jobs) {
      await this.queue.upsertJobScheduler(job.name, { every: job.everyMs }, { name: job.name, data: {}, opts: { attempts: 1 } });
    }
    for (const existing of await this.queue.getJobSchedulers()) {
      const key = existing.key ?? existing.name;
      if (!jobs.some((j) => j.job.name === key)) await this.queue.removeJobScheduler(key);
    }
    const workerConnection = createRedis({ forWorkers: true });
    this.connections.push(workerConnection);
    this.worker = new Worker(
      SCHEDULED_QUEUE,
      async (bullJob) => {
        const registration = jobs.find((j) => j.job.name === bullJob.name);
        if (!registration) return; // a scheduler left by an older version; removed at the next start
        const orm = this.orms.get(registration.subgraph)!;
        await orm.em.fork().transactional((em) => registration.job.run({ em, now: clock.now() }));
      },
      { ...workerOptions(), connection: workerConnection, prefix: bullPrefix(SCHEDULED_QUEUE), concurrency: 1 },
    );
    this.worker.on('failed', (job, err) =>
      logger.warn({ job: job?.name, err: err.message }, 'scheduled job failed; it runs again at its next time'),
    );
    this.worker.on('error', (err) => logger.warn({ err: err.message }, 'scheduler connection error'));
    if (jobs.length) logger.info({ jobs: jobs.map((j) => j.job.name) }, 'scheduled jobs registered');
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }
}
