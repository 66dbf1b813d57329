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

describe('updateClinicalRecord in GraphQL: expected failures are userErrors', () => {
  const update = `mutation($id: ID!, $input: UpdateClinicalRecordInput!) {
    updateClinicalRecord(id: $id, input: $input) { clinicalRecord { id version notes } userErrors { field message code } }
  }`;

  it('answers the record and no user errors, then a stale expectedVersion as STALE_VERSION with the record null', async () => {
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    const ok = await c.doctor.api.graphql(update, { id, input: { notes: 'Afebrile', expectedVersion: 1 } });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateClinicalRecord).toEqual({ clinicalRecord: { id, version: 2, notes: 'Afebrile' }, userErrors: [] });
    const stale = await c.doctor.api.graphql(update, { id, input: { notes: 'Again', expectedVersion: 1 } });
    expect(stale.body.errors).toBeUndefined();
    expect(stale.body.data.updateClinicalRecord).toEqual({
      clinicalRecord: null,
      userErrors: [{ field: null, message: 'The record is at version 2, not 1; reload it and try again', code: 'STALE_VERSION' }],
    });
    // Nothing was written.
    expect((await c.doctor.api.get(`/api/clinical-records/${id}`)).body.data).toMatchObject({ version: 2, notes: 'Afebrile' });
  });

  it('names the input field of a broken rule as INVALID; REST answers the same 400 as before', async () => {
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    const bad = await c.doctor.api.graphql(update, { id, input: { chiefComplaint: 'x'.repeat(2001), expectedVersion: 0 } });
    expect(bad.body.errors).toBeUndefined();
    const { clinicalRecord, userErrors } = bad.body.data.updateClinicalRecord;
    expect(clinicalRecord).toBeNull();
    expect(userErrors).toEqual(
      expect.arrayContaining([
        { field: ['input', 'chiefComplaint'], message: expect.any(String), code: 'INVALID' },
        { field: ['input', 'expectedVersion'], message: 'must be at least 1', code: 'INVALID' },
      ]),
    );
    const rest = await c.doctor.api.patch(`/api/clinical-records/${id}`, { chief_complaint: 'x'.repeat(2001), expected_version: 0 });
    expect(rest.status).toBe(400);
    const details = userErrors.map((e: { field: string[]; message: string }) => ({
      field: e.field[1].replace(/[A-Z]/g, (l) => `_${l.toLowerCase()}`),
      message: e.message,
    }));
    expect(rest.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Invalid input: ' + details.map((d: { field: string; message: string }) => `${d.field} ${d.message}`).join('; '),
        details,
      },
    });
  });

  it('keeps what the user cannot fix top-level: a missing record, no permission, an id that is not an id', async () => {
    const id = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, ...record })).body.data.id;
    const missing = await c.doctor.api.graphql(update, { id: '00000000-0000-4000-8000-000000000000', input: { notes: 'x' } });
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const stranger = await outsider(app);
    const forbidden = await stranger.api.graphql(update, { id, input: { notes: 'x' } });
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(forbidden.body.errors[0].extensions.code);
    const notAnId = await c.doctor.api.graphql(update, { id: 'not-an-id', input: { notes: 'x' } });
    expect(notAnId.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(notAnId.body.data ?? null).toBeNull();
  });
});
