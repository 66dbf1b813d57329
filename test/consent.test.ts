import { randomUUID } from 'node:crypto';
import { clock } from '../shared/clock';
import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

let app: TestApp;
let c: Clinic;
let patientUser: SignedUp;
let patientId: string;
let recordId: string;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  // A patient with an account of their own, registered with the clinic: their profile is theirs.
  patientUser = await signUp(app.api, { registration_role: 'PATIENT' });
  patientId = (await patientUser.api.post('/api/patients', { ...SAMPLE_PATIENT, first_name: 'Own' })).body.data.id;
  // Unaffiliated self-made profile: share records through a clinic patient instead.
  recordId = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, encounter_type: 'consultation', notes: 'n' }))
    .body.data.id;
});
afterAll(() => app.close());

describe('consent', () => {
  it('a clinician outside the organization reads clinical data only under an approved consent, until revoked', async () => {
    const specialist = await outsider(app);
    const read = () => specialist.api.get(`/api/patients/${c.patientId}/clinical-records`);
    expect((await read()).status).toBe(404);

    const asked = await specialist.api.post('/api/consent/request', { patient_id: c.patientId, purpose: 'Second opinion' });
    expect(asked.status).toBe(201);
    expect(asked.body.data).toMatchObject({ status: 'requested', grantee_user_id: specialist.user.id, requested_by: specialist.user.id });
    expect((await read()).status).toBe(404); // a request is not a consent

    // The patient has no account: a clinician of their organization records the consent they gave in person.
    const approved = await c.doctor.api.post(`/api/consent/${asked.body.data.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe('active');
    expect((await read()).status).toBe(200);
    expect((await specialist.api.get(`/api/clinical-records/${recordId}`)).status).toBe(200);
    // Consent gives reading, not writing.
    expect((await specialist.api.post('/api/clinical-records', { patient_id: c.patientId, encounter_type: 'consultation' })).status).toBe(
      403,
    );

    const revoked = await c.doctor.api.post(`/api/consent/${asked.body.data.id}/revoke`);
    expect(revoked.body.data).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    expect((await read()).status).toBe(404);
    expect((await c.doctor.api.post(`/api/consent/${asked.body.data.id}/approve`)).status).toBe(409);
    expect((await c.doctor.api.post(`/api/consent/${asked.body.data.id}/revoke`)).status).toBe(409);
  });

  it('lets the patient grant an organization access, list and read it', async () => {
    const other = await outsider(app);
    const grant = await patientUser.api.post('/api/consent/grant', { grantee_organization_id: other.orgId, purpose: 'Referral' });
    expect(grant.status).toBe(201);
    expect(grant.body.data).toMatchObject({ patient_id: patientId, status: 'active', grantee_organization_id: other.orgId });
    expect((await other.api.get(`/api/patients/${patientId}`)).status).toBe(200);
    const mine = await patientUser.api.get('/api/consent');
    expect(mine.body.data.map((x: { id: string }) => x.id)).toContain(grant.body.data.id);
    expect((await other.api.get(`/api/consent/${grant.body.data.id}`)).status).toBe(200);
    await patientUser.api.post(`/api/consent/${grant.body.data.id}/revoke`);
    expect((await other.api.get(`/api/patients/${patientId}`)).status).toBe(404);
  });

  it('reaches the clinical roles of a granted organization, not its front desk or billing', async () => {
    const other = await outsider(app);
    const desk = await signUp(app.api);
    await addMember(app, other.orgId, desk.user.id, 'ORG:RECEPTIONIST');
    const grant = await patientUser.api.post('/api/consent/grant', { grantee_organization_id: other.orgId, purpose: 'Referral' });
    expect(grant.status).toBe(201);
    const query = 'query($id: ID!) { patient(id: $id) { id clinicalRecords { totalCount } } }';
    // The organization's doctor reads the patient's clinical data under the consent.
    const doctor = await other.api.graphql(query, { id: patientId });
    expect(doctor.body.data.patient).toEqual({ id: patientId, clinicalRecords: { totalCount: expect.any(Number) } });
    // Its receptionist sees who the patient is, but no clinical data.
    const front = await desk.api.graphql(query, { id: patientId });
    expect(front.body.data.patient).toEqual({ id: patientId, clinicalRecords: null });
    expect(front.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
    // The patient belongs to no organization of theirs: REST answers as for any clinical data they may not read.
    expect((await desk.api.get(`/api/patients/${patientId}/clinical-records`)).status).toBe(404);
    await patientUser.api.post(`/api/consent/${grant.body.data.id}/revoke`);
  });

  it('stops at its expiry', async () => {
    const other = await outsider(app);
    const soon = new Date(Date.now() + 60_000).toISOString();
    await patientUser.api.post('/api/consent/grant', { grantee_user_id: other.user.id, expires_at: soon });
    expect((await other.api.get(`/api/patients/${patientId}`)).status).toBe(200);
    clock.advance(120_000);
    try {
      expect((await app.api.as(other.token).get(`/api/patients/${patientId}`)).status).toBe(404);
    } finally {
      clock.reset();
    }
  });

  it('validates and hides consents from strangers', async () => {
    const bad = await patientUser.api.post('/api/consent/grant', {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('grantee_user_id');
    const past = await patientUser.api.post('/api/consent/grant', {
      grantee_user_id: c.doctor.user.id,
      expires_at: '2001-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    const nowhere = await patientUser.api.post('/api/consent/grant', { grantee_organization_id: randomUUID() });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error.details).toEqual([{ field: 'grantee_organization_id', message: 'must be an existing organization' }]);
    const grant = await patientUser.api.post('/api/consent/grant', { grantee_user_id: c.doctor.user.id });
    const stranger = await signUp(app.api);
    expect((await stranger.api.get(`/api/consent/${grant.body.data.id}`)).status).toBe(404);
    expect((await stranger.api.post(`/api/consent/${grant.body.data.id}/revoke`)).status).toBe(404);
    // The grantee may not approve on the patient's behalf.
    const asked = await stranger.api.post('/api/consent/request', { patient_id: patientId });
    expect((await stranger.api.post(`/api/consent/${asked.body.data.id}/approve`)).status).toBe(403);
    expect((await patientUser.api.post(`/api/consent/${asked.body.data.id}/approve`)).status).toBe(200);
  });

  it('answers a request for a patient of another organization and for no patient at all the same way', async () => {
    const asker = await signUp(app.api);
    const real = await asker.api.post('/api/consent/request', { patient_id: c.patientId, purpose: 'Referral' });
    const nobody = await asker.api.post('/api/consent/request', { patient_id: randomUUID(), purpose: 'Referral' });
    expect([real.status, nobody.status]).toEqual([201, 201]);
    const shape = (body: Record<string, unknown>) => Object.keys(body).sort();
    expect(shape(nobody.body.data)).toEqual(shape(real.body.data));
    expect(nobody.body.data).toMatchObject({ status: 'requested', grantee_user_id: asker.user.id });
  });
});
