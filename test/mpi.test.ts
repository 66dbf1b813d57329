import { randomUUID } from 'node:crypto';
import { User } from '../subgraphs/org/users/user.entity';
import { forgetUser } from '../subgraphs/org/users/identity';
import { fhirIssues } from '../subgraphs/clinical/interop/fhir';
import { MpiRecord } from '../subgraphs/clinical/mpi/mpi.entity';
import { mpiIndexSweep } from '../subgraphs/clinical/mpi/mpi.consumers';
import { Patient } from '../subgraphs/clinical/patients/patient.entity';
import { signInAdmin, signUp, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';
import { eventually } from './support/wait';

let app: TestApp;
let a: Clinic;
let b: Awaited<ReturnType<typeof outsider>>;
let admin: Api;
let appAdmin: Api;

/** A family name no other suite uses, so the matcher's candidates are this suite's own. */
const surname = () =>
  `Q${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 6)}wu`;

beforeAll(async () => {
  app = await startApp();
  a = await clinic(app);
  b = await outsider(app);
  admin = await signInAdmin(app.api);
  const user = await signUp(app.api);
  await app.em('org').nativeUpdate(User, { id: user.user.id }, { roles: ['APP:ADMIN'] });
  await forgetUser(user.user.id);
  appAdmin = user.api;
});
afterAll(() => app.close());

async function register(api: Api, orgId: string, fields: Record<string, unknown>): Promise<string> {
  const res = await api.post(`/api/organizations/${orgId}/patients`, fields);
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** The pair's match, once the index worker has looked at it. */
async function matchOf(x: string, y: string, status?: string) {
  return eventually(async () => {
    const res = await appAdmin.get(`/api/mpi/matches?patient_id=${x}&limit=100`);
    return res.body.data?.find(
      (m: { patient_id: string; linked_patient_id: string; status: string }) =>
        [m.patient_id, m.linked_patient_id].includes(y) && (!status || m.status === status),
    );
  }, `a match of ${x} and ${y}`);
}

describe('master patient index', () => {
  it('finds a patient registered at two organizations with a typo in the given name, and links them after review', async () => {
    const family = surname();
    const first = await register(a.doctor.api, a.orgId, {
      first_name: 'Amina',
      last_name: family,
      date_of_birth: '1988-06-15',
      gender: 'female',
      phone: '+254712300001',
    });
    const second = await register(b.api, b.orgId, {
      first_name: 'Amna',
      last_name: family,
      date_of_birth: '1988-06-15',
      gender: 'female',
      phone: '+254712300001',
    });

    // The registration ran the matcher in a worker: the pair waits for review (different given names, same birth date
    // and family name: never linked without a person).
    const candidate = await matchOf(first, second);
    expect(candidate).toMatchObject({ status: 'pending_review', origin: 'matcher', identifier_agrees: true, twin_suspected: true });
    expect(candidate.score).toBeGreaterThanOrEqual(0.55);
    const queue = await appAdmin.get('/api/mpi/candidates?limit=100');
    expect(queue.status).toBe(200);
    expect(queue.body.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    expect(queue.body.data.map((c: { id: string }) => c.id)).toContain(candidate.id);

    // Matching by demographics finds the record with each field's contribution.
    const found = await appAdmin.post('/api/mpi/match', {
      first_name: 'Amina',
      last_name: family,
      date_of_birth: '1988-06-15',
      gender: 'female',
    });
    expect(found.status).toBe(200);
    const hit = found.body.data.candidates.find((c: { patient_id: string }) => c.patient_id === second);
    expect(hit).toMatchObject({ classification: 'review', patient: { first_name: 'Amna', last_name: family } });
    const fields = hit.contributions.map((f: { field: string }) => f.field);
    expect(fields).toEqual(['given_name', 'family_name', 'birth_date', 'gender', 'phone', 'national_id']);
    expect(hit.contributions.find((f: { field: string }) => f.field === 'given_name')).toMatchObject({ outcome: 'partial' });
    const sum = hit.contributions.reduce((s: number, f: { contribution: number }) => s + f.contribution, 0);
    expect(Math.abs(sum - hit.score)).toBeLessThan(0.001);
    const scores = found.body.data.candidates.map((c: { score: number }) => c.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));

    // The reviewer approves; the link keeps who decided and when.
    const reviewed = await admin.post(`/api/mpi/links/${candidate.id}/review`, {
      decision: 'approve',
      reason: 'Same phone and birth date; typo at registration',
    });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.data).toMatchObject({ status: 'linked', decided_by: expect.any(String), decided_at: expect.any(String) });
    expect(reviewed.body.data.history.map((h: { action: string }) => h.action)).toEqual(['proposed', 'approved']);

    const linked = await appAdmin.get(`/api/mpi/links/${first}`);
    expect(linked.status).toBe(200);
    expect(linked.body.data.map((l: { id: string }) => l.id)).toEqual([candidate.id]);
    const fhir = await appAdmin.get(`/api/mpi/patients/${first}/fhir`);
    expect(fhir.status).toBe(200);
    expect(fhir.body.data.link).toEqual([{ other: { reference: `Patient/${second}` }, type: 'seealso' }]);
    expect(fhirIssues(fhir.body.data)).toEqual([]);

    // A second review of a decided pair is a conflict.
    const again = await admin.post(`/api/mpi/links/${candidate.id}/review`, { decision: 'reject', reason: 'changed my mind' });
    expect(again.status).toBe(409);
  });

  it('never links possible twins without a person, even with a shared phone', async () => {
    const family = surname();
    const one = await register(a.doctor.api, a.orgId, {
      first_name: 'Wanjiru',
      last_name: family,
      date_of_birth: '2015-03-02',
      gender: 'female',
      phone: '+254712300002',
    });
    const two = await register(a.doctor.api, a.orgId, {
      first_name: 'Njeri',
      last_name: family,
      date_of_birth: '2015-03-02',
      gender: 'female',
      phone: '+254712300002',
    });
    const match = await matchOf(one, two);
    expect(match).toMatchObject({ status: 'pending_review', twin_suspected: true });
    // The reviewer keeps them apart; the matcher never proposes the pair again.
    const rejected = await appAdmin.post(`/api/mpi/links/${match.id}/review`, { decision: 'reject', reason: 'Twin sisters' });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', reason: 'Twin sisters' });
    await a.doctor.api.patch(`/api/patients/${two}`, { email: 'njeri@example.test', first_name: 'Njeri' });
    const after = await appAdmin.get(`/api/mpi/matches/${match.id}`);
    expect(after.body.data.status).toBe('rejected');
  });

  it('links automatically above the upper threshold only with an agreeing identifier', async () => {
    const family = surname();
    const person = {
      first_name: 'Kwame',
      last_name: family,
      date_of_birth: '1979-11-30',
      gender: 'male',
      phone: '+233241230003',
      national_id: 'GHA-712345678-1',
      national_id_country: 'GH',
    };
    const one = await register(a.doctor.api, a.orgId, person);
    const two = await register(b.api, b.orgId, person);
    const link = await matchOf(one, two);
    expect(link).toMatchObject({ status: 'linked', origin: 'matcher', identifier_agrees: true, twin_suspected: false, decided_by: null });
    // Same name and birth date but no shared identifier: review, whatever the score.
    const three = await register(b.api, b.orgId, { first_name: 'Kwame', last_name: family, date_of_birth: '1979-11-30', gender: 'male' });
    const pending = await matchOf(one, three);
    expect(pending).toMatchObject({ status: 'pending_review', identifier_agrees: false });
  });

  it('re-runs the matcher when a patient is updated', async () => {
    const family = surname();
    const one = await register(a.doctor.api, a.orgId, { first_name: 'Chidi', last_name: family, date_of_birth: '1990-01-20' });
    const two = await register(b.api, b.orgId, { first_name: 'Obinna', last_name: `${family}x`, date_of_birth: '1961-05-05' });
    await b.api.patch(`/api/patients/${two}`, { first_name: 'Chidi', last_name: family, date_of_birth: '1990-01-20' });
    expect(await matchOf(one, two)).toMatchObject({ status: 'pending_review' });
  });

  it('links by hand, unlinks keeping the history, and proposes pairs for review', async () => {
    const family = surname();
    const one = await register(a.doctor.api, a.orgId, { first_name: 'Zawadi', last_name: family, date_of_birth: '1970-07-07' });
    const two = await register(b.api, b.orgId, { first_name: 'Rehema', last_name: `${family}ab`, date_of_birth: '1944-02-02' });
    const linked = await appAdmin.post('/api/mpi/link', { patient_id: one, linked_patient_id: two, reason: 'Confirmed with the patient' });
    expect(linked.status).toBe(201);
    expect(linked.body.data).toMatchObject({
      status: 'linked',
      origin: 'person',
      reason: 'Confirmed with the patient',
      score: expect.any(Number),
    });
    const repeat = await appAdmin.post('/api/mpi/link', { patient_id: two, linked_patient_id: one });
    expect(repeat.body.data.id).toBe(linked.body.data.id);
    const unlinked = await admin.post(`/api/mpi/matches/${linked.body.data.id}/unlink`, { reason: 'Wrong person' });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.data.status).toBe('unlinked');
    expect(unlinked.body.data.history.map((h: { action: string; to_status: string }) => [h.action, h.to_status])).toEqual([
      ['linked', 'linked'],
      ['unlinked', 'unlinked'],
    ]);
    expect((await admin.post(`/api/mpi/matches/${linked.body.data.id}/unlink`, { reason: 'again' })).status).toBe(409);
    expect((await admin.post(`/api/mpi/matches/${linked.body.data.id}/unlink`, {})).status).toBe(400);
    expect((await appAdmin.get(`/api/mpi/links/${one}`)).body.data).toEqual([]);
    const got = await appAdmin.get(`/api/mpi/matches/${linked.body.data.id}`);
    expect(got.body.data).toMatchObject({
      status: 'unlinked',
      patient: { id: expect.any(String) },
      linked_patient: { id: expect.any(String) },
    });
    // Proposed again by a person, it waits for review.
    const proposed = await appAdmin.post('/api/mpi/links', { patient_id: one, linked_patient_id: two, reason: 'Second look' });
    expect(proposed.status).toBe(201);
    expect(proposed.body.data.status).toBe('pending_review');
    expect((await appAdmin.post('/api/mpi/links', { patient_id: one, linked_patient_id: two })).status).toBe(409);
    const noReason = await appAdmin.post(`/api/mpi/links/${proposed.body.data.id}/review`, { decision: 'reject' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.details[0].field).toBe('reason');
    const listed = await appAdmin.get(`/api/mpi/matches?status=pending_review&patient_id=${one}`);
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([proposed.body.data.id]);
  });

  it('refuses a link to itself (400), unknown ids (404), malformed ids and bad input (400)', async () => {
    const id = a.patientId;
    const self = await appAdmin.post('/api/mpi/link', { patient_id: id, linked_patient_id: id });
    expect(self.status).toBe(400);
    expect(self.body.error.details[0].field).toBe('linked_patient_id');
    expect((await appAdmin.post('/api/mpi/links', { patient_id: id, linked_patient_id: id })).status).toBe(400);
    expect((await appAdmin.post('/api/mpi/link', { patient_id: id, linked_patient_id: randomUUID() })).status).toBe(404);
    expect((await appAdmin.post('/api/mpi/link', { patient_id: 'nope', linked_patient_id: id })).status).toBe(400);
    for (const path of [
      `/api/mpi/patients/${randomUUID()}/fhir`,
      '/api/mpi/patients/nope/fhir',
      `/api/mpi/links/${randomUUID()}`,
      `/api/mpi/matches/${randomUUID()}`,
      '/api/mpi/matches/x',
    ]) {
      const res = await appAdmin.get(path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
    expect((await appAdmin.post(`/api/mpi/links/${randomUUID()}/review`, { decision: 'approve' })).status).toBe(404);
    expect((await appAdmin.post(`/api/mpi/matches/${randomUUID()}/unlink`, { reason: 'x' })).status).toBe(404);
    expect((await appAdmin.post(`/api/mpi/links/${randomUUID()}/review`, { decision: 'maybe' })).status).toBe(400);
    const missing = await appAdmin.post('/api/mpi/match', { first_name: 'Amina' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['date_of_birth', 'last_name']);
    for (const body of [
      { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-30' },
      { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-01', min_score: 2 },
      { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-01', limit: 0 },
      { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-01', phone: '12' },
      { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-01', national_id: '123' },
      { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-01', gender: 'robot' },
    ]) {
      const res = await appAdmin.post('/api/mpi/match', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await appAdmin.post('/api/mpi/match', { patient_id: randomUUID() })).status).toBe(404);
    // A national id means nothing without its country (the patients module checks it).
    const noCountry = await a.doctor.api.post(`/api/organizations/${a.orgId}/patients`, {
      first_name: 'A',
      last_name: 'B',
      date_of_birth: '1990-01-01',
      national_id: '12345678',
    });
    expect(noCountry.status).toBe(400);
    expect(noCountry.body.error.details[0].field).toBe('national_id_country');
    const badCountry = await a.doctor.api.post(`/api/organizations/${a.orgId}/patients`, {
      first_name: 'A',
      last_name: 'B',
      date_of_birth: '1990-01-01',
      national_id: '12345678',
      national_id_country: 'XX',
    });
    expect(badCountry.status).toBe(400);
    expect((await appAdmin.get('/api/mpi/matches?status=maybe')).status).toBe(400);
  });

  it('is for SUPER:ADMIN and APP:ADMIN only: 401 without a token, 403 for other roles', async () => {
    const id = a.patientId;
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/mpi/match', { first_name: 'Amina', last_name: 'Odhiambo', date_of_birth: '1988-06-15' }],
      ['GET', `/api/mpi/patients/${id}/fhir`],
      ['GET', `/api/mpi/links/${id}`],
      ['POST', '/api/mpi/links', { patient_id: id, linked_patient_id: randomUUID() }],
      ['GET', '/api/mpi/candidates'],
      ['POST', `/api/mpi/links/${randomUUID()}/review`, { decision: 'approve' }],
      ['GET', '/api/mpi/matches'],
      ['GET', `/api/mpi/matches/${randomUUID()}`],
      ['POST', `/api/mpi/matches/${randomUUID()}/unlink`, { reason: 'x' }],
      ['POST', '/api/mpi/link', { patient_id: id, linked_patient_id: randomUUID() }],
    ];
    for (const [method, path, body] of calls) {
      const anonymous = await app.api.request(method, path, body);
      const doctor = await a.doctor.api.request(method, path, body);
      expect({ path, anonymous: anonymous.status, doctor: doctor.status }).toEqual({ path, anonymous: 401, doctor: 403 });
    }
  });

  it('answers FHIR R4 Patients that validate, for every kind of record', async () => {
    const full = await register(a.doctor.api, a.orgId, {
      first_name: 'Mary Jane',
      last_name: surname(),
      date_of_birth: '1950-12-01',
      gender: 'female',
      phone: '+256712345678',
      email: 'mj@example.test',
      national_id: 'CF12345678ABCD',
      national_id_country: 'UG',
    });
    const bare = (await a.doctor.api.post('/api/patients', { first_name: 'Solo', last_name: surname(), date_of_birth: '2001-01-01' })).body
      .data.id;
    const erased = await register(a.doctor.api, a.orgId, {
      first_name: 'Gone',
      last_name: surname(),
      date_of_birth: '1999-09-09',
      phone: '+254712300009',
    });
    const orgAdmin = await signUp(app.api);
    await addMember(app, a.orgId, orgAdmin.user.id, 'ORG:ADMIN');
    expect((await orgAdmin.api.post(`/api/patients/${erased}/erasure-request`, { reason: 'Asked', confirm: true })).status).toBe(201);

    const fullRes = (await admin.get(`/api/mpi/patients/${full}/fhir`)).body.data;
    expect(fullRes).toMatchObject({
      resourceType: 'Patient',
      id: full,
      active: true,
      gender: 'female',
      birthDate: '1950-12-01',
      name: [{ family: expect.any(String), given: ['Mary', 'Jane'] }],
      telecom: [
        { system: 'phone', value: '+256712345678', use: 'mobile' },
        { system: 'email', value: 'mj@example.test' },
      ],
    });
    expect(fullRes.identifier.map((i: { type: { coding: { code: string }[] } }) => i.type.coding[0].code)).toEqual(['MR', 'NI']);
    expect(fullRes.identifier[1]).toMatchObject({ value: 'CF12345678ABCD', system: expect.stringMatching(/\/national-id\/UG$/) });
    const bareRes = (await admin.get(`/api/mpi/patients/${bare}/fhir`)).body.data;
    expect(bareRes.identifier).toBeUndefined();
    const erasedRes = (await admin.get(`/api/mpi/patients/${erased}/fhir`)).body.data;
    expect(erasedRes).toMatchObject({ active: false, birthDate: '1999-01-01' });
    expect(erasedRes.name).toBeUndefined();
    expect(erasedRes.telecom).toBeUndefined();
    for (const resource of [fullRes, bareRes, erasedRes])
      expect({ id: resource.id, issues: fhirIssues(resource) }).toEqual({ id: resource.id, issues: [] });
    // The validator does catch a broken resource.
    expect(fhirIssues({ ...bareRes, birthDate: '2001-13-45' }).length).toBeGreaterThan(0);
  });

  it('indexes patients the worker never saw (the sweep), so matching finds them', async () => {
    const family = surname();
    const em = app.em('clinical');
    const legacy = em.create(Patient, {
      firstName: 'Halima',
      lastName: family,
      dateOfBirth: '1966-04-04',
      createdBy: a.doctor.user.id,
      organizationId: a.orgId,
      mrn: `OLD-${family}`,
    });
    await em.flush();
    expect(await app.em('clinical').count(MpiRecord, { id: legacy.id })).toBe(0);
    // Later than any rest the app's own scheduled runs may have taken.
    await mpiIndexSweep.run({ em: app.em('clinical'), now: new Date(Date.now() + 3_600_000) });
    expect(await app.em('clinical').count(MpiRecord, { id: legacy.id })).toBe(1);
    const found = await appAdmin.post('/api/mpi/match', { first_name: 'Halima', last_name: family, date_of_birth: '1966-04-04' });
    expect(found.body.data.candidates.map((c: { patient_id: string }) => c.patient_id)).toContain(legacy.id);
  });

  it('answers the same through GraphQL, camelCase', async () => {
    const res = await appAdmin.graphql(
      `query($input: MatchPatientsInput!) { matchPatients(input: $input) { autoLinkThreshold reviewThreshold compared candidates { patientId score contributions { field contribution } } } }`,
      { input: { firstName: 'Amina', lastName: 'Odhiambo', dateOfBirth: '1988-06-15' } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.matchPatients).toMatchObject({ autoLinkThreshold: expect.any(Number), reviewThreshold: expect.any(Number) });
    const denied = await a.doctor.api.graphql('{ patientLinkCandidates { total } }');
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
