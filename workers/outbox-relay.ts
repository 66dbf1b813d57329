import type { Queue } from 'bullmq';
import type { MikroORM } from '../shared/db';
import { logger } from '../shared/logger';
import type { EventEnvelope } from '../shared/outbox';

interface OutboxRow {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  source_service: string;
  created_at: Date;
}

const BATCH = 200;
/** Published events are kept this long (for inspection), then deleted. */
const KEEP_PUBLISHED_DAYS = 7;
const SWEEP_EVERY_MS = 3600_000;

/**
 * Moves events from each subgraph's outbox table to the bus. A row is marked published only after the queue
 * accepted it, in the same transaction that locked it (`for update skip locked`, so relays in several processes
 * share the work). If Redis is down nothing is lost: the rows stay and are sent when it is back. The job id is
 * the event id, so a row sent twice (crash between add and commit) is still one job.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly sources: { name: string; orm: MikroORM }[],
    private readonly queue: Queue,
    private readonly minIntervalMs = 100,
    private readonly maxIntervalMs = 1000,
  ) {}

  /** Polls the outboxes: every `minIntervalMs` while events flow, backing off to `maxIntervalMs` when idle. */
  start(): void {
    let interval = this.minIntervalMs;
    const tick = async () => {
      if (this.stopped) return;
      this.running = this.drain().then(
        (sent) => {
          interval = sent > 0 ? this.minIntervalMs : Math.min(interval * 2, this.maxIntervalMs);
        },
        (err) => {
          interval = this.maxIntervalMs;
          logger.warn({ err: (err as Error).message }, 'outbox relay pass failed; retrying');
        },
      );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(tick, interval);
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private lastSweep = 0;

  /** Publishes everything waiting; returns how many events were sent. */
  async drain(): Promise<number> {
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) await this.sweep();
    let total = 0;
    for (const source of this.sources) {
      for (;;) {
        const sent = await this.relayBatch(source.orm);
        total += sent;
        if (sent < BATCH) break;
      }
    }
    return total;
  }

  /** Deletes published events older than the retention period, so the outbox stays small. */
  private async sweep(): Promise<void> {
    this.lastSweep = Date.now();
    for (const { orm } of this.sources) {
      const schema = orm.config.get('schema');
      await orm.em
        .getConnection()
        .execute(`delete from "${schema}".outbox where published_at < now() - interval '${KEEP_PUBLISHED_DAYS} days'`);
    }
  }

  private async relayBatch(orm: MikroORM): Promise<number> {
    const schema = orm.config.get('schema');
    return orm.em.fork().transactional(async (em) => {
      const conn = em.getConnection();
      const trx = em.getTransactionContext();
      const rows = await conn.execute<OutboxRow[]>(
        `select id, topic, payload, source_service, created_at from "${schema}".outbox
         where published_at is null order by created_at, id limit ${BATCH} for update skip locked`,
        [],
        'all',
        trx,
      );
      if (!rows.length) return 0;
      await this.queue.addBulk(
        rows.map((r) => {
          const envelope: EventEnvelope = {
            id: r.id,
            topic: r.topic,
            timestamp: new Date(r.created_at).toISOString(),
            source_service: r.source_service,
            payload: r.payload,
          };
          return { name: r.topic, data: envelope, opts: { jobId: r.id } };
        }),
      );
      await conn.execute(`update "${schema}".outbox set published_at = now() where id in (?)`, [rows.map((r) => r.id)], 'run', trx);
      return rows.length;
    });
  }
}
