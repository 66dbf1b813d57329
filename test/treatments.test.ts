import { AuditEvent } from '../shared/audit/audit-event.entity';
import { SAMPLE_PATIENT, signInAdmin, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;
let admin: Api;
let stranger: Awaited<ReturnType<typeof outsider>>;

const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  admin = await signInAdmin(app.api);
});
afterAll(() => app.close());

const malaria = (fields: Record<string, unknown> = {}) => ({
  organization_id: c.orgId,
  name: `Uncomplicated malaria ${Math.random().toString(36).slice(2, 7)}`,
  condition: 'Uncomplicated falciparum malaria',
  icd10_code: 'b50.9',
  description: 'WHO first-line treatment',
  steps: [
    {
      medication: 'Artemether-lumefantrine 20/120 mg tablet',
      dose: '4 tablets',
      route: 'oral',
      frequency: 'twice daily',
      duration_days: 3,
      instructions: 'With fatty food',
    },
    { medication: 'Paracetamol 500 mg tablet', dose: '2 tablets', frequency: 'every 8 hours as needed', duration_days: 2 },
  ],
  ...fields,
});

async function protocol(fields: Record<string, unknown> = {}, api: Api = c.doctor.api): Promise<any> {
  const res = await api.post('/api/treatments', malaria(fields));
  expect(res.status).toBe(201);
  return res.body.data;
}

