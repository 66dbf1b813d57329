import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { createOrganization } from './support/org';

/**
 * The clinic founder: a doctor who registers as DOCTOR and creates their clinic administers it and is its doctor,
 * holding both roles in one membership, so they chart from the first day, through REST and GraphQL.
 */
let app: TestApp;
let founder: SignedUp;
let orgId: string;
let patientId: string;

beforeAll(async () => {
  app = await startApp();
  founder = await signUp(app.api, { registration_role: 'DOCTOR' });
  orgId = (await createOrganization(founder.api)).id;
  const patient = await founder.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT);
  if (patient.status !== 201) throw new Error(`patient: ${patient.status} ${patient.text}`);
  patientId = patient.body.data.id;
});
afterAll(() => app.close());

describe('a founding doctor', () => {
  it('holds ORG:ADMIN and ORG:DOCTOR in their clinic, role still on the wire', async () => {
    const mine = await founder.api.get('/api/organizations/me');
    expect(mine.body.data[0]).toMatchObject({ id: orgId, viewer_role: 'ORG:ADMIN', viewer_roles: ['ORG:ADMIN', 'ORG:DOCTOR'] });
    const members = await founder.api.get(`/api/organizations/${orgId}/members`);
    expect(members.body.data).toEqual([
      expect.objectContaining({ user_id: founder.user.id, role: 'ORG:ADMIN', roles: ['ORG:ADMIN', 'ORG:DOCTOR'] }),
    ]);
  });

  it('writes a clinical record, vitals and a lab order through REST', async () => {
    const record = await founder.api.post('/api/clinical-records', {
      patient_id: patientId,
      encounter_type: 'consultation',
      chief_complaint: 'Fever',
      notes: 'Malaria RDT positive',
    });
    expect(record.status).toBe(201);
    const vitals = await founder.api.post('/api/vitals', { patient_id: patientId, heart_rate: 88, temperature: 38.4 });
    expect(vitals.status).toBe(201);
    const lab = await founder.api.post('/api/labs', { patient_id: patientId, test_type: 'cbc', priority: 'routine' });
    expect(lab.status).toBe(201);
  });

  it('charts through GraphQL too, and reads it back', async () => {
    const res = await founder.api.graphql(
      `mutation($p: ID!) { createClinicalRecord(input: { patientId: $p, encounterType: consultation, chiefComplaint: "Cough" }) { id } }`,
      { p: patientId },
    );
    expect(res.body.errors).toBeUndefined();
    const chart = await founder.api.graphql(
      `query($p: ID!) { patient(id: $p) { clinicalRecords { nodes { chiefComplaint } } vitals { nodes { heartRate } } } }`,
      { p: patientId },
    );
    expect(chart.body.errors).toBeUndefined();
    expect(chart.body.data.patient.clinicalRecords.nodes.map((r: { chiefComplaint: string }) => r.chiefComplaint)).toEqual(
      expect.arrayContaining(['Fever', 'Cough']),
    );
  });

  it('is given several roles or one by an administrator; the last ORG:ADMIN is kept', async () => {
    const other = await signUp(app.api);
    const otherOrg = (await createOrganization(other.api)).id;
    // A user who did not register as a doctor founds with ORG:ADMIN only.
    expect((await other.api.get('/api/organizations/me')).body.data[0].viewer_roles).toEqual(['ORG:ADMIN']);
    const demote = await founder.api.patch(`/api/organizations/${orgId}/members/${founder.user.id}/role`, { roles: ['ORG:DOCTOR'] });
    expect(demote.status).toBe(409);
    const both = await other.api.patch(`/api/organizations/${otherOrg}/members/${other.user.id}/role`, {
      roles: ['ORG:ADMIN', 'ORG:NURSE'],
    });
    expect(both.status).toBe(200);
    expect(both.body.data).toMatchObject({ role: 'ORG:ADMIN', roles: ['ORG:ADMIN', 'ORG:NURSE'] });
    const vitals = await other.api.post(`/api/organizations/${otherOrg}/patients`, SAMPLE_PATIENT);
    expect((await other.api.post('/api/vitals', { patient_id: vitals.body.data.id, heart_rate: 70 })).status).toBe(201);
    const bad = await other.api.patch(`/api/organizations/${otherOrg}/members/${other.user.id}/role`, { roles: ['ORG:WIZARD'] });
    expect(bad.status).toBe(400);
    expect((await other.api.patch(`/api/organizations/${otherOrg}/members/${other.user.id}/role`, {})).status).toBe(400);
  });
});
