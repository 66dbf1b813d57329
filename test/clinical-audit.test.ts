import { randomUUID } from 'node:crypto';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

let app: TestApp;
let c: Clinic;
let orgAdmin: SignedUp;
let admin: Api;
let stranger: Awaited<ReturnType<typeof outsider>>;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  orgAdmin = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, orgAdmin.user.id, 'ORG:ADMIN');
  admin = await signInAdmin(app.api);
  stranger = await outsider(app);
});
afterAll(() => app.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((e) => e.id);

async function logged(api: Api = c.doctor.api, fields: Record<string, unknown> = {}) {
  const res = await api.post('/api/clinical/audit', {
    action: 'print',
    resource_type: 'clinical_note',
    resource_id: randomUUID(),
    patient_id: c.patientId,
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; resource_id: string };
}

describe('logging an audit event', () => {
  it("records the caller as the actor, with the patient's organization, and marks it as the client's", async () => {
    const res = await c.doctor.api.post(
      '/api/clinical/audit',
      { action: 'print', resource_type: 'clinical_note', resource_id: 'note-17', patient_id: c.patientId, details: { copies: 2 } },
      { headers: { 'user-agent': 'ward-tablet/1.0' } },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      action: 'print',
      resource_type: 'clinical_note',
      resource_id: 'note-17',
      patient_id: c.patientId,
      organization_id: c.orgId,
      actor_id: c.doctor.user.id,
      actor_type: 'user',
      user_agent: 'ward-tablet/1.0',
      details: { copies: 2, origin: 'client' },
    });
    const stored = await app.em('clinical').findOneOrFail(AuditEvent, { id: res.body.data.id });
    expect(stored.actorId).toBe(c.doctor.user.id);
  });

  it('refuses forgery: another actor, a platform action, a patient the caller cannot see, a forged origin', async () => {
    const asNurse = await c.doctor.api.post('/api/clinical/audit', { action: 'view', resource_type: 'patient', actor_id: c.nurse.user.id });
    expect(asNurse.status).toBe(403);
    expect(asNurse.body.error.message).toMatch(/someone else/);
    const asSelf = await c.doctor.api.post('/api/clinical/audit', { action: 'view', resource_type: 'patient', actor_id: c.doctor.user.id });
    expect(asSelf.status).toBe(201);
    // Fields only the platform sets are not the client's: ignored on the wire, unknown to the graph.
    const fields = await c.doctor.api.post('/api/clinical/audit', {
      action: 'view',
      resource_type: 'patient',
      actor_type: 'system',
      created_at: '2020-01-01T00:00:00Z',
      ip: '10.0.0.1',
    });
    expect(fields.body.data).toMatchObject({ actor_type: 'user', actor_id: c.doctor.user.id });
    expect(fields.body.data.created_at).not.toBe('2020-01-01T00:00:00.000Z');
    expect(fields.body.data.ip).not.toBe('10.0.0.1');
    const gql = await c.doctor.api.graphql(
      'mutation { logAuditEvent(input: { action: view, resourceType: "patient", actorType: "system" }) { id } }',
    );
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const origin = await c.doctor.api.post('/api/clinical/audit', {
      action: 'view',
      resource_type: 'patient',
      details: { origin: 'platform' },
    });
    expect(origin.body.data.details.origin).toBe('client');
    for (const action of ['erase', 'sign', 'read', 'create']) {
      const res = await c.doctor.api.post('/api/clinical/audit', { action, resource_type: 'patient' });
      expect({ action, status: res.status }).toEqual({ action, status: 400 });
    }
    expect(
      (await stranger.api.post('/api/clinical/audit', { action: 'view', resource_type: 'patient', patient_id: c.patientId })).status,
    ).toBe(404);
    expect(
      (await stranger.api.post('/api/clinical/audit', { action: 'view', resource_type: 'patient', organization_id: c.orgId })).status,
    ).toBe(404);
    const mismatch = await c.doctor.api.post('/api/clinical/audit', {
      action: 'view',
      resource_type: 'patient',
      patient_id: c.patientId,
      organization_id: stranger.orgId,
    });
    expect(mismatch.status).toBe(400);
    expect((await app.api.post('/api/clinical/audit', { action: 'view', resource_type: 'patient' })).status).toBe(401);
  });

  it('validates every field', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await c.doctor.api.post('/api/clinical/audit', { action: 'view', resource_type: 'patient', ...body });
      expect({ body, status: res.status, fields: res.body.error?.details?.map((d: { field: string }) => d.field) }).toEqual({
        body,
        status: 400,
        fields: [field],
      });
    };
    await bad({ resource_type: 'Clinical Note' }, 'resource_type');
    await bad({ resource_id: 'a b' }, 'resource_id');
    await bad({ patient_id: 'x' }, 'patient_id');
    await bad({ actor_id: 'me' }, 'actor_id');
    await bad({ details: { blob: 'x'.repeat(5000) } }, 'details');
    await bad({ action: 'teleport' }, 'action');
  });
});

