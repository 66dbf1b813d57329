import { randomUUID } from 'node:crypto';
import { Patient } from '../subgraphs/clinical/patients/patient.entity';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
let doctor: SignedUp;
let orgId: string;

beforeAll(async () => {
  app = await startApp();
  doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
  orgId = (await createOrganization(doctor.api)).id;
});
afterAll(() => app.close());

const fieldsOf = (res: { body: { error: { details: { field: string }[] } } }) => res.body.error.details.map((d) => d.field).sort();

describe('POST /api/patients', () => {
  it('creates a patient from the SPEC fields and answers 201 with an id', async () => {
    const res = await doctor.api.post('/api/patients', SAMPLE_PATIENT);
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject(SAMPLE_PATIENT);
    expect(res.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const read = await doctor.api.get(`/api/patients/${res.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('validates date, phone and email, naming each field, and stores nothing', async () => {
    const before = await app.em('clinical').count(Patient, { createdBy: doctor.user.id });
    const res = await doctor.api.post('/api/patients', {
      ...SAMPLE_PATIENT,
      date_of_birth: '15/06/1988',
      phone: '0712345678',
      email: 'amina-at-example',
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['date_of_birth', 'email', 'phone']);
    expect(res.body.error.message).toMatch(/date_of_birth must be a date in YYYY-MM-DD format/);
    expect(await app.em('clinical').count(Patient, { createdBy: doctor.user.id })).toBe(before);
  });

  it.each([
    ['an impossible date', { date_of_birth: '2023-02-30' }, 'date_of_birth'],
    ['a future birth date', { date_of_birth: '2999-01-01' }, 'date_of_birth'],
    ['an unknown gender', { gender: 'robot' }, 'gender'],
    ['a number for a name', { first_name: 7 }, 'first_name'],
  ])('rejects %s', async (_name, patch, field) => {
    const res = await doctor.api.post('/api/patients', { ...SAMPLE_PATIENT, ...patch });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual([field]);
  });

  it('requires first_name, last_name and date_of_birth', async () => {
    const res = await doctor.api.post('/api/patients', { gender: 'male' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['date_of_birth', 'first_name', 'last_name']);
  });

  it('accepts gender in any case and stores the canonical value', async () => {
    const res = await doctor.api.post('/api/patients', { ...SAMPLE_PATIENT, gender: 'Female' });
    expect(res.status).toBe(201);
    expect(res.body.data.gender).toBe('female');
  });

  it('needs authentication', async () => {
    expect((await app.api.post('/api/patients', SAMPLE_PATIENT)).status).toBe(401);
  });
});

describe('GET/PATCH /api/patients/:id and /api/patients/me', () => {
  it("makes a PATIENT user's first profile their own", async () => {
    const patient = await signUp(app.api, { registration_role: 'PATIENT' });
    expect((await patient.api.get('/api/patients/me')).status).toBe(404);
    const created = await patient.api.post('/api/patients', { ...SAMPLE_PATIENT, first_name: 'Self' });
    expect(created.body.data.user_id).toBe(patient.user.id);
    const me = await patient.api.get('/api/patients/me');
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(created.body.data.id);
    const updated = await patient.api.patch(`/api/patients/${created.body.data.id}`, { phone: '+254711111111' });
    expect(updated.status).toBe(200);
    expect(updated.body.data.phone).toBe('+254711111111');
  });

  it("answers 404 for someone else's patient, and for unknown or malformed ids", async () => {
    const created = await doctor.api.post('/api/patients', SAMPLE_PATIENT);
    const stranger = await signUp(app.api, { registration_role: 'DOCTOR' });
    const res = await stranger.api.get(`/api/patients/${created.body.data.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Patient not found' } });
    expect((await stranger.api.patch(`/api/patients/${created.body.data.id}`, { phone: '+254700000000' })).status).toBe(404);
    expect((await doctor.api.get('/api/patients/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await doctor.api.get('/api/patients/12345')).status).toBe(404);
  });

  it('lets administrators read any patient', async () => {
    const created = await doctor.api.post('/api/patients', SAMPLE_PATIENT);
    const admin = await signInAdmin(app.api);
    expect((await admin.get(`/api/patients/${created.body.data.id}`)).status).toBe(200);
  });

  it('lets a platform administrator register a patient only into an organization that exists', async () => {
    const admin = await signInAdmin(app.api);
    const mistyped = await admin.post('/api/patients', { ...SAMPLE_PATIENT, organization_id: randomUUID() });
    expect(mistyped.status).toBe(404);
    expect(mistyped.body.error.message).toBe('Organization not found');
    const real = await admin.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT);
    expect(real.status).toBe(201);
    expect(real.body.data.organization_id).toBe(orgId);
  });

  it('validates updates and refuses to clear required fields', async () => {
    const created = await doctor.api.post('/api/patients', SAMPLE_PATIENT);
    const id = created.body.data.id;
    const bad = await doctor.api.patch(`/api/patients/${id}`, { date_of_birth: 'yesterday', last_name: null });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['date_of_birth']);
    const cleared = await doctor.api.patch(`/api/patients/${id}`, { last_name: null });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error.details).toEqual([{ field: 'last_name', message: 'cannot be null' }]);
    const ok = await doctor.api.patch(`/api/patients/${id}`, { email: null, gender: 'MALE' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ email: null, gender: 'male', last_name: SAMPLE_PATIENT.last_name });
  });
});

describe('organization patients', () => {
  const register = (api: Api, org = orgId, body: Record<string, unknown> = SAMPLE_PATIENT) =>
    api.post(`/api/organizations/${org}/patients`, body);

  it('assigns medical record numbers in sequence per organization', async () => {
    const org = await createOrganization(doctor.api);
    const first = await register(doctor.api, org.id);
    const second = await register(doctor.api, org.id);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ organization_id: org.id, mrn: 'MRN-000001' });
    expect(second.body.data.mrn).toBe('MRN-000002');
    const other = await createOrganization(doctor.api);
    expect((await register(doctor.api, other.id)).body.data.mrn).toBe('MRN-000001');
  });

  it('keeps numbers unique under concurrent registrations, with no errors', async () => {
    const org = await createOrganization(doctor.api);
    const results = await Promise.all(Array.from({ length: 20 }, () => register(doctor.api, org.id)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.data.mrn)).size).toBe(20);
    const stored = await app.em('clinical').find(Patient, { organizationId: org.id });
    expect(new Set(stored.map((p) => p.mrn)).size).toBe(20);
  });

  it('skips an allocated number that was given by hand, and leaves a gap after a failed registration', async () => {
    const org = await createOrganization(doctor.api);
    expect((await register(doctor.api, org.id, { ...SAMPLE_PATIENT, mrn: 'MRN-000002' })).status).toBe(201);
    expect((await register(doctor.api, org.id)).body.data.mrn).toBe('MRN-000001');
    expect((await register(doctor.api, org.id)).body.data.mrn).toBe('MRN-000003');
    // A registration refused after its number was taken from the counter leaves that number unused.
    expect((await register(doctor.api, org.id, { ...SAMPLE_PATIENT, national_id: '123' })).status).toBe(400);
    expect((await register(doctor.api, org.id)).body.data.mrn).toBe('MRN-000005');
  });

  it('accepts a given MRN and answers 409 when it is taken', async () => {
    const org = await createOrganization(doctor.api);
    expect((await register(doctor.api, org.id, { ...SAMPLE_PATIENT, mrn: 'A-100' })).status).toBe(201);
    const dup = await register(doctor.api, org.id, { ...SAMPLE_PATIENT, mrn: 'A-100' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
  });

  it('answers GraphQL clients a number taken and a national id without its country as userErrors, the patient null', async () => {
    const org = await createOrganization(doctor.api);
    const mutation = `mutation($i: CreatePatientInput!) {
      createPatient(input: $i) { patient { mrn } userErrors { field message code } }
    }`;
    const input = { organizationId: org.id, firstName: 'Wanjiru', lastName: 'Kamau', dateOfBirth: '1988-04-12', mrn: 'G-7' };
    const first = await doctor.api.graphql(mutation, { i: input });
    expect(first.body.data.createPatient).toEqual({ patient: { mrn: 'G-7' }, userErrors: [] });
    const taken = await doctor.api.graphql(mutation, { i: input });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createPatient).toEqual({
      patient: null,
      userErrors: [{ field: null, message: 'Medical record number G-7 is already used in this organization', code: 'DUPLICATE' }],
    });
    const half = await doctor.api.graphql(mutation, { i: { ...input, mrn: 'G-8', nationalId: '12345678' } });
    expect(half.body.data.createPatient).toEqual({
      patient: null,
      userErrors: [{ field: ['input', 'nationalIdCountry'], message: 'is required with nationalId', code: 'INVALID' }],
    });
    // Not the user's to fix: another organization's patients stay a top-level error.
    const stranger = await signUp(app.api, { registration_role: 'DOCTOR' });
    const denied = await stranger.api.graphql(mutation, { i: { ...input, mrn: 'G-9' } });
    expect(denied.body.data).toBeNull();
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(denied.body.errors[0].extensions.code);
  });

  it('answers GraphQL clients registering with an organization a number taken and a bad field as userErrors', async () => {
    const org = await createOrganization(doctor.api);
    const mutation = `mutation($o: ID!, $i: PatientInput!) {
      createOrganizationPatient(organizationId: $o, input: $i) { patient { mrn } userErrors { field message code } }
    }`;
    const input = { firstName: 'Achieng', lastName: 'Otieno', dateOfBirth: '1979-02-03', mrn: 'H-1' };
    const first = await doctor.api.graphql(mutation, { o: org.id, i: input });
    expect(first.body.data.createOrganizationPatient).toEqual({ patient: { mrn: 'H-1' }, userErrors: [] });
    const taken = await doctor.api.graphql(mutation, { o: org.id, i: input });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createOrganizationPatient).toEqual({
      patient: null,
      userErrors: [{ field: null, message: 'Medical record number H-1 is already used in this organization', code: 'DUPLICATE' }],
    });
    const half = await doctor.api.graphql(mutation, { o: org.id, i: { ...input, mrn: 'H-2', nationalId: '12345678' } });
    expect(half.body.data.createOrganizationPatient).toEqual({
      patient: null,
      userErrors: [{ field: ['input', 'nationalIdCountry'], message: 'is required with nationalId', code: 'INVALID' }],
    });
  });

  it('lists, reads and searches by MRN, with pagination', async () => {
    const org = await createOrganization(doctor.api);
    for (let i = 0; i < 3; i++) await register(doctor.api, org.id, { ...SAMPLE_PATIENT, first_name: `P${i}` });
    const list = await doctor.api.get(`/api/organizations/${org.id}/patients?limit=2`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    const page2 = await doctor.api.get(`/api/organizations/${org.id}/patients?limit=2&page=2`);
    expect(page2.body.data).toHaveLength(1);

    const search = await doctor.api.get(`/api/organizations/${org.id}/patients/search?mrn=mrn-000002`);
    expect(search.status).toBe(200);
    expect(search.body.data.map((p: { mrn: string }) => p.mrn)).toEqual(['MRN-000002']);
    expect(search.body.meta.total).toBe(1);

    const one = await doctor.api.get(`/api/organizations/${org.id}/patients/${search.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.first_name).toBe('P1');

    const missing = await doctor.api.get(`/api/organizations/${org.id}/patients/search`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('mrn');
  });

  describe('search by name and MRN prefix', () => {
    let org: string;
    const people = [
      ['Amina', 'Odhiambo'],
      ['Aminata', 'Diallo'],
      ['Juma', 'Odhiambo'],
      ['Grace', 'Amin'],
      ['Wanjiru', 'Kamau'],
    ];
    const search = (query: string) => doctor.api.get(`/api/organizations/${org}/patients/search?${query}`);
    const names = (res: { body: { data: { first_name: string; last_name: string }[] } }) =>
      res.body.data.map((p) => `${p.first_name} ${p.last_name}`);

    beforeAll(async () => {
      org = (await createOrganization(doctor.api)).id;
      for (const [first_name, last_name] of people) {
        expect((await register(doctor.api, org, { ...SAMPLE_PATIENT, first_name, last_name })).status).toBe(201);
      }
    });

    it('matches the start of the given or the family name, any case, ordered by family then given name', async () => {
      const res = await search('name=AMIN');
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['Grace Amin', 'Aminata Diallo', 'Amina Odhiambo']);
      expect(res.body.meta).toEqual({ page: 1, limit: 20, total: 3 });
      expect(names(await search('name=odhi'))).toEqual(['Amina Odhiambo', 'Juma Odhiambo']);
      expect(names(await search('name=hiambo'))).toEqual([]);
    });

    it('needs every word to match, in any order', async () => {
      expect(names(await search('name=amina%20odh'))).toEqual(['Amina Odhiambo']);
      expect(names(await search('name=Odh%20%20Ami'))).toEqual(['Amina Odhiambo']);
      expect(names(await search('name=juma%20kamau'))).toEqual([]);
    });

    it('combines name and MRN, and pages the matches', async () => {
      const both = await search('name=odhiambo&mrn=mrn-00000');
      expect(names(both)).toEqual(['Amina Odhiambo', 'Juma Odhiambo']);
      const page2 = await search('name=a&limit=2&page=2');
      expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
      expect(names(page2)).toEqual(['Amina Odhiambo']);
    });

    it('takes % and _ literally, not as wildcards', async () => {
      expect(names(await search('name=%25'))).toEqual([]);
      expect(names(await search('name=_mina'))).toEqual([]);
      expect((await search('mrn=%25')).body.data).toEqual([]);
    });

    it('rejects a search without terms, and too many or too long words (400 naming the field)', async () => {
      for (const [query, field] of [
        ['name=%20%20', 'name'],
        ['name=a%20b%20c%20d%20e', 'name'],
        [`name=${'a'.repeat(101)}`, 'name'],
        [`mrn=${'1'.repeat(51)}`, 'mrn'],
      ]) {
        const res = await search(query);
        expect([query, res.status, res.body.error?.details?.[0]?.field]).toEqual([query, 400, field]);
      }
    });
  });

  it('counts totals exactly up to 1,000 and estimates larger ones, saying so', async () => {
    const org = await createOrganization(doctor.api);
    const em = app.em('clinical');
    const seed = (n: number, from: number) =>
      em.getConnection().execute(
        `insert into clinical.patients (id, created_at, updated_at, first_name, last_name, date_of_birth, mrn, organization_id, created_by)
         select gen_random_uuid(), now(), now(), 'Seeded', 'Person ' || i, date '1980-01-01', 'S-' || i, ?, ? from generate_series(?::int, ?::int) as i`,
        [org.id, doctor.user.id, from, from + n - 1],
      );
    await seed(1000, 1);
    const exact = await doctor.api.get(`/api/organizations/${org.id}/patients?limit=5`);
    expect(exact.body.meta).toEqual({ page: 1, limit: 5, total: 1000 });
    await seed(1500, 1001);
    await em.getConnection().execute('analyze clinical.patients');
    const estimated = await doctor.api.get(`/api/organizations/${org.id}/patients?limit=5`);
    expect(estimated.status).toBe(200);
    expect(estimated.body.data).toHaveLength(5);
    expect(estimated.body.meta).toMatchObject({ page: 1, limit: 5, total_is_estimate: true });
    expect(estimated.body.meta.total).toBeGreaterThan(1000);
    const search = await doctor.api.get(`/api/organizations/${org.id}/patients/search?name=seeded&limit=5`);
    expect(search.body.meta).toMatchObject({ total_is_estimate: true });
    expect(search.body.meta.total).toBeGreaterThan(1000);
    // A narrower search is counted exactly again.
    const narrow = await doctor.api.get(`/api/organizations/${org.id}/patients/search?mrn=s-12&limit=5`);
    expect(narrow.body.meta).toEqual({ page: 1, limit: 5, total: 111 });
    // GraphQL clients read the same flag.
    const gql = await doctor.api.post('/graphql', {
      query: `query($o: ID!) { organizationPatients(organizationId: $o, limit: 1) { total totalIsEstimate } }`,
      variables: { o: org.id },
    });
    expect(gql.body.data.organizationPatients.totalIsEstimate).toBe(true);
  });

  it("audits a page of patients as one event naming them, found from each patient's trail and export", async () => {
    const org = await createOrganization(doctor.api);
    const ids: string[] = [];
    for (const first_name of ['Zed', 'Zara', 'Zuri']) {
      ids.push((await register(doctor.api, org.id, { ...SAMPLE_PATIENT, first_name, last_name: 'Zulu' })).body.data.id);
    }
    const res = await doctor.api.get(`/api/organizations/${org.id}/patients/search?name=zulu`);
    expect(res.body.data).toHaveLength(3);
    const shown = res.body.data.map((p: { id: string }) => p.id);
    const trail = await doctor.api.get(`/api/clinical/audit/search?organization_id=${org.id}&action=list&resource_type=patient`);
    expect(trail.status).toBe(200);
    expect(trail.body.data).toHaveLength(1);
    expect(trail.body.data[0]).toMatchObject({ action: 'list', resource_id: null, patient_id: null, resource_ids: shown });
    expect([...trail.body.data[0].patient_ids].sort()).toEqual([...ids].sort());
    // Each patient's part of the trail includes the list that showed them.
    const forOne = await doctor.api.get(`/api/clinical/audit/search?patient_id=${ids[1]}&action=list`);
    expect(forOne.body.data.map((e: { id: string }) => e.id)).toEqual([trail.body.data[0].id]);
    const forRecord = await doctor.api.get(`/api/clinical/audit/resource/patient/${ids[2]}`);
    expect(forRecord.body.data.map((e: { action: string }) => e.action)).toContain('list');
    const exported = await doctor.api.get(`/api/patients/${ids[0]}/export`);
    expect(exported.status).toBe(200);
    const accessLog = exported.body.data.sections.access_log as { action: string; id: string }[];
    expect(accessLog.map((e) => e.id)).toContain(trail.body.data[0].id);
  });

  it('hides an organization and its patients from non-members (404)', async () => {
    const created = await register(doctor.api);
    const stranger = await signUp(app.api, { registration_role: 'DOCTOR' });
    for (const path of [
      `/api/organizations/${orgId}/patients`,
      `/api/organizations/${orgId}/patients/${created.body.data.id}`,
      `/api/organizations/${orgId}/patients/search?mrn=MRN`,
      `/api/patients/${created.body.data.id}`,
    ]) {
      const res = await stranger.api.get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await register(stranger.api)).status).toBe(404);
  });

  it("does not show one organization's patient through another organization's path", async () => {
    const created = await register(doctor.api);
    const other = await createOrganization(doctor.api);
    const res = await doctor.api.get(`/api/organizations/${other.id}/patients/${created.body.data.id}`);
    expect(res.status).toBe(404);
  });

  it('lets every member read patients, but only clinical roles register them (403 otherwise)', async () => {
    const billing = await signUp(app.api, { registration_role: 'STAFF' });
    await addMember(app, orgId, billing.user.id, 'ORG:BILLING');
    expect((await billing.api.get(`/api/organizations/${orgId}/patients`)).status).toBe(200);
    const res = await register(billing.api);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const created = await register(doctor.api);
    const patch = await billing.api.patch(`/api/patients/${created.body.data.id}`, { phone: '+254700000009' });
    expect(patch.status).toBe(403);
  });

  it('lets a member read an organization patient through /api/patients/:id', async () => {
    const created = await register(doctor.api);
    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, orgId, nurse.user.id, 'ORG:NURSE');
    expect((await nurse.api.get(`/api/patients/${created.body.data.id}`)).status).toBe(200);
  });
});
