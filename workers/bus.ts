import { Queue, UnrecoverableError, Worker, type Job, type Processor } from 'bullmq';
import type { MikroORM } from '../shared/db';
import { parseEnvelope, PermanentEventError } from '../shared/events';
import { logger } from '../shared/logger';
import type { EventEnvelope } from '../shared/outbox';
import { bullPrefix, consumerQueue, EVENTS_QUEUE, openQueue, retryOptions } from '../shared/queues';
import { createRedis, type Redis } from '../shared/redis';
import { recordDeadLetter } from '../subgraphs/org/bus/dead-letter.service';
import { consumerRegistrations, type ConsumerRegistration } from './registry';

const CONCURRENCY = 5;

/**
 * The event bus: a dispatcher on the `events` queue fans each event out to the queue of every consumer of its
 * topic (job id = event id, so a repeat is one job); each consumer's worker applies the event in a transaction of
 * its subgraph's database together with a `processed_events` row, so an event redelivered is applied once.
 * A poison event (not an envelope, or a handler's PermanentEventError) goes to the dead letter table at once; one
 * that keeps failing goes there after its retries.
 */
export class EventBus {
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly orms: Map<string, MikroORM>) {}

  start(): void {
    const registrations = consumerRegistrations().filter((r) => this.orms.has(r.subgraph.name));
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
    logger.info({ consumers: registrations.map((r) => r.consumer.name) }, 'event bus started');
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private async apply(r: ConsumerRegistration, job: Job): Promise<void> {
    const event = this.envelopeOf(job);
    const orm = this.orms.get(r.subgraph.name)!;
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
        await r.consumer.handle(event, { em, attempt: job.attemptsMade });
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
    const worker = new Worker(name, processor, { connection, prefix: bullPrefix(), concurrency: CONCURRENCY });
    worker.on('failed', (job, err) => {
      if (!job) return;
      const final = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
      if (!final) {
        logger.info({ queue: name, jobId: job.id, attempt: job.attemptsMade, err: err.message }, 'event failed; will retry');
        return;
      }
      this.deadLetter(name, job, err).catch((e) =>
        logger.error({ err: e, queue: name, jobId: job.id }, 'could not record a dead letter; the failed job stays on its queue'),
      );
    });
    worker.on('error', (err) => logger.warn({ queue: name, err: err.message }, 'worker connection error'));
    this.workers.push(worker);
  }

  private async deadLetter(queue: string, job: Job, err: Error): Promise<void> {
    let envelope: EventEnvelope | null = null;
    try {
      envelope = parseEnvelope(job.data);
    } catch {
      /* the data itself is the poison */
    }
    const raw = envelope?.payload.raw_body;
    await recordDeadLetter(this.orms.get('org')!.em.fork(), {
      eventId: envelope?.id ?? String(job.id),
      topic: envelope?.topic ?? job.name,
      queue,
      // A webhook's raw body is what failed to deserialize; for anything else, the job's data as JSON.
      originalPayload: typeof raw === 'string' ? raw : JSON.stringify(job.data),
      envelope: envelope as Record<string, unknown> | null,
      error: err.message,
      attempts: job.attemptsMade,
    });
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
