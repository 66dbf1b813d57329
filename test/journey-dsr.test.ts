import { clinicalSubgraph } from '../subgraphs/clinical';
import { patientDataSources } from '../subgraphs/clinical/patient-data';
import { Patient } from '../subgraphs/clinical/patients/patient.entity';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
});
afterAll(() => app.close());

describe('care journey', () => {
  it('records events and shows them with records in time order, newest first', async () => {
    const recorded = await c.nurse.api.post(`/api/patients/${c.patientId}/journey`, {
      type: 'admission',
      title: 'Admitted to ward B',
      occurred_at: new Date(Date.now() - 3600_000).toISOString(),
    });
    expect(recorded.status).toBe(201);
    const record = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, encounter_type: 'consultation' })).body
      .data;
    await c.doctor.api.post(`/api/patients/${c.patientId}/journey`, { type: 'discharge', title: 'Discharged home' });
    const res = await c.doctor.api.get(`/api/patients/${c.patientId}/journey`);
    expect(res.status).toBe(200);
    const titles = res.body.data.map((e: { title: string }) => e.title);
    expect(titles.indexOf('discharge: Discharged home')).toBeLessThan(titles.indexOf('Clinical record (consultation)'));
    expect(titles.indexOf('Clinical record (consultation)')).toBeLessThan(titles.indexOf('admission: Admitted to ward B'));
    expect(res.body.data.find((e: { resource_id: string }) => e.resource_id === record.id)).toMatchObject({
      kind: 'clinical_record',
      resource_type: 'clinical_records',
    });
    const times = res.body.data.map((e: { occurred_at: string }) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(res.body.meta.total).toBeGreaterThanOrEqual(3);
  });

  it('shows labs, prescriptions, immunizations and vitals, and leaves deleted or mistaken entries off', async () => {
    const patientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, SAMPLE_PATIENT)).body.data.id;
    const lab = (await c.doctor.api.post('/api/labs', { patient_id: patientId, test_type: 'cbc' })).body.data;
    const rx = (
      await c.doctor.api.post('/api/prescriptions', {
        patient_id: patientId,
        medication: 'Amoxicillin',
        dosage: '500 mg',
        frequency: 'tid',
      })
    ).body.data;
    await c.nurse.api.post(`/api/patients/${patientId}/immunizations/generate`, {});
    const dose = await c.nurse.api.post(`/api/patients/${patientId}/immunizations/administer`, {
      vaccine: 'bcg',
      lot_number: 'B123',
      site: 'left_arm',
      override_reason: 'catch-up',
    });
    expect(dose.body).toMatchObject({ data: { vaccine: 'bcg' } });
    const vital = (await c.nurse.api.post('/api/vitals', { patient_id: patientId, heart_rate: 72 })).body.data;
    const mistaken = (await c.nurse.api.post('/api/vitals', { patient_id: patientId, heart_rate: 190 })).body.data;
    expect((await c.nurse.api.delete(`/api/vitals/${mistaken.id}`)).status).toBe(200);
    const deleted = (await c.doctor.api.post('/api/clinical-records', { patient_id: patientId, encounter_type: 'consultation' })).body.data;
    expect((await c.doctor.api.delete(`/api/clinical-records/${deleted.id}`)).status).toBe(200);

    const res = await c.doctor.api.get(`/api/patients/${patientId}/journey?limit=100`);
    expect(res.status).toBe(200);
    const entries = res.body.data as { kind: string; resource_id: string; title: string }[];
    const kinds = new Set(entries.map((e) => e.kind));
    for (const kind of ['lab_order', 'prescription', 'immunization', 'vital_signs']) expect(kinds).toContain(kind);
    expect(entries.find((e) => e.resource_id === lab.id)?.title).toBe('Lab order: Complete blood count (CBC) panel');
    expect(entries.find((e) => e.resource_id === rx.id)?.title).toBe('Prescription: Amoxicillin 500 mg');
    expect(entries.filter((e) => e.kind === 'immunization')).toHaveLength(1);
    expect(entries.map((e) => e.resource_id)).toContain(vital.id);
    expect(entries.map((e) => e.resource_id)).not.toContain(mistaken.id);
    expect(entries.map((e) => e.resource_id)).not.toContain(deleted.id);
  });

  it('validates and protects the journey', async () => {
    const bad = await c.doctor.api.post(`/api/patients/${c.patientId}/journey`, { type: 'party', title: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['title', 'type']);
    const future = await c.doctor.api.post(`/api/patients/${c.patientId}/journey`, {
      type: 'visit',
      title: 'x',
      occurred_at: '2999-01-01T00:00:00Z',
    });
    expect(future.status).toBe(400);
    expect((await (await outsider(app)).api.get(`/api/patients/${c.patientId}/journey`)).status).toBe(404);
  });
});

