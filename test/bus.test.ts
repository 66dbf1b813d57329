import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { UnrecoverableError, Worker, type Queue } from 'bullmq';
import { OutboxEvent, ProcessedEvent } from '../shared/outbox';
import { bullPrefix, consumerQueue, EVENTS_QUEUE, openQueue, retryOptions } from '../shared/queues';
import { DeadLetter } from '../workers/store';
import { DoctorOrganization, DoctorProfile } from '../subgraphs/org/doctors/doctor.entity';
import { newReferralCode } from '../subgraphs/org/users/auth.service';
import { User } from '../subgraphs/org/users/user.entity';
import { forgetUser } from '../subgraphs/org/users/identity';
import { signInAdmin, signUp, startApp, uniqueEmail, type Api, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';
import { eventually } from './support/wait';

let app: TestApp;
let admin: Api;
let connection: Redis;
const queues = new Map<string, Queue>();

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
});
afterAll(async () => {
  for (const q of queues.values()) await q.close();
  await connection.quit();
  await app.close();
});

function queue(name: string): Queue {
  if (!queues.has(name)) queues.set(name, openQueue(name, connection));
  return queues.get(name)!;
}

const envelope = (topic: string, payload: Record<string, unknown>) => ({
  id: randomUUID(),
  topic,
  timestamp: new Date().toISOString(),
  source_service: 'test',
  payload,
});

/** A DOCTOR account that exists without its registration event, so nothing created its profile. */
async function doctorWithoutProfile(): Promise<User> {
  const em = app.em('org');
  const user = em.create(User, {
    email: uniqueEmail('quiet'),
    firstName: 'Kwame',
    lastName: 'Asante',
    registrationRole: 'DOCTOR',
    referralCode: newReferralCode(),
  });
  await em.flush();
  return user;
}

const deadLetterFor = (eventId: string) =>
  eventually(() => app.em('platform').findOne(DeadLetter, { eventId }), `dead letter of ${eventId}`);

describe('SPEC topics', () => {
  it('svc.auth.user_created creates a doctor profile for a DOCTOR, and nothing for others', async () => {
    const doctor = await signUp(app.api, { registration_role: 'DOCTOR', first_name: 'Adwoa', last_name: 'Mensah' });
    const profile = await eventually(() => app.em('org').findOne(DoctorProfile, { userId: doctor.user.id }), 'doctor profile');
    expect(profile).toMatchObject({ firstName: 'Adwoa', lastName: 'Mensah', email: doctor.user.email, verificationStatus: 'pending' });
    const patient = await signUp(app.api, { registration_role: 'PATIENT' });
    // The patient's own event, applied: its effects commit with the processed record, so nothing more can follow.
    const event = await app.em('org').findOneOrFail(OutboxEvent, { topic: 'svc.auth.user_created', payload: { user_id: patient.user.id } });
    await eventually(
      () => app.em('org').findOne(ProcessedEvent, { consumer: 'doctor-profiles', eventId: event.id }),
      "the patient's event to be applied",
    );
    expect(await app.em('org').count(DoctorProfile, { userId: patient.user.id })).toBe(0);
  });

  it('svc.organization.member_added links the doctor profile to the organization', async () => {
    const doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
    await eventually(() => app.em('org').findOne(DoctorProfile, { userId: doctor.user.id }), 'doctor profile');
    const org = await createOrganization(doctor.api);
    const link = await eventually(
      () => app.em('org').findOne(DoctorOrganization, { organization: org.id }, { populate: ['doctor'] }),
      'doctor-organization link',
    );
    expect(link.doctor.userId).toBe(doctor.user.id);
    expect(link.role).toBe('ORG:ADMIN');
  });
});

describe('consumers', () => {
  it('apply an event delivered twice once, recorded in the database', async () => {
    const user = await doctorWithoutProfile();
    const event = envelope('svc.auth.user_created', {
      user_id: user.id,
      email: user.email,
      first_name: 'A',
      last_name: 'B',
      registration_role: 'DOCTOR',
    });
    // Two jobs carrying the same event (a redelivery the queue cannot deduplicate by job id).
    await queue(consumerQueue('doctor-profiles')).add(event.topic, event, { jobId: `${event.id}-a` });
    await queue(consumerQueue('doctor-profiles')).add(event.topic, event, { jobId: `${event.id}-b` });
    await eventually(
      async () =>
        (await queue(consumerQueue('doctor-profiles')).getJobCounts('completed')).completed > 0 &&
        (await queue(consumerQueue('doctor-profiles')).getJob(`${event.id}-b`))?.finishedOn,
      'both jobs',
    );
    await eventually(async () => (await queue(consumerQueue('doctor-profiles')).getJob(`${event.id}-a`))?.finishedOn, 'first job');
    expect(await app.em('org').count(DoctorProfile, { userId: user.id })).toBe(1);
    expect(await app.em('org').count(ProcessedEvent, { consumer: 'doctor-profiles', eventId: event.id })).toBe(1);
  });
});

