import { OutboxEvent } from '../shared/outbox';
import { startApp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
});
afterAll(() => app.close());

const record = { encounter_type: 'consultation', chief_complaint: 'Fever for three days', notes: 'Temp 38.9 C. Malaria RDT positive.' };

describe('clinical records', () => {
  it('creates, reads, lists for the patient and for the author', async () => {
    const res = await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...record,
      patient_id: c.patientId,
      organization_id: c.orgId,
      version: 1,
      author_id: c.doctor.user.id,
      deleted_at: null,
    });
    const id = res.body.data.id;
    expect((await c.nurse.api.get(`/api/clinical-records/${id}`)).body.data.id).toBe(id);
    const forPatient = await c.nurse.api.get(`/api/patients/${c.patientId}/clinical-records`);
    expect(forPatient.body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect(forPatient.body.meta.total).toBeGreaterThanOrEqual(1);
    const mine = await c.doctor.api.get('/api/clinical-records');
    expect(mine.body.data.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('keeps every change as a version and emits the clinical-record-updated event', async () => {
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    const first = await c.nurse.api.patch(`/api/clinical-records/${id}`, {
      notes: 'Started artemether-lumefantrine.',
      expected_version: 1,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ version: 2, updated_by: c.nurse.user.id, notes: 'Started artemether-lumefantrine.' });
    const second = await c.doctor.api.request('PUT', `/api/clinical-records/${id}`, { chief_complaint: 'Fever, resolving' });
    expect(second.body.data.version).toBe(3);
    const stale = await c.doctor.api.patch(`/api/clinical-records/${id}`, { notes: 'x', expected_version: 2 });
    expect(stale.status).toBe(409);
    const versions = await c.doctor.api.graphql(
      'query($id: ID!) { clinicalRecord(id: $id) { versions { version change changedBy snapshot } } }',
      { id },
    );
    const list = versions.body.data.clinicalRecord.versions;
    expect(list.map((v: { version: number; change: string }) => `${v.version}:${v.change}`)).toEqual(['1:create', '2:update', '3:update']);
    expect(list[0].snapshot.notes).toBe(record.notes);
    expect(list[1].changedBy).toBe(c.nurse.user.id);
    const events = await app.em('clinical').find(OutboxEvent, { topic: 'svc.clinical.record_updated', payload: { record_id: id } });
    expect(events.map((e) => e.payload.change).sort()).toEqual(['create', 'update', 'update']);
    expect(events.find((e) => e.payload.version === 2)?.payload).toMatchObject({
      patient_id: c.patientId,
      changed_by: c.nurse.user.id,
      fields: ['notes'],
    });
  });

  it('deletes by hiding: gone from reads and lists, kept with its versions', async () => {
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    const res = await c.doctor.api.delete(`/api/clinical-records/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.deleted_at).toBeTruthy();
    expect((await c.doctor.api.get(`/api/clinical-records/${id}`)).status).toBe(404);
    const list = await c.doctor.api.get(`/api/patients/${c.patientId}/clinical-records?limit=100`);
    expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(id);
    const audit = await c.doctor.api.get(`/api/clinical-records/${id}/audit`);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['create', 'delete']));
  });

  it('shows who read or changed a record, and when, and from where', async () => {
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    await c.nurse.api.get(`/api/clinical-records/${id}`, {
      headers: { 'x-forwarded-for': '198.51.100.23', 'user-agent': 'ward-tablet/2.1' },
    });
    await c.nurse.api.patch(`/api/clinical-records/${id}`, { notes: 'Reviewed' });
    await c.doctor.api.graphql('query($id: ID!) { clinicalRecord(id: $id) { id } }', { id });
    const res = await c.doctor.api.get(`/api/clinical-records/${id}/audit`);
    expect(res.status).toBe(200);
    const trail = res.body.data.map(
      (e: { action: string; actor_id: string }) => `${e.action}:${e.actor_id === c.doctor.user.id ? 'doctor' : 'nurse'}`,
    );
    expect(trail).toEqual(['create:doctor', 'read:nurse', 'update:nurse', 'read:doctor']);
    expect(res.body.data[1]).toMatchObject({
      ip: '198.51.100.23',
      user_agent: 'ward-tablet/2.1',
      actor_type: 'user',
      patient_id: c.patientId,
    });
  });

  it("validates input and refuses other people's patients and unclinical roles", async () => {
    const bad = await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, encounter_type: 'party' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('encounter_type');
    expect((await c.doctor.api.post('/api/clinical-records', { ...record })).status).toBe(400);
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    const stranger = await outsider(app);
    expect((await stranger.api.get(`/api/clinical-records/${id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/patients/${c.patientId}/clinical-records`)).status).toBe(404);
    expect((await stranger.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).status).toBe(404);
    // Billing staff belong to the organization but may not read clinical data.
    expect((await c.billing.api.get(`/api/clinical-records/${id}`)).status).toBe(403);
    expect((await c.billing.api.get(`/api/patients/${c.patientId}/clinical-records`)).status).toBe(403);
    expect((await c.billing.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).status).toBe(403);
    expect((await app.api.get(`/api/clinical-records/${id}`)).status).toBe(401);
  });
});