describe('data subject requests', () => {
  async function ownPatient(): Promise<{ user: SignedUp; id: string }> {
    const user = await signUp(app.api, { registration_role: 'PATIENT' });
    const id = (await user.api.post('/api/patients', { ...SAMPLE_PATIENT, first_name: 'Wanjiru', email: user.user.email })).body.data.id;
    return { user, id };
  }

  it('exports everything held about the patient, machine-readable, and records the request', async () => {
    const res = await c.doctor.api.post('/api/clinical-records', {
      patient_id: c.patientId,
      encounter_type: 'consultation',
      notes: 'exported',
    });
    const orgAdmin = await signInAdmin(app.api);
    const exported = await orgAdmin.get(`/api/patients/${c.patientId}/export`);
    expect(exported.status).toBe(200);
    const doc = exported.body.data;
    expect(doc).toMatchObject({ format: 'ccp-patient-export/1', patient_id: c.patientId });
    expect(doc.sections.profile).toMatchObject({
      id: c.patientId,
      first_name: SAMPLE_PATIENT.first_name,
      date_of_birth: SAMPLE_PATIENT.date_of_birth,
    });
    expect(doc.sections.clinical_records.map((r: { id: string }) => r.id)).toContain(res.body.data.id);
    expect(doc.sections.clinical_records[0]).toHaveProperty('encounter_type');
    expect(doc.sections.access_log.length).toBeGreaterThan(0);
    for (const source of patientDataSources()) expect(doc.sections).toHaveProperty(source.section);
    const dsr = await c.doctor.api.get(`/api/patients/${c.patientId}/dsr`);
    expect(dsr.body.data[0]).toMatchObject({ type: 'export', status: 'completed' });
  });

  it('leaves out no kind of patient data (every entity with a patientId is exported)', () => {
    const metadata = app.platform.runtimes.get('clinical')!.orm.getMetadata();
    const withPatient = clinicalSubgraph.entities.filter((e) => e !== Patient && metadata.get(e.name).properties.patientId);
    expect(withPatient.length).toBeGreaterThanOrEqual(6);
    const exported = new Set(patientDataSources().map((s) => s.entity.name));
    expect(withPatient.map((e) => e.name).filter((name) => !exported.has(name))).toEqual([]);
  });

  it('erases personal identifiers irreversibly, keeps clinical data, audits it, and refuses a second erasure', async () => {
    const { user, id } = await ownPatient();
    await user.api.post(`/api/patients/${id}/journey`, { type: 'note', title: 'Feeling better' });
    const missing = await user.api.post(`/api/patients/${id}/erasure-request`, { reason: 'Leaving the service' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('confirm');
    const res = await user.api.post(`/api/patients/${id}/erasure-request`, { reason: 'Leaving the service', confirm: true });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'erasure', status: 'completed', reason: 'Leaving the service' });
    const stored = await app.em('clinical').findOneOrFail(Patient, { id });
    expect(stored).toMatchObject({ firstName: '[erased]', lastName: '[erased]', email: null, phone: null, mrn: null, userId: null });
    expect(stored.dateOfBirth).toBe(`${SAMPLE_PATIENT.date_of_birth.slice(0, 4)}-01-01`);
    expect(stored.erasedAt).toBeInstanceOf(Date);
    const admin = await signInAdmin(app.api);
    const journey = await admin.get(`/api/patients/${id}/journey`);
    expect(journey.body.data.map((e: { title: string }) => e.title)).toContain('note: Feeling better');
    const again = await admin.post(`/api/patients/${id}/erasure-request`, { reason: 'again', confirm: true });
    expect(again.status).toBe(409);
    const requests = await admin.get(`/api/patients/${id}/dsr`);
    expect(requests.body.data.map((r: { type: string }) => r.type)).toContain('erasure');
    const exported = await admin.get(`/api/patients/${id}/export`);
    expect(exported.body.data.sections.access_log.map((e: { action: string }) => e.action)).toContain('erase');
    expect(JSON.stringify(exported.body.data)).not.toContain('Wanjiru');
    // The former patient's account no longer reaches the profile.
    expect((await user.api.get('/api/patients/me')).status).toBe(404);
  });

  it('is for the patient, platform administrators and the organization administrator only', async () => {
    expect((await c.nurse.api.post(`/api/patients/${c.patientId}/erasure-request`, { reason: 'x', confirm: true })).status).toBe(403);
    expect((await c.nurse.api.get(`/api/patients/${c.patientId}/export`)).status).toBe(403);
    expect((await (await outsider(app)).api.get(`/api/patients/${c.patientId}/export`)).status).toBe(404);
  });
});