describe('dead letter queue', () => {
  it('takes an event that cannot be deserialized at once, with its raw payload', async () => {
    const jobId = randomUUID();
    await queue(EVENTS_QUEUE).add('svc.test.broken', { this: 'is not an envelope' }, { jobId, ...retryOptions() });
    const entry = await deadLetterFor(jobId);
    expect(entry).toMatchObject({ topic: 'svc.test.broken', queue: 'events', attempts: 1 });
    expect(JSON.parse(entry.originalPayload)).toEqual({ this: 'is not an envelope' });
    expect(entry.error).toMatch(/not an event envelope/);
    // A sweep finds the failure recorded and adds nothing.
    await app.platform.workers!.bus.sweep([EVENTS_QUEUE]);
    expect(await app.em('platform').count(DeadLetter, { eventId: jobId })).toBe(1);
  });

  it('takes an event whose handler keeps failing after its retries; retry succeeds once the cause is fixed', async () => {
    const user = await doctorWithoutProfile();
    const org = await createOrganization((await signUp(app.api)).api);
    // The member the event announces, arranged in storage so that no real event races this one.
    await addMember(app, org.id, user.id, 'ORG:DOCTOR');
    const event = envelope('svc.organization.member_added', { organization_id: org.id, user_id: user.id, role: 'ORG:DOCTOR' });
    await queue(EVENTS_QUEUE).add(event.topic, event, { jobId: event.id });
    const entry = await deadLetterFor(event.id);
    expect(entry).toMatchObject({ topic: 'svc.organization.member_added', queue: 'consumer.doctor-organizations', attempts: 3 });
    expect(entry.error).toMatch(/does not exist yet/);

    const listed = await admin.get(`/admin/dlq?limit=100&topic=${'svc.organization.member_added'}`);
    expect(listed.status).toBe(200);
    const wire = listed.body.data.find((d: { id: string }) => d.id === entry.id);
    expect(wire).toMatchObject({ id: entry.id, event_id: event.id, topic: 'svc.organization.member_added', error: entry.error });
    expect(JSON.parse(wire.original_payload)).toMatchObject({ id: event.id, payload: event.payload });
    expect(Date.parse(wire.created_at)).not.toBeNaN();
    expect(listed.body.meta.total).toBeGreaterThanOrEqual(1);

    // The cause: the profile did not exist. Fix it, then retry.
    const em = app.em('org');
    em.create(DoctorProfile, { userId: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName });
    await em.flush();
    const retried = await admin.post(`/admin/dlq/${entry.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: entry.id, outcome: 'retried', queue: 'consumer.doctor-organizations' });
    await eventually(() => app.em('org').findOne(DoctorOrganization, { organization: org.id, role: 'ORG:DOCTOR' }), 'link after retry');
    expect(await app.em('platform').count(DeadLetter, { id: entry.id })).toBe(0);
  });

  it('discards an entry permanently', async () => {
    const jobId = randomUUID();
    await queue(EVENTS_QUEUE).add('svc.test.discard', 'just a string', { jobId });
    const entry = await deadLetterFor(jobId);
    const res = await admin.delete(`/admin/dlq/${entry.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('discarded');
    expect(await app.em('platform').count(DeadLetter, { id: entry.id })).toBe(0);
    expect((await admin.delete(`/admin/dlq/${entry.id}`)).status).toBe(404);
    expect((await admin.post(`/admin/dlq/${entry.id}/retry`)).status).toBe(404);
  });

  it('reports depth, the oldest entry and an alert at the threshold', async () => {
    const before = await admin.get('/admin/dlq/depth');
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ depth: expect.any(Number), alert: expect.any(Boolean), threshold: 5 });
    expect(before.body.data.alert).toBe(before.body.data.depth >= 5);
    const missing = Math.max(0, 5 - before.body.data.depth);
    const ids = Array.from({ length: missing + 1 }, () => randomUUID());
    for (const id of ids) await queue(EVENTS_QUEUE).add('svc.test.depth', { broken: true }, { jobId: id });
    for (const id of ids) await deadLetterFor(id);
    const after = await admin.get('/admin/dlq/depth');
    expect(after.body.data.depth).toBeGreaterThanOrEqual(5);
    expect(after.body.data.alert).toBe(true);
    expect(Date.parse(after.body.data.oldest_event)).toBeLessThanOrEqual(Date.now());
  });

  it('records a failed job whose dead letter was never written (PostgreSQL down, process stopped) at the next sweep, once', async () => {
    // A queue this platform does not work on: the job fails under a worker of this test, whose failure goes
    // unrecorded, as when the platform could not write the dead letter at that moment.
    const name = `consumer.sweep-test-${randomUUID().slice(0, 8)}`;
    const event = envelope('svc.test.swept', { n: 1 });
    const worker = new Worker(
      name,
      async () => {
        throw new UnrecoverableError('handler exploded');
      },
      { connection, prefix: bullPrefix(name) },
    );
    try {
      await queue(name).add(event.topic, event, { jobId: event.id, ...retryOptions() });
      await eventually(async () => (await queue(name).getFailedCount()) === 1 || null, 'failed job');
    } finally {
      await worker.close();
    }
    expect(await app.em('platform').count(DeadLetter, { eventId: event.id })).toBe(0);
    const bus = app.platform.workers!.bus;
    // Two sweeps at once are one sweep; a later one finds nothing left to record.
    const [first, same] = await Promise.all([bus.sweep([name]), bus.sweep([name])]);
    expect([first, same]).toEqual([1, 1]);
    expect(await bus.sweep([name])).toBe(0);
    const entries = await app.em('platform').find(DeadLetter, { eventId: event.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ topic: 'svc.test.swept', queue: name, error: 'handler exploded' });
    expect(JSON.parse(entries[0].originalPayload)).toMatchObject({ id: event.id, payload: { n: 1 } });
    const [job] = await queue(name).getFailed();
    expect(job.progress).toEqual({ dead_letter_id: entries[0].id });
    // Discarding the entry does not bring it back: the job remembers it was recorded.
    await admin.delete(`/admin/dlq/${entries[0].id}`);
    expect(await bus.sweep([name])).toBe(0);
    await queue(name).obliterate({ force: true });
  });

  it('is for SUPER:ADMIN and APP:ADMIN only', async () => {
    const user = await signUp(app.api);
    expect((await user.api.get('/admin/dlq')).status).toBe(403);
    expect((await app.api.get('/admin/dlq')).status).toBe(401);
    await app.em('org').nativeUpdate(User, { id: user.user.id }, { roles: ['APP:ADMIN'] });
    await forgetUser(user.user.id);
    expect((await user.api.get('/admin/dlq/depth')).status).toBe(200);
  });
});

describe('ops', () => {
  it('serves the queue dashboard to administrators only, every queue included', async () => {
    const token = (admin as unknown as { token: string }).token;
    const page = await app.api.get('/admin/queues', { token });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);
    const list = await app.api.get('/admin/queues/api/queues', { token });
    const names = list.body.queues.map((q: { name: string }) => q.name);
    expect(names).toEqual(expect.arrayContaining(['events', 'dead-letters', 'consumer.doctor-profiles']));
    expect((await app.api.get('/admin/queues')).status).toBe(401);
    expect((await (await signUp(app.api)).api.get('/admin/queues')).status).toBe(403);
    // A browser signs in through the dashboard's own form: test/queue-dashboard.test.ts.
  });

  it('exposes queue depth and failure counts as Prometheus metrics', async () => {
    const res = await app.api.get('/metrics', { token: 'metrics-scraper-token-for-tests' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/ccp_queue_jobs\{queue="events",state="failed"\} \d+/);
    expect(res.text).toMatch(/ccp_dead_letters \d+/);
    expect((await app.api.get('/metrics')).status).toBe(401);
    expect((await (await signUp(app.api)).api.get('/metrics')).status).toBe(403);
    expect((await admin.get('/metrics')).status).toBe(200);
  });
});
