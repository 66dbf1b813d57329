import { Queue, UnrecoverableError, Worker, type Job, type Processor } from 'bullmq';
import { config } from '../shared/config';
import type { MikroORM } from '../shared/db';
import { parseEnvelope, PermanentEventError } from '../shared/events';
import { logger } from '../shared/logger';
import { uuidFrom } from '../shared/model';
import type { EventEnvelope } from '../shared/outbox';
import { bullPrefix, consumerQueue, EVENTS_QUEUE, openQueue, retryOptions, workerOptions } from '../shared/queues';
import { createRedis, type RedisClient } from '../shared/redis';
import type { Peers } from '../shared/peers';
import { SYSTEM_VIEWER } from '../shared/viewer';
import type { ConsumerRegistration } from './registry';
import { recordDeadLetter } from './store';

const CONCURRENCY = 5;
/** Failed jobs looked at per queue and sweep. */
const SWEEP_BATCH = 500;

/** Where a failed job's dead letter was recorded (kept in the job's progress field). */
const deadLetterIdOf = (job: Job): string | null =>
  typeof job.progress === 'object' && job.progress !== null ? ((job.progress as { dead_letter_id?: string }).dead_letter_id ?? null) : null;

/**
 * The event bus: a dispatcher on the `events` queue fans each event out to the queue of every consumer of its
 * topic (job id = event id, so a repeat is one job); each consumer's worker applies the event in a transaction of
 * its subgraph's database together with a `processed_events` row, so an event redelivered is applied once.
 * A poison event (not an envelope, or a handler's PermanentEventError) goes to the dead letter table at once; one
 * that keeps failing goes there after its retries. A failed job whose dead letter could not be written then
 * (PostgreSQL down, the process stopped) stays in its queue's failed set until a sweep records it.
 */
export class EventBus {
  private readonly workers: Worker[] = [];
  private readonly connections: RedisClient[] = [];
  private readonly queues = new Map<string, Queue>();
  private swept: string[] = [];
  private sweeper?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  /**
   * `orms`: each subgraph's database by name, and `platform`'s (dead letters); `consumers`: what runs;
   * `peers`: the subgraphs consumers may ask, as the platform itself.
   */
  constructor(
    private readonly orms: Map<string, MikroORM>,
    private readonly consumers: ConsumerRegistration[],
    private readonly peers: Peers,
  ) {}

  start(): void {
    const registrations = this.consumers.filter((r) => this.orms.has(r.subgraph));
    const routes = new Map<string, string[]>();
    for (const r of registrations) {
      for (const topic of r.consumer.topics) routes.set(topic, [...(routes.get(topic) ?? []), consumerQueue(r.consumer.name)]);
    }
    this.work(EVENTS_QUEUE, async (job) => {
      const event = this.envelopeOf(job);
      for (const name of routes.get(event.topic) ?? []) {
        await this.queue(name).add(event.topic, event, { ...retryOptions(), jobId: event.id });
      }
    });
    for (const r of registrations) this.work(consumerQueue(r.consumer.name), (job) => this.apply(r, job));
    this.swept = [EVENTS_QUEUE, ...registrations.map((r) => consumerQueue(r.consumer.name))];
    const sweep = () =>
      void this.sweep().catch((err) => logger.warn({ err: (err as Error).message }, 'dead letter sweep failed; next time'));
    this.sweeper = setInterval(sweep, config().DLQ_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    sweep();
    logger.info({ consumers: registrations.map((r) => r.consumer.name) }, 'event bus started');
  }

  /**
   * Records the dead letter of every failed job that has none yet (`queues`: the bus's own by default); returns how
   * many it recorded. One sweep runs at a time.
   */
  sweep(queues: string[] = this.swept): Promise<number> {
    this.sweeping ??= (async () => {
      let recorded = 0;
      for (const name of queues) {
        for (const job of await this.queue(name).getFailed(0, SWEEP_BATCH - 1)) {
          if (deadLetterIdOf(job)) continue;
          await this.deadLetter(name, job, new Error(job.failedReason || 'failed'));
          recorded++;
        }
      }
      if (recorded) logger.warn({ recorded }, 'recorded dead letters that were missing for failed jobs');
      return recorded;
    })().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private async apply(r: ConsumerRegistration, job: Job): Promise<void> {
    const event = this.envelopeOf(job);
    const orm = this.orms.get(r.subgraph)!;
    const schema = orm.config.get('schema');
    try {
      await orm.em.fork().transactional(async (em) => {
        const claimed = await em
          .getConnection()
          .execute<{ affectedRows: number }>(
            `insert into "${schema}".processed_events (consumer, event_id, processed_at) values (?, ?, now()) on conflict do nothing`,
            [r.consumer.name, event.id],
            'run',
            em.getTransactionContext(),
          );
        if (claimed.affectedRows === 0) return; // applied before: a redelivery
        await r.consumer.handle(event, {
          em,
          attempt: job.attemptsMade,
          peers: this.peers,
          viewer: SYSTEM_VIEWER,
          requestId: `event:${event.id}`,
        });
      });
    } catch (err) {
      if (err instanceof PermanentEventError) throw new UnrecoverableError(err.message);
      throw err;
    }
  }

  private envelopeOf(job: Job): EventEnvelope {
    try {
      return parseEnvelope(job.data);
    } catch (err) {
      throw new UnrecoverableError((err as Error).message);
    }
  }

  private work(name: string, processor: Processor): void {
    const connection = createRedis({ forWorkers: true });
    this.connections.push(connection);
    const worker = new Worker(name, processor, { ...workerOptions(), connection, prefix: bullPrefix(name), concurrency: CONCURRENCY });
    worker.on('failed', (job, err) => {
      if (!job) return;
      const final = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
      if (!final) {
        logger.info({ queue: name, jobId: job.id, attempt: job.attemptsMade, err: err.message }, 'event failed; will retry');
        return;
      }
      this.deadLetter(name, job, err).catch((e) =>
        logger.error({ err: e, queue: name, jobId: job.id }, 'could not record a dead letter; the next sweep will'),
      );
    });
    worker.on('error', (err) => logger.warn({ queue: name, err: err.message }, 'worker connection error'));
    this.workers.push(worker);
  }

  /**
   * Records a failed job's dead letter once: its id is derived from the queue, the job and when it failed, so the
   * failure handler and a sweep recording the same failure keep one entry; the job then carries the entry's id.
   */
  private async deadLetter(queue: string, job: Job, err: Error): Promise<void> {
    const id = uuidFrom(`${queue}\n${job.id}\n${job.finishedOn ?? job.timestamp}`);
    let envelope: EventEnvelope | null = null;
    try {
      envelope = parseEnvelope(job.data);
    } catch {
      /* the data itself is the poison */
    }
    const raw = envelope?.payload.raw_body;
    await recordDeadLetter(this.orms.get('platform')!.em.fork(), {
      id,
      eventId: envelope?.id ?? String(job.id),
      topic: envelope?.topic ?? job.name,
      queue,
      // A webhook's raw body is what failed to deserialize; for anything else, the job's data as JSON.
      originalPayload: typeof raw === 'string' ? raw : JSON.stringify(job.data),
      envelope: envelope as Record<string, unknown> | null,
      error: err.message,
      attempts: job.attemptsMade,
    });
    // Gone already (a retry from the dead letter queue removed it): nothing to mark.
    await job.updateProgress({ dead_letter_id: id }).catch(() => undefined);
  }

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      const connection = createRedis();
      this.connections.push(connection);
      q = openQueue(name, connection);
      this.queues.set(name, q);
    }
    return q;
  }
}