describe('the patient graph', () => {
  it('answers a page of patients with all their clinical data and invoices in a constant number of queries', async () => {
    for (let i = 0; i < 2; i++) {
      const p = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: `G${i}` })).body.data;
      await c.doctor.api.post('/api/clinical-records', { patient_id: p.id, encounter_type: 'consultation' });
      await c.nurse.api.post('/api/vitals', { patient_id: p.id, heart_rate: 70 + i });
      await c.doctor.api.post('/api/prescriptions', { patient_id: p.id, medication: 'Paracetamol', dosage: '1 g', frequency: 'qid' });
      await c.doctor.api.post(`/api/patients/${p.id}/allergies`, { substance: 'Penicillin' });
    }
    const query = `query($o: ID!, $l: Int!) { organizationPatients(organizationId: $o, limit: $l) {
      items { id clinicalRecords { nodes { id encounterType } } vitals { nodes { id heartRate } } labResults { nodes { id } }
        prescriptions { nodes { id } } allergies { nodes { id } } immunizations { nodes { id } } invoices { id number } } } }`;
    const LIST_TABLES = /"(clinical_records|vitals|lab_results|prescriptions|allergies|immunizations|invoices)"/;
    let queries = 0;
    const restore: (() => void)[] = [];
    for (const name of ['clinical', 'revenue']) {
      const connection = app.platform.runtimes.get(name)!.orm.em.getConnection();
      const original = connection.execute.bind(connection);
      // Reads of the lists the query asks for: the outbox relay, buffered audit writes and the consumers of the new
      // patients (the MPI matcher) read other tables in the background at the same time.
      (connection as unknown as { execute: typeof original }).execute = ((...args: Parameters<typeof original>) => {
        const sql = String(args[0]);
        if (/^\s*select/i.test(sql) && LIST_TABLES.test(sql)) queries++;
        return original(...args);
      }) as typeof original;
      restore.push(() => ((connection as unknown as { execute: typeof original }).execute = original));
    }
    try {
      const count = async (limit: number) => {
        queries = 0;
        const res = await c.doctor.api.graphql(query, { o: c.orgId, l: limit });
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.organizationPatients.items).toHaveLength(limit);
        return queries;
      };
      // Background work (the MPI matcher on the new patients, scheduled jobs) can only add reads: the fewest of a few
      // tries is the request's own count.
      const fewest = async (limit: number) => Math.min(await count(limit), await count(limit), await count(limit));
      const few = await fewest(1);
      const many = await fewest(3);
      expect(few).toBeGreaterThanOrEqual(6);
      expect(many).toBe(few);
    } finally {
      for (const r of restore) r();
    }
  });
});
