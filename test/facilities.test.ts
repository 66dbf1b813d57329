import { randomUUID } from 'node:crypto';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { OutboxEvent } from '../shared/outbox';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';
import { eventually } from './support/wait';

let app: TestApp;
let c: Clinic;
let admin: SignedUp;
let stranger: SignedUp & { orgId: string };
let root: Api;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  admin = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, admin.user.id, 'ORG:ADMIN');
  stranger = await outsider(app);
  root = await signInAdmin(app.api);
});
afterAll(() => app.close());

const rooms = (orgId = c.orgId) => `/api/organizations/${orgId}/rooms`;
const admissions = (orgId = c.orgId) => `/api/organizations/${orgId}/admissions`;
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
const fields = (res: { body: { error: { details?: { field: string }[] } } }) => (res.body.error.details ?? []).map((d) => d.field);

let seq = 0;
async function createRoom(body: Record<string, unknown> = {}, orgId = c.orgId, api: Api = admin.api) {
  const res = await api.post(rooms(orgId), { name: `Room ${++seq}-${randomUUID().slice(0, 6)}`, type: 'ward', ...body });
  if (res.status !== 201) throw new Error(`room: ${res.status} ${res.text}`);
  return res.body.data as { id: string; name: string; capacity: number };
}

/** A patient of the clinic, registered through the clinical API. */
async function newPatient(): Promise<string> {
  const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
    ...SAMPLE_PATIENT,
    email: undefined,
    first_name: `P${++seq}`,
  });
  if (res.status !== 201) throw new Error(`patient: ${res.status} ${res.text}`);
  return res.body.data.id;
}

async function admit(roomId: string, patientId?: string, body: Record<string, unknown> = {}) {
  return c.nurse.api.post(admissions(), { patient_id: patientId ?? (await newPatient()), room_id: roomId, reason: 'Observation', ...body });
}

