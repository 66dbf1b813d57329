import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { ensureDatabase, migrate, openOrm, type EntityManager } from '../shared/db';
import { OutboxEvent, recordEvent } from '../shared/outbox';
import { createRedis } from '../shared/redis';
import { orgSubgraph } from '../subgraphs/org';
import { startRedisServer } from './support/redis-server';
import { OutboxRelay } from '../workers/outbox-relay';
import { bullPrefix, EVENTS_QUEUE, openQueue } from '../shared/queues';
import { signUp, startApp, type TestApp } from './support/app';
import { createOrganization } from './support/org';
import { eventually } from './support/wait';

let app: TestApp;
let queue: Queue;
let connection: Redis;

beforeAll(async () => {
  app = await startApp();
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  queue = new Queue(EVENTS_QUEUE, { connection, prefix: bullPrefix(EVENTS_QUEUE) });
});
afterAll(async () => {
  // BullMQ leaves connections it was given open: close them here.
  await queue.close();
  await connection.quit();
  await app.close();
});

const waitForJob = (id: string) => eventually(() => queue.getJob(id), `event ${id} on the bus`);

describe('outbox relay', () => {
  it('writes svc.auth.user_created in the same transaction as the user and publishes it to the bus', async () => {
    const { user } = await signUp(app.api, { registration_role: 'DOCTOR', first_name: 'Esi', last_name: 'Owusu' });
    const em = app.em('org');
    const event = await em.findOneOrFail(OutboxEvent, { topic: 'svc.auth.user_created', payload: { user_id: user.id } });
    const job = await waitForJob(event.id);
    expect(job.name).toBe('svc.auth.user_created');
    expect(job.data).toEqual({
      id: event.id,
      topic: 'svc.auth.user_created',
      timestamp: event.createdAt.toISOString(),
      source_service: 'org',
      payload: { user_id: user.id, email: user.email, first_name: 'Esi', last_name: 'Owusu', registration_role: 'DOCTOR' },
    });
    // The job is visible a moment before the relay's transaction commits published_at.
    const publishedAt = await eventually(async () => (await em.refresh(event))?.publishedAt, 'published_at');
    expect(publishedAt).toBeInstanceOf(Date);
  });

  it('publishes svc.organization.member_added when an organization is created', async () => {
    const { api, user } = await signUp(app.api);
    const org = await createOrganization(api);
    const event = await app
      .em('org')
      .findOneOrFail(OutboxEvent, { topic: 'svc.organization.member_added', payload: { organization_id: org.id } });
    expect((await waitForJob(event.id)).data.payload).toEqual({ organization_id: org.id, user_id: user.id, role: 'ORG:ADMIN' });
  });

  it('keeps events when the bus is unreachable and sends them once it is back', async () => {
    // A database of its own, so that no other relay of this run can publish the row behind the test's back.
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `${url.pathname}_relay`;
    await ensureDatabase(url.toString());
    const orm = await openOrm(orgSubgraph, url.toString());
    const redis = await startRedisServer();
    try {
      await migrate(orm, 'org');
      const em = orm.em.fork() as EntityManager;
      const event = recordEvent(em, 'org', 'svc.test.happened', { n: 1 });
      await em.flush();

      // The relay's connection settings (fail fast), with a short socket timeout for a server that will vanish.
      const connection = new Redis(redis.url, { maxRetriesPerRequest: 2, disconnectTimeout: 50, retryStrategy: () => 200 });
      connection.on('error', () => undefined);
      const queue = openQueue(EVENTS_QUEUE, connection);
      await queue.waitUntilReady();
      await redis.stop();
      await expect(new OutboxRelay([{ name: 'org', orm }], queue).drain()).rejects.toThrow();
      await em.refresh(event);
      expect(event.publishedAt ?? null).toBeNull();
      await queue.close().catch(() => undefined);
      connection.disconnect();

      const liveConnection = createRedis();
      const live = openQueue(EVENTS_QUEUE, liveConnection);
      expect(await new OutboxRelay([{ name: 'org', orm }], live).drain()).toBe(1);
      await live.close();
      await liveConnection.quit();
      await em.refresh(event);
      expect(event.publishedAt).toBeInstanceOf(Date);
      expect((await waitForJob(event.id)).data).toMatchObject({ id: event.id, topic: 'svc.test.happened', payload: { n: 1 } });
    } finally {
      await redis.stop();
      await orm.close();
      const admin = new URL(url.toString());
      admin.pathname = '/postgres';
      const client = new Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(`drop database if exists "${url.pathname.slice(1)}" with (force)`);
      await client.end();
    }
  });
});