async function assign(body: Record<string, unknown>, api: Api = c.doctor.api) {
  return api.post('/api/patient-treatments', { patient_id: c.patientId, start_date: today, ...body });
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

describe('treatment protocols', () => {
  it('creates a protocol with ordered steps, version 1', async () => {
    const res = await c.doctor.api.post('/api/treatments', malaria({ name: 'Malaria, adults' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organization_id: c.orgId,
      name: 'Malaria, adults',
      icd10_code: 'B50.9',
      version: 1,
      status: 'active',
      created_by: c.doctor.user.id,
      steps: [
        {
          order: 1,
          medication: 'Artemether-lumefantrine 20/120 mg tablet',
          dose: '4 tablets',
          route: 'oral',
          frequency: 'twice daily',
          duration_days: 3,
          instructions: 'With fatty food',
        },
        { order: 2, medication: 'Paracetamol 500 mg tablet', route: null, duration_days: 2, instructions: null },
      ],
    });
    expect((await c.nurse.api.get(`/api/treatments/${res.body.data.id}`)).body.data.name).toBe('Malaria, adults');
    // A second active protocol of the same name (in any letter case) is a duplicate.
    expect((await c.doctor.api.post('/api/treatments', malaria({ name: 'MALARIA, ADULTS' }))).status).toBe(409);
  });

  it('validates the protocol and its steps, naming the fields', async () => {
    const field = async (fields: Record<string, unknown>) => {
      const res = await c.doctor.api.post('/api/treatments', malaria(fields));
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ steps: [] })).toBe('steps');
    expect(await field({ steps: [{ medication: 'X', dose: '1', frequency: 'daily', duration_days: 0 }] })).toBe('steps.0.duration_days');
    expect(await field({ steps: [{ medication: ' ', dose: '1', frequency: 'daily', duration_days: 1 }] })).toBe('steps.0.medication');
    expect(await field({ steps: [{ medication: 'X', dose: '1', frequency: 'daily' }] })).toBe('steps[0].duration_days');
    expect(await field({ icd10_code: 'malaria' })).toBe('icd10_code');
    expect(await field({ name: '' })).toBe('name');
    expect(await field({ organization_id: undefined })).toBe('organization_id');
    expect(await field({ organization_id: 'x' })).toBe('organization_id');
  });

  it("lets the organization's doctors and administrators write protocols, and no one else", async () => {
    expect((await c.nurse.api.post('/api/treatments', malaria())).status).toBe(403);
    expect((await c.billing.api.post('/api/treatments', malaria())).status).toBe(403);
    expect((await stranger.api.post('/api/treatments', malaria())).status).toBe(404);
    expect((await app.api.post('/api/treatments', malaria())).status).toBe(401);
    const p = await protocol();
    expect((await c.nurse.api.patch(`/api/treatments/${p.id}`, { name: 'Renamed' })).status).toBe(403);
    expect((await c.nurse.api.delete(`/api/treatments/${p.id}`)).status).toBe(403);
    expect((await stranger.api.get(`/api/treatments/${p.id}`)).status).toBe(404);
    expect((await stranger.api.patch(`/api/treatments/${p.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await stranger.api.delete(`/api/treatments/${p.id}`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/treatments/${p.id}`)).status).toBe(403);
    expect((await c.doctor.api.get('/api/treatments/not-an-id')).status).toBe(404);
  });

  it("lists the platform's protocols and my organizations', with filters", async () => {
    const mine = await protocol();
    const theirs = await protocol({ organization_id: stranger.orgId }, stranger.api);
    const platform = await protocol({ organization_id: undefined, name: `WHO severe malaria ${Date.now()}`, icd10_code: 'B50.0' }, admin);
    expect(platform.organization_id).toBeNull();
    const list = await c.nurse.api.get('/api/treatments?limit=100');
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual(expect.arrayContaining([mine.id, platform.id]));
    expect(ids(list)).not.toContain(theirs.id);
    expect(ids(await stranger.api.get('/api/treatments?limit=100'))).toEqual(expect.arrayContaining([theirs.id, platform.id]));
    expect(ids(await c.nurse.api.get('/api/treatments?icd10_code=B50.0&limit=100'))).toEqual([platform.id]);
    expect(ids(await c.nurse.api.get('/api/treatments?icd10_code=B50&limit=100'))).toEqual(expect.arrayContaining([mine.id, platform.id]));
    expect(ids(await c.nurse.api.get(`/api/treatments?organization_id=${c.orgId}&limit=100`))).not.toContain(platform.id);
    expect((await c.nurse.api.get(`/api/treatments?organization_id=${stranger.orgId}`)).status).toBe(404);
    expect((await c.nurse.api.get('/api/treatments?status=gone')).status).toBe(400);
    expect((await c.nurse.api.get('/api/treatments?icd10_code=zz')).status).toBe(400);
    // Only platform administrators change the platform's own.
    expect((await c.doctor.api.patch(`/api/treatments/${platform.id}`, { description: 'Edited' })).status).toBe(403);
    expect((await admin.patch(`/api/treatments/${platform.id}`, { description: 'Edited' })).body.data.version).toBe(2);
  });

  it('makes a new version on each change and keeps them all', async () => {
    const p = await protocol();
    const res = await c.doctor.api.patch(`/api/treatments/${p.id}`, {
      steps: [{ medication: 'Artesunate-amodiaquine', dose: '2 tablets', frequency: 'daily', duration_days: 3 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      version: 2,
      updated_by: c.doctor.user.id,
      steps: [{ order: 1, medication: 'Artesunate-amodiaquine' }],
    });
    // Nothing changed: no new version.
    expect((await c.doctor.api.patch(`/api/treatments/${p.id}`, { name: p.name })).body.data.version).toBe(2);
    expect((await c.doctor.api.patch(`/api/treatments/${p.id}`, { name: null })).body.error.details[0].field).toBe('name');
    expect((await c.doctor.api.patch(`/api/treatments/${p.id}`, { icd10_code: 'nope' })).body.error.details[0].field).toBe('icd10_code');
    const graph = await c.doctor.api.graphql(
      'query($id: ID!) { treatmentProtocol(id: $id) { versions { version steps { medication } } } }',
      { id: p.id },
    );
    expect(graph.body.data.treatmentProtocol.versions).toEqual([
      { version: 1, steps: [{ medication: 'Artemether-lumefantrine 20/120 mg tablet' }, { medication: 'Paracetamol 500 mg tablet' }] },
      { version: 2, steps: [{ medication: 'Artesunate-amodiaquine' }] },
    ]);
  });

  it('answers GraphQL clients a name taken and a bad step as userErrors, the protocol null', async () => {
    const name = `GQL protocol ${Math.random().toString(36).slice(2, 7)}`;
    const step = { medication: 'Amoxicillin 500 mg capsule', dose: '1 capsule', frequency: 'three times daily', durationDays: 5 };
    const input = { organizationId: c.orgId, name, condition: 'Pneumonia', icd10Code: 'J18.9', steps: [step] };
    const create = `mutation($input: CreateTreatmentProtocolInput!) {
      createTreatmentProtocol(input: $input) { treatmentProtocol { id name } userErrors { field message code } }
    }`;
    const first = await c.doctor.api.graphql(create, { input });
    expect(first.body.data.createTreatmentProtocol).toEqual({ treatmentProtocol: { id: expect.any(String), name }, userErrors: [] });
    const taken = await c.doctor.api.graphql(create, { input: { ...input, name: name.toUpperCase() } });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createTreatmentProtocol).toEqual({
      treatmentProtocol: null,
      userErrors: [{ field: null, message: expect.stringMatching(/^An active protocol named .* already exists/), code: 'DUPLICATE' }],
    });
    const bad = await c.doctor.api.graphql(create, { input: { ...input, name: `${name} 2`, steps: [{ ...step, durationDays: 0 }] } });
    expect(bad.body.data.createTreatmentProtocol).toEqual({
      treatmentProtocol: null,
      userErrors: [{ field: ['input', 'steps', '0', 'durationDays'], message: 'must be at least 1', code: 'INVALID' }],
    });
    const update = `mutation($id: ID!, $input: UpdateTreatmentProtocolInput!) {
      updateTreatmentProtocol(id: $id, input: $input) { treatmentProtocol { version } userErrors { field message code } }
    }`;
    const id = first.body.data.createTreatmentProtocol.treatmentProtocol.id;
    const code = await c.doctor.api.graphql(update, { id, input: { icd10Code: 'nope' } });
    expect(code.body.data.updateTreatmentProtocol).toEqual({
      treatmentProtocol: null,
      userErrors: [{ field: ['input', 'icd10Code'], message: 'must be an ICD-10 code such as B50.9', code: 'INVALID' }],
    });
    const changed = await c.doctor.api.graphql(update, { id, input: { condition: 'Community-acquired pneumonia' } });
    expect(changed.body.data.updateTreatmentProtocol).toEqual({ treatmentProtocol: { version: 2 }, userErrors: [] });
  });

  it('deletes a protocol no treatment used, and retires one in use', async () => {
    const unused = await protocol();
    const gone = await c.doctor.api.delete(`/api/treatments/${unused.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: unused.id, outcome: 'deleted', protocol: null });
    expect((await c.doctor.api.get(`/api/treatments/${unused.id}`)).status).toBe(404);

    const used = await protocol();
    expect((await assign({ protocol_id: used.id })).status).toBe(201);
    const retired = await c.doctor.api.delete(`/api/treatments/${used.id}`);
    expect(retired.status).toBe(200);
    expect(retired.body.data).toMatchObject({
      id: used.id,
      outcome: 'retired',
      protocol: { id: used.id, status: 'retired', retired_by: c.doctor.user.id },
    });
    expect((await c.doctor.api.get(`/api/treatments/${used.id}`)).body.data.status).toBe('retired');
    expect(ids(await c.doctor.api.get('/api/treatments?status=retired&limit=100'))).toContain(used.id);
    const again = await c.doctor.api.delete(`/api/treatments/${used.id}`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot retire a treatment protocol that is retired');
    expect((await c.doctor.api.patch(`/api/treatments/${used.id}`, { name: 'Revived' })).status).toBe(409);
    expect((await assign({ protocol_id: used.id, patient_id: await newPatient() })).status).toBe(409);
  });
});

async function newPatient(): Promise<string> {
  const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Treated' });
  return res.body.data.id;
}

describe('patient treatments', () => {
  it('assigns a protocol at its current version; the doctor who assigns it prescribes it', async () => {
    const p = await protocol();
    const res = await assign({ protocol_id: p.id, notes: 'Weight 64 kg' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: c.patientId,
      organization_id: c.orgId,
      protocol_id: p.id,
      protocol_version: 1,
      protocol_name: p.name,
      start_date: today,
      planned_end_date: new Date(Date.parse(today) + 4 * 86_400_000).toISOString().slice(0, 10), // 3 days then 2 days: 5 days
      prescriber_id: c.doctor.user.id,
      assigned_by: c.doctor.user.id,
      status: 'active',
      current_step: 1,
      notes: 'Weight 64 kg',
    });
    expect(res.body.data.protocol_steps).toHaveLength(2);
    // A newer version of the protocol does not change the treatment's.
    await c.doctor.api.patch(`/api/treatments/${p.id}`, {
      steps: [{ medication: 'Other', dose: '1', frequency: 'daily', duration_days: 7 }],
    });
    const read = await c.nurse.api.get(`/api/patient-treatments/${res.body.data.id}`);
    expect(read.body.data).toMatchObject({
      protocol_version: 1,
      protocol_steps: [{ medication: 'Artemether-lumefantrine 20/120 mg tablet' }, { order: 2 }],
    });
    const change = await app
      .em('clinical')
      .findOneOrFail(AuditEvent, { resourceType: 'patient_treatment', resourceId: res.body.data.id, action: 'create' });
    expect(change).toMatchObject({ patientId: c.patientId, actorId: c.doctor.user.id });
    // The same patient on the same protocol twice at once is a duplicate.
    expect((await assign({ protocol_id: p.id })).status).toBe(409);
  });

  it("lets a nurse record a doctor's prescription, and checks the prescriber", async () => {
    const p = await protocol();
    const patientId = await newPatient();
    const nurse = (body: Record<string, unknown>) => assign({ patient_id: patientId, protocol_id: p.id, ...body }, c.nurse.api);
    expect((await nurse({})).status).toBe(403);
    expect((await nurse({ prescriber_id: c.billing.user.id })).body.error.details[0].field).toBe('prescriber_id');
    expect((await nurse({ prescriber_id: stranger.user.id })).body.error.details[0].field).toBe('prescriber_id');
    const res = await nurse({ prescriber_id: c.doctor.user.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ prescriber_id: c.doctor.user.id, assigned_by: c.nurse.user.id });
  });

  it('answers GraphQL clients a patient already on the protocol and a bad field as userErrors, the treatment null', async () => {
    const p = await protocol();
    const patientId = await newPatient();
    const assignQ = `mutation($input: AssignTreatmentInput!) {
      assignTreatment(input: $input) { patientTreatment { id protocolId } userErrors { field message code } }
    }`;
    const input = { patientId, protocolId: p.id, startDate: today };
    const first = await c.doctor.api.graphql(assignQ, { input });
    expect(first.body.data.assignTreatment).toEqual({ patientTreatment: { id: expect.any(String), protocolId: p.id }, userErrors: [] });
    const again = await c.doctor.api.graphql(assignQ, { input });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.assignTreatment).toEqual({
      patientTreatment: null,
      userErrors: [{ field: null, message: expect.stringMatching(/^The patient is already on this protocol/), code: 'DUPLICATE' }],
    });
    const bad = await c.doctor.api.graphql(assignQ, { input: { ...input, notes: 'x'.repeat(2001) } });
    expect(bad.body.data.assignTreatment).toEqual({
      patientTreatment: null,
      userErrors: [{ field: ['input', 'notes'], message: expect.any(String), code: 'INVALID' }],
    });
  });

  it('validates the assignment', async () => {
    const p = await protocol();
    const field = async (body: Record<string, unknown>) => {
      const res = await assign({ protocol_id: p.id, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ start_date: '1980-01-01' })).toBe('start_date'); // before the patient was born
    expect(await field({ start_date: '2026-02-31' })).toBe('start_date');
    expect(await field({ start_date: '2999-01-01' })).toBe('start_date');
    expect(await field({ protocol_id: 'x' })).toBe('protocol_id');
    expect(await field({ patient_id: 'x' })).toBe('patient_id');
    expect(await field({ prescriber_id: 'x' })).toBe('prescriber_id');
    const theirs = await protocol({ organization_id: stranger.orgId }, stranger.api);
    expect((await assign({ protocol_id: theirs.id })).status).toBe(404);
    expect((await assign({ protocol_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it("refuses other organizations' clinicians (404), members without clinical writes (403) and anonymous callers (401)", async () => {
    const p = await protocol();
    expect((await assign({ protocol_id: p.id }, stranger.api)).status).toBe(404);
    expect((await assign({ protocol_id: p.id }, c.billing.api)).status).toBe(403);
    expect((await assign({ protocol_id: p.id }, app.api)).status).toBe(401);
    const id = (await assign({ protocol_id: p.id, patient_id: await newPatient() })).body.data.id;
    expect((await stranger.api.patch(`/api/patient-treatments/${id}`, { current_step: 2 })).status).toBe(404);
    expect((await c.billing.api.patch(`/api/patient-treatments/${id}`, { current_step: 2 })).status).toBe(403);
    expect((await app.api.patch(`/api/patient-treatments/${id}`, { current_step: 2 })).status).toBe(401);
    expect((await stranger.api.get(`/api/patients/${c.patientId}/treatments`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/patients/${c.patientId}/treatments`)).status).toBe(403);
    expect((await app.api.get(`/api/patients/${c.patientId}/treatments`)).status).toBe(401);
    expect((await c.doctor.api.patch('/api/patient-treatments/00000000-0000-4000-8000-000000000000', { current_step: 2 })).status).toBe(
      404,
    );
  });

  it('records progress, then completes; a completed treatment is final', async () => {
    const p = await protocol();
    const id = (await assign({ protocol_id: p.id, patient_id: await newPatient() })).body.data.id;
    const progress = await c.nurse.api.patch(`/api/patient-treatments/${id}`, { current_step: 2, progress_note: 'Fever gone on day 2' });
    expect(progress.status).toBe(200);
    expect(progress.body.data).toMatchObject({
      status: 'active',
      current_step: 2,
      progress_note: 'Fever gone on day 2',
      updated_by: c.nurse.user.id,
    });
    expect((await c.nurse.api.patch(`/api/patient-treatments/${id}`, { current_step: 3 })).body.error.details[0].field).toBe(
      'current_step',
    );
    expect((await c.nurse.api.patch(`/api/patient-treatments/${id}`, { status: 'active' })).body.error.details[0].field).toBe('status');
    expect((await c.nurse.api.patch(`/api/patient-treatments/${id}`, { end_date: today })).body.error.details[0].field).toBe('end_date');
    const done = await c.nurse.api.patch(`/api/patient-treatments/${id}`, { status: 'completed' });
    expect(done.body.data).toMatchObject({ status: 'completed', end_date: today, closed_at: expect.any(String) });
    const again = await c.nurse.api.patch(`/api/patient-treatments/${id}`, { current_step: 1 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot record progress a patient treatment that is completed');
    expect(
      (await c.nurse.api.patch(`/api/patient-treatments/${id}`, { status: 'discontinued', discontinuation_reason: 'Too late' })).status,
    ).toBe(409);
    expect((await c.nurse.api.patch(`/api/patient-treatments/${id}`, { status: 'completed' })).status).toBe(409);
  });

  it('discontinues with a reason, through REST and the named GraphQL mutations', async () => {
    const p = await protocol();
    const patientId = await newPatient();
    const id = (await assign({ protocol_id: p.id, patient_id: patientId })).body.data.id;
    expect((await c.doctor.api.patch(`/api/patient-treatments/${id}`, { status: 'discontinued' })).body.error.details[0].field).toBe(
      'discontinuation_reason',
    );
    expect(
      (await c.doctor.api.patch(`/api/patient-treatments/${id}`, { discontinuation_reason: 'Rash' })).body.error.details[0].field,
    ).toBe('discontinuation_reason');
    const stopped = await c.doctor.api.patch(`/api/patient-treatments/${id}`, {
      status: 'discontinued',
      discontinuation_reason: 'Generalized rash on day 2',
    });
    expect(stopped.body.data).toMatchObject({
      status: 'discontinued',
      discontinuation_reason: 'Generalized rash on day 2',
      end_date: today,
    });

    const second = (await assign({ protocol_id: p.id, patient_id: patientId })).body.data.id;
    const gql = (query: string) => c.doctor.api.graphql(query, { id: second });
    expect(
      (await gql('mutation($id: ID!) { recordTreatmentProgress(id: $id, currentStep: 2) { currentStep } }')).body.data
        .recordTreatmentProgress.currentStep,
    ).toBe(2);
    expect(
      (await gql('mutation($id: ID!) { completePatientTreatment(id: $id) { status endDate } }')).body.data.completePatientTreatment,
    ).toEqual({ status: 'completed', endDate: today });
    const refused = await gql('mutation($id: ID!) { discontinuePatientTreatment(id: $id, reason: "x") { status } }');
    expect(refused.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it("lists a patient's treatments, latest start first, with the patient graph and the audit", async () => {
    const p = await protocol();
    const patientId = await newPatient();
    const older = (await assign({ protocol_id: p.id, patient_id: patientId, start_date: '2026-01-05' })).body.data.id;
    await c.doctor.api.patch(`/api/patient-treatments/${older}`, { status: 'completed', end_date: '2026-01-10' });
    const newer = (await assign({ protocol_id: p.id, patient_id: patientId })).body.data.id;
    const list = await c.nurse.api.get(`/api/patients/${patientId}/treatments`);
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([newer, older]);
    expect(list.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    expect(ids(await c.nurse.api.get(`/api/patients/${patientId}/treatments?status=completed`))).toEqual([older]);
    expect((await c.nurse.api.get(`/api/patients/${patientId}/treatments?status=paused`)).status).toBe(400);
    const graph = await c.nurse.api.graphql('query($id: ID!) { patient(id: $id) { treatments { nodes { id protocol { name } } } } }', {
      id: patientId,
    });
    expect(graph.body.data.patient.treatments.nodes.map((t: { id: string }) => t.id)).toEqual([newer, older]);
    const journey = await c.nurse.api.get(`/api/patients/${patientId}/journey?limit=100`);
    expect(journey.body.data.map((e: { resource_id: string }) => e.resource_id)).toEqual(expect.arrayContaining([newer, older]));
  });
});