describe('rooms', () => {
  it('creates a room with its defaults and computed occupancy, and reads it back', async () => {
    const res = await admin.api.post(rooms(), { name: 'Consult 1', type: 'consultation' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Consult 1',
      type: 'consultation',
      capacity: 1,
      status: 'available',
      floor: null,
      ward: null,
      department: null,
      occupied: 0,
      available_beds: 1,
      organization_id: c.orgId,
      created_by: admin.user.id,
    });
    const ward = await admin.api.post(rooms(), {
      name: 'Ward A',
      type: 'ward',
      capacity: 12,
      floor: '2',
      ward: 'Medical',
      department: 'Internal medicine',
    });
    expect(ward.status).toBe(201);
    expect(ward.body.data).toMatchObject({
      capacity: 12,
      floor: '2',
      ward: 'Medical',
      department: 'Internal medicine',
      available_beds: 12,
    });
    const read = await c.billing.api.get(`${rooms()}/${ward.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: ward.body.data.id, name: 'Ward A', occupied: 0 });
  });

  it('refuses a duplicate name in the organization whatever the case or spacing (409), not in another one', async () => {
    await createRoom({ name: 'Isolation  Bay' });
    const dup = await admin.api.post(rooms(), { name: ' isolation bay ', type: 'isolation' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    expect((await root.post(rooms(stranger.orgId), { name: 'Isolation Bay', type: 'isolation' })).status).toBe(201);
  });

  it.each([
    [{ capacity: 0 }, 'capacity'],
    [{ capacity: 501 }, 'capacity'],
    [{ capacity: 1.5 }, 'capacity'],
    [{ capacity: 'two' }, 'capacity'],
    [{ type: 'cupboard' }, 'type'],
    [{ name: '  ' }, 'name'],
    [{ name: undefined }, 'name'],
    [{ status: 'open' }, 'status'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await admin.api.post(rooms(), { name: `Bad ${randomUUID()}`, type: 'ward', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toEqual([field]);
  });

  it('lets only rooms:write create: 403 for clinicians and billing, 404 for outsiders, 401 without a token', async () => {
    const body = { name: `Nope ${randomUUID()}`, type: 'ward' };
    expect((await c.nurse.api.post(rooms(), body)).status).toBe(403);
    expect((await c.doctor.api.post(rooms(), body)).status).toBe(403);
    expect((await c.billing.api.post(rooms(), body)).status).toBe(403);
    const outside = await stranger.api.post(rooms(), body);
    expect(outside.status).toBe(404);
    expect(outside.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Room not found' });
    expect((await stranger.api.get(rooms())).status).toBe(404);
    expect((await app.api.post(rooms(), body)).status).toBe(401);
    expect((await app.api.get(rooms())).status).toBe(401);
    expect((await admin.api.get('/api/organizations/not-an-id/rooms')).status).toBe(404);
    expect((await root.get(`/api/organizations/${randomUUID()}/rooms`)).status).toBe(404);
  });

  it('lists by name with filters type, status and available, and pagination meta', async () => {
    const org = (await root.post('/api/organizations', { name: `Filters ${randomUUID().slice(0, 6)}` })).body.data.id;
    const icu = await createRoom({ name: 'B ICU', type: 'icu', capacity: 1 }, org, root);
    const full = await createRoom({ name: 'A Ward', type: 'ward', capacity: 1 }, org, root);
    const closed = await createRoom({ name: 'C Theatre', type: 'operating_theatre', status: 'maintenance' }, org, root);
    const patient = await root.post(`/api/organizations/${org}/patients`, { ...SAMPLE_PATIENT, email: undefined });
    expect((await root.post(admissions(org), { patient_id: patient.body.data.id, room_id: full.id })).status).toBe(201);

    const all = await root.get(`${rooms(org)}?limit=2`);
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect(ids(all)).toEqual([full.id, icu.id]);
    expect(all.body.data[0]).toMatchObject({ occupied: 1, available_beds: 0 });
    expect(ids(await root.get(`${rooms(org)}?type=icu`))).toEqual([icu.id]);
    expect(ids(await root.get(`${rooms(org)}?status=maintenance`))).toEqual([closed.id]);
    expect(ids(await root.get(`${rooms(org)}?available=true`))).toEqual([icu.id]);
    expect(ids(await root.get(`${rooms(org)}?available=false`))).toEqual([full.id, closed.id]);
    expect(fields(await root.get(`${rooms(org)}?type=cupboard`))).toEqual(['type']);
    expect(fields(await root.get(`${rooms(org)}?available=maybe`))).toEqual(['available']);
    // Every member reads the rooms.
    expect((await c.billing.api.get(rooms())).status).toBe(200);
  });

  it('changes a room (beyond SPEC): capacity never below its patients, no closing with patients inside', async () => {
    const room = await createRoom({ capacity: 3 });
    await admit(room.id);
    await admit(room.id);
    const bigger = await admin.api.patch(`${rooms()}/${room.id}`, { capacity: 4, floor: '3', name: `${room.name} (east)` });
    expect(bigger.status).toBe(200);
    expect(bigger.body.data).toMatchObject({ capacity: 4, floor: '3', name: `${room.name} (east)`, occupied: 2, available_beds: 2 });
    const smaller = await admin.api.patch(`${rooms()}/${room.id}`, { capacity: 1 });
    expect(smaller.status).toBe(409);
    expect(smaller.body.error.message).toMatch(/2 admitted patients/);
    expect((await admin.api.patch(`${rooms()}/${room.id}`, { capacity: 2 })).body.data.capacity).toBe(2);
    expect((await admin.api.patch(`${rooms()}/${room.id}`, { status: 'closed' })).status).toBe(409);
    const maintenance = await admin.api.patch(`${rooms()}/${room.id}`, { status: 'maintenance' });
    expect(maintenance.body.data).toMatchObject({ status: 'maintenance', occupied: 2, available_beds: 0 });
    expect(fields(await admin.api.patch(`${rooms()}/${room.id}`, { capacity: null }))).toEqual(['capacity']);
    const other = await createRoom();
    expect((await admin.api.patch(`${rooms()}/${room.id}`, { name: other.name.toUpperCase() })).status).toBe(409);
    expect((await c.nurse.api.patch(`${rooms()}/${room.id}`, { capacity: 5 })).status).toBe(403);
    expect((await stranger.api.patch(`${rooms()}/${room.id}`, { capacity: 5 })).status).toBe(404);
    // A room id from another organization is not found under this one.
    const theirs = await createRoom({}, stranger.orgId, root);
    expect((await admin.api.get(`${rooms()}/${theirs.id}`)).status).toBe(404);
    expect((await admin.api.patch(`${rooms()}/${theirs.id}`, { capacity: 2 })).status).toBe(404);
    expect((await admin.api.get(`${rooms()}/${randomUUID()}`)).status).toBe(404);
    expect((await admin.api.get(`${rooms()}/nope`)).status).toBe(404);
  });

  it('answers an API key by its scopes', async () => {
    const key = await admin.api.post('/api/developer/keys', {
      name: 'Bed board',
      scopes: ['organizations:read', 'admissions:read'],
      organization_id: c.orgId,
    });
    expect(key.status).toBe(201);
    const headers = { headers: { 'x-api-key': key.body.data.key }, token: null };
    expect((await app.api.get(rooms(), headers)).status).toBe(200);
    expect((await app.api.get(admissions(), headers)).status).toBe(200);
    expect((await app.api.post(rooms(), { name: 'Key room', type: 'ward' }, headers)).status).toBe(403);
    expect((await app.api.get(rooms(stranger.orgId), headers)).status).toBe(404);
  });
});

describe('admissions', () => {
  it('admits a patient (201) into a room, which then counts the bed as taken', async () => {
    const room = await createRoom({ capacity: 2 });
    const patientId = await newPatient();
    const res = await c.nurse.api.post(admissions(), {
      patient_id: patientId,
      room_id: room.id,
      reason: 'Community-acquired pneumonia',
      attending_doctor_id: c.doctor.user.id,
      admitted_at: '2025-01-05T08:30:00Z',
      notes: 'Oxygen 2 L/min',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: patientId,
      room_id: room.id,
      organization_id: c.orgId,
      status: 'admitted',
      reason: 'Community-acquired pneumonia',
      attending_doctor_id: c.doctor.user.id,
      admitted_at: '2025-01-05T08:30:00.000Z',
      admitted_by: c.nurse.user.id,
      notes: 'Oxygen 2 L/min',
      discharged_at: null,
      disposition: null,
      transfers: [],
    });
    expect((await c.doctor.api.get(`${rooms()}/${room.id}`)).body.data).toMatchObject({ occupied: 1, available_beds: 1 });
    const read = await c.doctor.api.get(`${admissions()}/${res.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(res.body.data.id);
    // admitted_at defaults to now.
    const now = await admit(room.id);
    expect(Math.abs(Date.parse(now.body.data.admitted_at) - Date.now())).toBeLessThan(60_000);
  });

  it('validates the body and names each bad field', async () => {
    const room = await createRoom();
    const post = (body: Record<string, unknown>) => c.nurse.api.post(admissions(), { patient_id: randomUUID(), room_id: room.id, ...body });
    expect(fields(await post({ patient_id: 'abc' }))).toEqual(['patient_id']);
    expect(fields(await post({ patient_id: undefined }))).toEqual(['patient_id']);
    expect(fields(await post({ room_id: undefined }))).toEqual(['room_id']);
    expect(fields(await post({ room_id: 'abc' }))).toEqual(['room_id']);
    expect(fields(await post({ attending_doctor_id: stranger.user.id }))).toEqual(['attending_doctor_id']);
    expect(fields(await post({ attending_doctor_id: randomUUID() }))).toEqual(['attending_doctor_id']);
    expect(fields(await post({ admitted_at: new Date(Date.now() + 3_600_000).toISOString() }))).toEqual(['admitted_at']);
    expect(fields(await post({ reason: 'x'.repeat(1001) }))).toEqual(['reason']);
    expect((await c.doctor.api.get(`${rooms()}/${room.id}`)).body.data.occupied).toBe(0);
  });

  it("refuses another organization's room (404 naming Room) and an unknown one", async () => {
    const theirs = await createRoom({}, stranger.orgId, root);
    const patientId = await newPatient();
    const res = await c.nurse.api.post(admissions(), { patient_id: patientId, room_id: theirs.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: 'Room not found' });
    expect((await c.nurse.api.post(admissions(), { patient_id: patientId, room_id: randomUUID() })).status).toBe(404);
  });

  it('admits only a patient of the organization: unknown or unseen patients are 404, changing nothing', async () => {
    const room = await createRoom();
    const unknown = await c.nurse.api.post(admissions(), { patient_id: randomUUID(), room_id: room.id });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ code: 'NOT_FOUND', message: 'Patient not found' });
    // A patient of another organization is not visible to this clinic's nurse.
    const theirs = await root.post(`/api/organizations/${stranger.orgId}/patients`, { ...SAMPLE_PATIENT, email: undefined });
    expect(theirs.status).toBe(201);
    const other = await c.nurse.api.post(admissions(), { patient_id: theirs.body.data.id, room_id: room.id });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe('Patient not found');
    // Seen through a consent to this organization, but registered elsewhere: a 400 naming the field.
    const consented = await stranger.api.post('/api/consent/grant', { patient_id: theirs.body.data.id, grantee_organization_id: c.orgId });
    expect(consented.status).toBe(201);
    const elsewhere = await c.nurse.api.post(admissions(), { patient_id: theirs.body.data.id, room_id: room.id });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.details).toEqual([{ field: 'patient_id', message: 'must be a patient of this organization' }]);
    expect((await c.doctor.api.get(`${rooms()}/${room.id}`)).body.data.occupied).toBe(0);
    // The same rule through GraphQL.
    const gql = await c.nurse.api.post('/graphql', {
      query: 'mutation($o: ID!, $i: AdmitPatientInput!) { admitPatient(organizationId: $o, input: $i) { admission { id } } }',
      variables: { o: c.orgId, i: { patientId: randomUUID(), roomId: room.id } },
    });
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('refuses a full room and a room out of service (409), and a second active admission of a patient (409)', async () => {
    const room = await createRoom({ capacity: 1 });
    const first = await admit(room.id);
    expect(first.status).toBe(201);
    const full = await admit(room.id);
    expect(full.status).toBe(409);
    expect(full.body.error.message).toMatch(/full/);
    const repair = await createRoom({ capacity: 4, status: 'maintenance' });
    expect((await admit(repair.id)).status).toBe(409);
    const shut = await createRoom({ capacity: 4, status: 'closed' });
    expect((await admit(shut.id)).body.error.code).toBe('CONFLICT');
    const other = await createRoom({ capacity: 4 });
    const again = await admit(other.id, first.body.data.patient_id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already admitted/);
  });

  it('lets exactly one of several simultaneous admissions take the last free bed', async () => {
    const room = await createRoom({ capacity: 2 });
    expect((await admit(room.id)).status).toBe(201);
    const patients = await Promise.all([1, 2, 3, 4].map(() => newPatient()));
    const results = await Promise.all(patients.map((p) => admit(room.id, p)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await c.doctor.api.get(`${rooms()}/${room.id}`)).body.data).toMatchObject({ occupied: 2, available_beds: 0 });
    const listed = await c.doctor.api.get(`${admissions()}?room_id=${room.id}&status=admitted`);
    expect(listed.body.meta.total).toBe(2);
  });

  it('lets the same patient be admitted once when two admissions race into different rooms', async () => {
    const [a, b] = [await createRoom({ capacity: 3 }), await createRoom({ capacity: 3 })];
    const patientId = await newPatient();
    const results = await Promise.all([admit(a.id, patientId), admit(b.id, patientId)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('lists newest first with filters status, room_id and patient_id', async () => {
    const room = await createRoom({ capacity: 5 });
    const early = await admit(room.id, undefined, { admitted_at: '2025-02-01T10:00:00Z' });
    const late = await admit(room.id, undefined, { admitted_at: '2025-02-02T10:00:00Z' });
    await c.nurse.api.post(`${admissions()}/${early.body.data.id}/discharge`, { disposition: 'home' });
    const inRoom = await c.doctor.api.get(`${admissions()}?room_id=${room.id}`);
    expect(inRoom.status).toBe(200);
    expect(ids(inRoom)).toEqual([late.body.data.id, early.body.data.id]);
    expect(inRoom.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    expect(ids(await c.doctor.api.get(`${admissions()}?room_id=${room.id}&status=discharged`))).toEqual([early.body.data.id]);
    expect(ids(await c.doctor.api.get(`${admissions()}?patient_id=${late.body.data.patient_id}`))).toEqual([late.body.data.id]);
    expect(fields(await c.doctor.api.get(`${admissions()}?status=gone`))).toEqual(['status']);
    expect(fields(await c.doctor.api.get(`${admissions()}?room_id=abc`))).toEqual(['room_id']);
    expect(fields(await c.doctor.api.get(`${admissions()}?patient_id=abc`))).toEqual(['patient_id']);
  });

  it('needs admissions:read / admissions:write: 403 for billing, 404 for outsiders and for ids of other organizations, 401 anonymous', async () => {
    const room = await createRoom();
    const id = (await admit(room.id)).body.data.id;
    expect((await c.billing.api.get(admissions())).status).toBe(403);
    expect((await c.billing.api.get(`${admissions()}/${id}`)).status).toBe(403);
    expect((await c.billing.api.post(admissions(), { patient_id: randomUUID(), room_id: room.id })).status).toBe(403);
    expect((await c.billing.api.post(`${admissions()}/${id}/discharge`, { disposition: 'home' })).status).toBe(403);
    const outside = await stranger.api.get(`${admissions()}/${id}`);
    expect(outside.body.error).toEqual({ code: 'NOT_FOUND', message: 'Admission not found' });
    expect((await stranger.api.get(admissions())).status).toBe(404);
    expect((await stranger.api.post(`${admissions()}/${id}/discharge`, { disposition: 'home' })).status).toBe(404);
    expect((await stranger.api.post(`${admissions()}/${id}/transfer`, { room_id: room.id })).status).toBe(404);
    // Under the stranger's own organization, our admission does not exist.
    expect((await stranger.api.get(`${admissions(stranger.orgId)}/${id}`)).status).toBe(404);
    expect((await stranger.api.post(`${admissions(stranger.orgId)}/${id}/discharge`, { disposition: 'home' })).status).toBe(404);
    expect((await c.doctor.api.get(`${admissions()}/${randomUUID()}`)).status).toBe(404);
    expect((await app.api.get(admissions())).status).toBe(401);
    expect((await app.api.post(`${admissions()}/${id}/discharge`, { disposition: 'home' })).status).toBe(401);
  });
});

describe('discharge', () => {
  it('discharges once (admitted → discharged), freeing the bed; a second discharge is a 409', async () => {
    const room = await createRoom({ capacity: 1 });
    const admission = (await admit(room.id, undefined, { admitted_at: '2025-03-01T09:00:00Z' })).body.data;
    const res = await c.doctor.api.post(`${admissions()}/${admission.id}/discharge`, {
      disposition: 'home',
      discharge_summary: 'Improved on oral antibiotics',
      discharged_at: '2025-03-04T15:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'discharged',
      disposition: 'home',
      discharge_summary: 'Improved on oral antibiotics',
      discharged_at: '2025-03-04T15:00:00.000Z',
      discharged_by: c.doctor.user.id,
    });
    expect((await c.doctor.api.get(`${rooms()}/${room.id}`)).body.data).toMatchObject({ occupied: 0, available_beds: 1 });
    const twice = await c.doctor.api.post(`${admissions()}/${admission.id}/discharge`, { disposition: 'home' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot discharge an admission that is discharged');
    // The patient may be admitted again, and the bed is free for them.
    expect((await admit(room.id, admission.patient_id)).status).toBe(201);
  });

  it('validates disposition and discharged_at', async () => {
    const room = await createRoom();
    const id = (await admit(room.id, undefined, { admitted_at: '2025-03-01T09:00:00Z' })).body.data.id;
    const discharge = (body: Record<string, unknown>) => c.doctor.api.post(`${admissions()}/${id}/discharge`, body);
    expect(fields(await discharge({ disposition: 'escaped' }))).toEqual(['disposition']);
    expect(fields(await discharge({ disposition: 'home', discharged_at: '2025-02-28T09:00:00Z' }))).toEqual(['discharged_at']);
    expect(fields(await discharge({ disposition: 'home', discharged_at: new Date(Date.now() + 3_600_000).toISOString() }))).toEqual([
      'discharged_at',
    ]);
    const ok = await discharge({ disposition: 'against_medical_advice' });
    expect(ok.status).toBe(200);
    expect(Math.abs(Date.parse(ok.body.data.discharged_at) - Date.now())).toBeLessThan(60_000);
    // Without a disposition the stay ends as `other` (not stated).
    const second = (await admit((await createRoom()).id)).body.data.id;
    const plain = await c.doctor.api.post(`${admissions()}/${second}/discharge`, {});
    expect(plain.status).toBe(200);
    expect(plain.body.data.disposition).toBe('other');
  });
});

describe('transfer', () => {
  it('moves an admitted patient to another room and keeps the history', async () => {
    const from = await createRoom({ capacity: 2 });
    const to = await createRoom({ capacity: 2, type: 'icu' });
    const admission = (await admit(from.id)).body.data;
    const res = await c.nurse.api.post(`${admissions()}/${admission.id}/transfer`, { room_id: to.id, reason: 'Deteriorating' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'admitted', room_id: to.id });
    expect(res.body.data.transfers).toEqual([
      {
        id: expect.any(String),
        from_room_id: from.id,
        to_room_id: to.id,
        at: expect.any(String),
        by: c.nurse.user.id,
        reason: 'Deteriorating',
      },
    ]);
    expect((await c.doctor.api.get(`${rooms()}/${from.id}`)).body.data.occupied).toBe(0);
    expect((await c.doctor.api.get(`${rooms()}/${to.id}`)).body.data.occupied).toBe(1);
    const back = await c.nurse.api.post(`${admissions()}/${admission.id}/transfer`, { room_id: from.id });
    expect(back.body.data.transfers.map((t: { to_room_id: string }) => t.to_room_id)).toEqual([to.id, from.id]);
    expect(ids(await c.doctor.api.get(`${admissions()}?room_id=${from.id}`))).toEqual([admission.id]);
  });

  it("refuses the same room (400), a full or closed room (409), another organization's room (404), a discharged admission (409)", async () => {
    const from = await createRoom({ capacity: 2 });
    const full = await createRoom({ capacity: 1 });
    await admit(full.id);
    const id = (await admit(from.id)).body.data.id;
    const transfer = (body: Record<string, unknown>) => c.nurse.api.post(`${admissions()}/${id}/transfer`, body);
    const same = await transfer({ room_id: from.id });
    expect(same.status).toBe(400);
    expect(fields(same)).toEqual(['room_id']);
    expect(fields(await transfer({}))).toEqual(['room_id']);
    expect(fields(await transfer({ room_id: 'abc' }))).toEqual(['room_id']);
    const toFull = await transfer({ room_id: full.id });
    expect(toFull.status).toBe(409);
    expect(toFull.body.error.message).toMatch(/full/);
    const closed = await createRoom({ status: 'closed' });
    expect((await transfer({ room_id: closed.id })).status).toBe(409);
    const theirs = await createRoom({}, stranger.orgId, root);
    const foreign = await transfer({ room_id: theirs.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('Room not found');
    expect((await transfer({ room_id: randomUUID() })).status).toBe(404);
    expect((await c.doctor.api.get(`${admissions()}/${id}`)).body.data).toMatchObject({ room_id: from.id, transfers: [] });
    await c.doctor.api.post(`${admissions()}/${id}/discharge`, { disposition: 'transferred_out' });
    const after = await transfer({ room_id: (await createRoom()).id });
    expect(after.status).toBe(409);
    expect(after.body.error.message).toBe('Cannot transfer an admission that is discharged');
    expect((await c.nurse.api.post(`${admissions()}/${randomUUID()}/transfer`, { room_id: from.id })).status).toBe(404);
  });

  it('runs transfers crossing between two rooms at the same moment without a deadlock', async () => {
    const x = await createRoom({ capacity: 2 });
    const y = await createRoom({ capacity: 2 });
    const a = (await admit(x.id)).body.data.id;
    const b = (await admit(y.id)).body.data.id;
    const results = await Promise.all([
      c.nurse.api.post(`${admissions()}/${a}/transfer`, { room_id: y.id }),
      c.doctor.api.post(`${admissions()}/${b}/transfer`, { room_id: x.id }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((await c.doctor.api.get(`${rooms()}/${x.id}`)).body.data.occupied).toBe(1);
    expect((await c.doctor.api.get(`${rooms()}/${y.id}`)).body.data.occupied).toBe(1);
  });
});

describe('admission events', () => {
  it('emits admitted, transferred and discharged with the change, each once', async () => {
    const ward = await createRoom({ capacity: 2 });
    const icu = await createRoom({ type: 'icu' });
    const patientId = await newPatient();
    const admitted = (await admit(ward.id, patientId)).body.data;
    await c.nurse.api.post(`${admissions()}/${admitted.id}/transfer`, { room_id: icu.id, reason: 'Deteriorating' });
    await c.nurse.api.post(`${admissions()}/${admitted.id}/discharge`, { disposition: 'home' });
    // A refused change records nothing.
    expect((await c.nurse.api.post(`${admissions()}/${admitted.id}/discharge`, { disposition: 'home' })).status).toBe(409);
    const events = await app
      .em('org')
      .find(OutboxEvent, { payload: { admission_id: admitted.id } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const base = {
      admission_id: admitted.id,
      organization_id: c.orgId,
      patient_id: patientId,
      by: c.nurse.user.id,
      at: expect.any(String),
    };
    expect(events.map((e) => [e.topic, e.payload])).toEqual([
      ['svc.facility.patient_admitted', { ...base, room_id: ward.id, at: admitted.admitted_at }],
      ['svc.facility.patient_transferred', { ...base, room_id: icu.id, from_room_id: ward.id }],
      ['svc.facility.patient_discharged', { ...base, room_id: icu.id, disposition: 'home' }],
    ]);
  });
});

describe('GraphQL', () => {
  it('admits through a mutation and resolves the patient and the room across subgraphs', async () => {
    const room = await createRoom({ capacity: 3, name: `GQL ward ${randomUUID().slice(0, 6)}` });
    const admitted = await c.doctor.api.graphql(
      `mutation($org: ID!, $input: AdmitPatientInput!) { admitPatient(organizationId: $org, input: $input) { admission { id status roomId } userErrors { code } } }`,
      { org: c.orgId, input: { patientId: c.patientId, roomId: room.id, reason: 'Dehydration' } },
    );
    expect(admitted.body.errors).toBeUndefined();
    expect(admitted.body.data.admitPatient.userErrors).toEqual([]);
    const id = admitted.body.data.admitPatient.admission.id;
    const res = await c.doctor.api.graphql(
      `query($org: ID!, $id: ID!) { admission(organizationId: $org, id: $id) { id patient { id firstName } room { name occupied availableBeds } } }`,
      { org: c.orgId, id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.admission).toEqual({
      id,
      patient: { id: c.patientId, firstName: SAMPLE_PATIENT.first_name },
      room: { name: room.name, occupied: 1, availableBeds: 2 },
    });
    await c.doctor.api.post(`${admissions()}/${id}/discharge`, { disposition: 'home' });
  });

  it('answers a room name taken, a bad field and a capacity below its patients as userErrors, the room null', async () => {
    const name = `GQL bay ${randomUUID().slice(0, 6)}`;
    const create = `mutation($org: ID!, $input: CreateRoomInput!) {
      createRoom(organizationId: $org, input: $input) { room { id name capacity } userErrors { field message code } }
    }`;
    const first = await admin.api.graphql(create, { org: c.orgId, input: { name, capacity: 2 } });
    expect(first.body.data.createRoom).toEqual({ room: { id: expect.any(String), name, capacity: 2 }, userErrors: [] });
    const taken = await admin.api.graphql(create, { org: c.orgId, input: { name: name.toUpperCase() } });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createRoom).toEqual({
      room: null,
      userErrors: [{ field: null, message: `The organization already has a room named ${name.toUpperCase()}`, code: 'DUPLICATE' }],
    });
    const bad = await admin.api.graphql(create, { org: c.orgId, input: { name: `${name} 2`, capacity: 0 } });
    expect(bad.body.data.createRoom).toEqual({
      room: null,
      userErrors: [{ field: ['input', 'capacity'], message: expect.any(String), code: 'INVALID' }],
    });
    const roomId = first.body.data.createRoom.room.id;
    await admit(roomId);
    await admit(roomId);
    const update = `mutation($org: ID!, $id: ID!, $input: UpdateRoomInput!) {
      updateRoom(organizationId: $org, id: $id, input: $input) { room { capacity } userErrors { field message code } }
    }`;
    const below = await admin.api.graphql(update, { org: c.orgId, id: roomId, input: { capacity: 1 } });
    expect(below.body.data.updateRoom).toEqual({
      room: null,
      userErrors: [{ field: null, message: expect.stringMatching(/capacity cannot drop below/), code: 'BUSINESS_RULE' }],
    });
    const invalid = await admin.api.graphql(update, { org: c.orgId, id: roomId, input: { capacity: 501 } });
    expect(invalid.body.data.updateRoom.userErrors).toEqual([
      { field: ['input', 'capacity'], message: expect.any(String), code: 'INVALID' },
    ]);
    const grown = await admin.api.graphql(update, { org: c.orgId, id: roomId, input: { capacity: 3 } });
    expect(grown.body.data.updateRoom).toEqual({ room: { capacity: 3 }, userErrors: [] });
    // Another organization's room is no user error: NOT_FOUND, top-level.
    const theirs = await stranger.api.graphql(update, { org: c.orgId, id: roomId, input: { capacity: 4 } });
    expect(theirs.body.data).toBeNull();
    expect(theirs.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('answers a room full or closed, a patient already admitted and a bad field as userErrors, the admission null', async () => {
    const admitQ = `mutation($org: ID!, $input: AdmitPatientInput!) {
      admitPatient(organizationId: $org, input: $input) { admission { id roomId } userErrors { field message code } }
    }`;
    const room = await createRoom({ capacity: 1 });
    const patientId = await newPatient();
    const first = await c.nurse.api.graphql(admitQ, { org: c.orgId, input: { patientId, roomId: room.id } });
    expect(first.body.data.admitPatient).toEqual({ admission: { id: expect.any(String), roomId: room.id }, userErrors: [] });
    const full = await c.nurse.api.graphql(admitQ, { org: c.orgId, input: { patientId: await newPatient(), roomId: room.id } });
    expect(full.body.errors).toBeUndefined();
    expect(full.body.data.admitPatient).toEqual({
      admission: null,
      userErrors: [{ field: null, message: expect.stringMatching(/full/), code: 'BUSINESS_RULE' }],
    });
    const shut = await createRoom({ capacity: 4, status: 'closed' });
    const closed = await c.nurse.api.graphql(admitQ, { org: c.orgId, input: { patientId: await newPatient(), roomId: shut.id } });
    expect(closed.body.data.admitPatient).toEqual({
      admission: null,
      userErrors: [{ field: null, message: expect.stringMatching(/takes no patients/), code: 'BUSINESS_RULE' }],
    });
    const other = await createRoom({ capacity: 4 });
    const again = await c.nurse.api.graphql(admitQ, { org: c.orgId, input: { patientId, roomId: other.id } });
    expect(again.body.data.admitPatient).toEqual({
      admission: null,
      userErrors: [{ field: null, message: expect.stringMatching(/already admitted/), code: 'DUPLICATE' }],
    });
    const bad = await c.nurse.api.graphql(admitQ, { org: c.orgId, input: { patientId, roomId: other.id, reason: 'x'.repeat(1001) } });
    expect(bad.body.data.admitPatient).toEqual({
      admission: null,
      userErrors: [{ field: ['input', 'reason'], message: expect.any(String), code: 'INVALID' }],
    });
    const transferQ = `mutation($org: ID!, $id: ID!, $input: TransferInput!) {
      transferAdmission(organizationId: $org, id: $id, input: $input) { admission { roomId } userErrors { field message code } }
    }`;
    const id = first.body.data.admitPatient.admission.id;
    const same = await c.nurse.api.graphql(transferQ, { org: c.orgId, id, input: { roomId: room.id } });
    expect(same.body.data.transferAdmission).toEqual({
      admission: null,
      userErrors: [{ field: ['input', 'roomId'], message: expect.any(String), code: 'INVALID' }],
    });
    const toClosed = await c.nurse.api.graphql(transferQ, { org: c.orgId, id, input: { roomId: shut.id } });
    expect(toClosed.body.data.transferAdmission).toEqual({
      admission: null,
      userErrors: [{ field: null, message: expect.stringMatching(/takes no patients/), code: 'BUSINESS_RULE' }],
    });
    const moved = await c.nurse.api.graphql(transferQ, { org: c.orgId, id, input: { roomId: other.id } });
    expect(moved.body.data.transferAdmission).toEqual({ admission: { roomId: other.id }, userErrors: [] });
    // Another organization's admission is no user error: NOT_FOUND, top-level.
    const theirs = await stranger.api.graphql(transferQ, { org: c.orgId, id, input: { roomId: room.id } });
    expect(theirs.body.data).toBeNull();
    expect(theirs.body.errors[0].extensions.code).toBe('NOT_FOUND');
    await c.doctor.api.post(`${admissions()}/${id}/discharge`, { disposition: 'home' });
  });

  it("lists rooms with the patients in them for admissions:read only, and refuses an outsider's query", async () => {
    const room = await createRoom({ capacity: 2, name: `GQL room ${randomUUID().slice(0, 6)}` });
    const id = (await admit(room.id)).body.data.id;
    const query = `query($org: ID!) { organizationRooms(organizationId: $org, limit: 100) { total items { id occupied admissions { id } } } }`;
    const nurse = await c.nurse.api.graphql(query, { org: c.orgId });
    expect(nurse.body.data.organizationRooms.items.find((r: { id: string }) => r.id === room.id)).toEqual({
      id: room.id,
      occupied: 1,
      admissions: [{ id }],
    });
    const billing = await c.billing.api.graphql(query, { org: c.orgId });
    expect(billing.body.data.organizationRooms.items.find((r: { id: string }) => r.id === room.id).admissions).toBeNull();
    const outside = await stranger.api.graphql(query, { org: c.orgId });
    expect(outside.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('audit', () => {
  it('records who admitted, read and discharged a patient', async () => {
    const room = await createRoom();
    const admitted = await admit(room.id);
    expect(admitted.status).toBe(201);
    const id = admitted.body.data.id;
    expect((await c.nurse.api.get(`${admissions()}/${id}`)).status).toBe(200);
    expect((await c.doctor.api.post(`${admissions()}/${id}/discharge`, { disposition: 'home' })).status).toBe(200);
    const trail = await eventually(async () => {
      const rows = await app.em('org').find(AuditEvent, { resourceType: 'admission', resourceId: id });
      return rows.length >= 3 ? rows : null;
    }, 'admission audit');
    expect(trail.map((r) => r.action).sort()).toEqual(['create', 'read', 'update']);
    expect(trail.every((r) => r.patientId === admitted.body.data.patient_id && r.organizationId === c.orgId)).toBe(true);
  });
});
