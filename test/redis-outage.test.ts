import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { DoctorProfile } from '../subgraphs/org/doctors/doctor.entity';
import { signUp, startApp, type TestApp } from './support/app';
import { createOrganization } from './support/org';
import { startRedisServer } from './support/redis-server';
import { eventually } from './support/wait';

/**
 * This file's platform has a Redis server of its own, which the test stops and starts again, and a database of
 * its own, so that no other suite's relay publishes its events through the shared Redis meanwhile.
 */
let app: TestApp;
let redis: Awaited<ReturnType<typeof startRedisServer>>;
let redisUp = false;
const saved = { REDIS_URL: process.env.REDIS_URL, DATABASE_URL: process.env.DATABASE_URL };

beforeAll(async () => {
  redis = await startRedisServer();
  redisUp = true;
  const db = new URL(process.env.DATABASE_URL!);
  db.pathname = `${db.pathname}_outage`;
  process.env.REDIS_URL = redis.url;
  process.env.DATABASE_URL = db.toString();
  resetConfig();
  app = await startApp();
});
afterAll(async () => {
  if (!redisUp) redis = await startRedisServer(redis.port);
  await app.close();
  await redis.stop();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
});

describe('with Redis stopped', () => {
  it('still accepts writes, keeps their events, and delivers them once Redis is back', async () => {
    const before = await signUp(app.api, { registration_role: 'DOCTOR' });
    await eventually(() => app.em('org').findOne(DoctorProfile, { userId: before.user.id }), 'profile while Redis is up');

    await redis.stop();
    redisUp = false;

    // Public and authenticated writes go on: identity falls back to PostgreSQL, limits to memory.
    const during = await signUp(app.api, { registration_role: 'DOCTOR', first_name: 'Outage' });
    const org = await createOrganization(during.api);
    expect((await during.api.get('/api/auth/me')).status).toBe(200);
    const pending = await app.em('org').find(OutboxEvent, { publishedAt: null, payload: { user_id: during.user.id } });
    expect(pending.map((e) => e.topic).sort()).toEqual(['svc.auth.user_created', 'svc.organization.member_added']);
    // Wait for a relay pass to meet the outage (one of ours fails; the relay's own may hold the rows meanwhile).
    const relay = app.platform.workers!.relay;
    await eventually(
      () =>
        relay.drain().then(
          () => false,
          () => true,
        ),
      'a relay pass to fail while Redis is down',
    );
    expect(await app.em('org').count(OutboxEvent, { publishedAt: null, payload: { user_id: during.user.id } })).toBe(2);
    expect(await app.em('org').count(DoctorProfile, { userId: during.user.id })).toBe(0);

    redis = await startRedisServer(redis.port);
    redisUp = true;

    const profile = await eventually(
      () => app.em('org').findOne(DoctorProfile, { userId: during.user.id }),
      'the held-back event to be delivered',
      30_000,
    );
    expect(profile.firstName).toBe('Outage');
    await eventually(
      async () => (await app.em('org').count(OutboxEvent, { publishedAt: null, payload: { user_id: during.user.id } })) === 0,
      'outbox drained',
      30_000,
    );
    expect(org.id).toBeTruthy();
  }, 60_000);
});