describe('reading the audit trail', () => {
  it("shows an event to its actor, its organization's administrator and platform administrators, and to nobody else", async () => {
    const e = await logged();
    expect((await c.doctor.api.get(`/api/clinical/audit/${e.id}`)).body.data).toMatchObject({ id: e.id, actor_id: c.doctor.user.id });
    expect((await orgAdmin.api.get(`/api/clinical/audit/${e.id}`)).status).toBe(200);
    expect((await admin.get(`/api/clinical/audit/${e.id}`)).status).toBe(200);
    expect((await c.nurse.api.get(`/api/clinical/audit/${e.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/clinical/audit/${e.id}`)).status).toBe(404);
    expect((await c.doctor.api.get(`/api/clinical/audit/${randomUUID()}`)).status).toBe(404);
    expect((await c.doctor.api.get('/api/clinical/audit/not-an-id')).status).toBe(404);
    expect((await app.api.get(`/api/clinical/audit/${e.id}`)).status).toBe(401);
  });

  it("reads the trail the platform writes itself: a record's reads and changes", async () => {
    const n = (await c.doctor.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'Seen today' })).body.data;
    await c.nurse.api.get(`/api/clinical/notes/${n.id}`);
    await c.doctor.api.post(`/api/clinical/notes/${n.id}/sign`);
    const trail = await orgAdmin.api.get(`/api/clinical/audit/resource/clinical_note/${n.id}`);
    expect(trail.status).toBe(200);
    expect(trail.body.data.map((e: { action: string; actor_id: string }) => `${e.action}:${e.actor_id}`)).toEqual([
      `sign:${c.doctor.user.id}`,
      `read:${c.nurse.user.id}`,
      `create:${c.doctor.user.id}`,
    ]);
    expect(trail.body.meta).toEqual({ page: 1, limit: 20, total: 3 });
    // The nurse sees only her own part of it.
    expect(
      (await c.nurse.api.get(`/api/clinical/audit/resource/clinical_note/${n.id}`)).body.data.map((e: { action: string }) => e.action),
    ).toEqual(['read']);
    expect((await stranger.api.get(`/api/clinical/audit/resource/clinical_note/${n.id}`)).body.data).toEqual([]);
    expect((await orgAdmin.api.get(`/api/clinical/audit/resource/Clinical-Note/${n.id}`)).status).toBe(400);
  });

  it("gives a user their own trail, and another user's only to administrators", async () => {
    const e = await logged(c.nurse.api, { action: 'download' });
    const own = await c.nurse.api.get(`/api/clinical/audit/user/${c.nurse.user.id}?limit=100`);
    expect(own.status).toBe(200);
    expect(ids(own)).toContain(e.id);
    expect(own.body.data.every((x: { actor_id: string }) => x.actor_id === c.nurse.user.id)).toBe(true);
    const denied = await c.doctor.api.get(`/api/clinical/audit/user/${c.nurse.user.id}`);
    expect(denied.status).toBe(403);
    expect(ids(await orgAdmin.api.get(`/api/clinical/audit/user/${c.nurse.user.id}?limit=100`))).toContain(e.id);
    expect(ids(await admin.get(`/api/clinical/audit/user/${c.nurse.user.id}?limit=100`))).toContain(e.id);
    // An administrator of another organization sees none of this organization's events.
    const otherAdmin = await signUp(app.api);
    await addMember(app, stranger.orgId, otherAdmin.user.id, 'ORG:ADMIN');
    expect(ids(await otherAdmin.api.get(`/api/clinical/audit/user/${c.nurse.user.id}?limit=100`))).not.toContain(e.id);
    expect((await c.nurse.api.get('/api/clinical/audit/user/nobody')).status).toBe(404);
  });

  it('searches by actor, action, record, patient and time range, paginated', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const a = await logged(c.doctor.api, { action: 'share' });
    const b = await logged(c.doctor.api, { action: 'share' });
    await logged(c.doctor.api, { action: 'copy' });
    const page1 = await orgAdmin.api.get(
      `/api/clinical/audit/search?action=share&actor_id=${c.doctor.user.id}&from=${encodeURIComponent(before)}&limit=1`,
    );
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ page: 1, limit: 1, total: 2 });
    expect(ids(page1)).toEqual([b.id]);
    const page2 = await orgAdmin.api.get(
      `/api/clinical/audit/search?action=share&actor_id=${c.doctor.user.id}&from=${encodeURIComponent(before)}&limit=1&page=2`,
    );
    expect(ids(page2)).toEqual([a.id]);
    expect(ids(await orgAdmin.api.get(`/api/clinical/audit/search?resource_type=clinical_note&resource_id=${a.resource_id}`))).toEqual([
      a.id,
    ]);
    expect(
      (await orgAdmin.api.get(`/api/clinical/audit/search?patient_id=${c.patientId}&action=share&to=${encodeURIComponent(before)}`)).body
        .data,
    ).toEqual([]);
    // Reads the platform audits itself are there too.
    const vital = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, heart_rate: 70 })).body.data;
    expect((await orgAdmin.api.get(`/api/clinical/audit/search?resource_type=vital&resource_id=${vital.id}`)).body.data).toEqual([
      expect.objectContaining({ action: 'create', actor_id: c.nurse.user.id }),
    ]);
    // Only what the caller may read.
    expect(ids(await stranger.api.get(`/api/clinical/audit/search?action=share&limit=100`))).not.toContain(a.id);
    expect(ids(await c.nurse.api.get(`/api/clinical/audit/search?action=share&limit=100`))).not.toContain(a.id);
  });

  it('validates the search', async () => {
    const now = new Date().toISOString();
    const earlier = new Date(Date.now() - 3600_000).toISOString();
    expect(
      (await orgAdmin.api.get(`/api/clinical/audit/search?from=${encodeURIComponent(now)}&to=${encodeURIComponent(earlier)}`)).status,
    ).toBe(400);
    expect((await orgAdmin.api.get('/api/clinical/audit/search?from=yesterday')).status).toBe(400);
    expect((await orgAdmin.api.get('/api/clinical/audit/search?actor_id=bob')).status).toBe(400);
    expect((await orgAdmin.api.get('/api/clinical/audit/search?action=DROP%20TABLE')).status).toBe(400);
    expect((await orgAdmin.api.get('/api/clinical/audit/search?limit=1000')).status).toBe(400);
    expect((await app.api.get('/api/clinical/audit/search')).status).toBe(401);
  });
});
