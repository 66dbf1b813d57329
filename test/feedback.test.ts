import { Feedback } from '../subgraphs/org/feedback/feedback.entity';
import { signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { outsider } from './support/clinic';
import { addMember } from './support/org';
import { EVERY_DAY, at, dayAhead, schedulingClinic, type SchedulingClinic } from './support/scheduling';

let app: TestApp;
let c: SchedulingClinic;
let orgAdmin: SignedUp;
let admin: Api;
let stranger: Awaited<ReturnType<typeof outsider>>;
let address = 0;

beforeAll(async () => {
  app = await startApp();
  c = await schedulingClinic(app);
  orgAdmin = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, orgAdmin.user.id, 'ORG:ADMIN');
  stranger = await outsider(app);
  admin = await signInAdmin(app.api);
});
afterAll(() => app.close());

const good = (fields: Record<string, unknown> = {}) => ({ category: 'service', rating: 4, message: 'Short wait, kind nurse.', ...fields });

/** A client address of its own (the platform trusts X-Forwarded-For from loopback), so rate limits do not mix. */
const from = (ip = `198.51.100.${++address}`) => ({ headers: { 'x-forwarded-for': ip } });

const anonymous = (body: Record<string, unknown>, ip?: string) => app.api.post('/api/feedback/anonymous', body, from(ip));

async function patientWithAppointment(): Promise<{ patient: SignedUp; appointmentId: string }> {
  const patient = await signUp(app.api, { registration_role: 'PATIENT' });
  const resource = await c.receptionist.api.post('/api/resources', {
    organization_id: c.orgId,
    type: 'doctor',
    name: `Dr. Feedback ${address}`,
    doctor_id: c.doctorProfileId,
  });
  await c.receptionist.api.post('/api/schedules', {
    resource_id: resource.body.data.id,
    days_of_week: EVERY_DAY,
    start_time: '08:00',
    end_time: '17:00',
  });
  const date = dayAhead(3);
  const booked = await patient.api.post('/api/appointments', {
    resource_id: resource.body.data.id,
    patient_name: 'Ama Mensah',
    patient_email: patient.user.email,
    patient_phone: '+233201234567',
    start_time: at(date, '10:00'),
    end_time: at(date, '10:30'),
    reason: 'Check-up',
  });
  expect(booked.status).toBe(201);
  return { patient, appointmentId: booked.body.data.id };
}

describe('feedback', () => {
  it('takes signed-in feedback about an organization, or about an appointment of mine', async () => {
    const { patient, appointmentId } = await patientWithAppointment();
    const res = await patient.api.post('/api/feedback', good({ organization_id: c.orgId }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...good(),
      organization_id: c.orgId,
      appointment_id: null,
      anonymous: false,
      submitted_by: patient.user.id,
      status: 'new',
    });
    const about = await patient.api.post('/api/feedback', good({ category: 'appointment', rating: 2, appointment_id: appointmentId }));
    expect(about.status).toBe(201);
    expect(about.body.data).toMatchObject({ appointment_id: appointmentId, organization_id: c.orgId });
    const graph = await patient.api.graphql('query($id: ID!) { feedback(id: $id) { organization { id } appointment { id } } }', {
      id: about.body.data.id,
    });
    expect(graph.body.data.feedback).toEqual({ organization: { id: c.orgId }, appointment: { id: appointmentId } });
    // Someone else's appointment, or one of another organization than the one named.
    const other = await signUp(app.api, { registration_role: 'PATIENT' });
    expect((await other.api.post('/api/feedback', good({ appointment_id: appointmentId }))).status).toBe(404);
    expect(
      (await patient.api.post('/api/feedback', good({ appointment_id: appointmentId, organization_id: stranger.orgId }))).body.error
        .details[0].field,
    ).toBe('organization_id');
    expect((await app.api.post('/api/feedback', good())).status).toBe(401);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const writer = await signUp(app.api, { registration_role: 'PATIENT' });
    const field = async (body: Record<string, unknown>) => {
      const res = await writer.api.post('/api/feedback', body);
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field(good({ rating: 0 }))).toBe('rating');
    expect(await field(good({ rating: 6 }))).toBe('rating');
    expect(await field(good({ rating: 4.5 }))).toBe('rating');
    expect(await field(good({ message: '   ' }))).toBe('message');
    expect(await field(good({ message: 'x'.repeat(2001) }))).toBe('message');
    expect(await field(good({ category: 'praise' }))).toBe('category');
    expect(await field(good({ organization_id: 'x' }))).toBe('organization_id');
    expect(await field(good({ appointment_id: 'x' }))).toBe('appointment_id');
    expect(await field({ rating: 3, message: 'Hi' })).toBe('category');
    expect(await field(good({ organization_id: '00000000-0000-4000-8000-000000000000' }))).toBe('organization_id');
    expect(
      (
        await writer.api.post('/api/feedback', good(), {
          raw: 'x'.repeat(2 * 1024 * 1024),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(413);
  });

  it('takes anonymous feedback from anyone, keeping nothing about the sender', async () => {
    const res = await anonymous(good({ organization_id: c.orgId, message: 'Cleaner toilets please' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ anonymous: true, organization_id: c.orgId, message: 'Cleaner toilets please', status: 'new' });
    expect(res.body.data).not.toHaveProperty('submitted_by');
    const stored = await app.em('org').findOneOrFail(Feedback, { id: res.body.data.id });
    expect(stored).toMatchObject({ anonymous: true, submittedBy: null, appointmentId: null });
    // Signed in or not, the anonymous route keeps no account.
    const someone = await signUp(app.api, { registration_role: 'PATIENT' });
    const signed = await someone.api.post('/api/feedback/anonymous', good(), from());
    expect((await app.em('org').findOneOrFail(Feedback, { id: signed.body.data.id })).submittedBy).toBeNull();
    expect((await anonymous(good({ rating: 9 }))).body.error.details[0].field).toBe('rating');
    expect((await anonymous(good({ organization_id: '00000000-0000-4000-8000-000000000000' }))).body.error.details[0].field).toBe(
      'organization_id',
    );
    const gql = await app.api.graphql(
      'mutation { submitAnonymousFeedback(input: { category: platform, rating: 5, message: "Great app" }) { anonymous } }',
      undefined,
      from(),
    );
    expect(gql.body.data.submitAnonymousFeedback).toEqual({ anonymous: true });
  });

  it('answers spam with 429: per address when anonymous, per person when signed in', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 5; i++) expect((await anonymous(good({ message: `Spam ${i}` }), ip)).status).toBe(201);
    const limited = await anonymous(good({ message: 'Spam 5' }), ip);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await anonymous(good(), '203.0.113.78')).status).toBe(201);
    const chatty = await signUp(app.api, { registration_role: 'PATIENT' });
    for (let i = 0; i < 5; i++) expect((await chatty.api.post('/api/feedback', good(), from())).status).toBe(201);
    expect((await chatty.api.post('/api/feedback', good(), from())).status).toBe(429);
  });

  it("lists all feedback for administrators, an organization's for its administrators, and one's own", async () => {
    const sender = await signUp(app.api, { registration_role: 'PATIENT' });
    const mine = (await sender.api.post('/api/feedback', good({ organization_id: c.orgId }))).body.data.id;
    const elsewhere = (await sender.api.post('/api/feedback', good({ organization_id: stranger.orgId }))).body.data.id;
    const platform = (await anonymous(good({ category: 'platform' }))).body.data.id;
    const anon = (await anonymous(good({ organization_id: c.orgId }))).body.data.id;
    const ids = async (api: Api, query = '') => {
      const res = await api.get(`/api/feedback?limit=100${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((f: { id: string }) => f.id);
    };
    expect(await ids(admin)).toEqual(expect.arrayContaining([mine, elsewhere, platform, anon]));
    const handled = await ids(orgAdmin.api);
    expect(handled).toEqual(expect.arrayContaining([mine, anon]));
    expect(handled).not.toContain(elsewhere);
    expect(handled).not.toContain(platform);
    expect(await ids(sender.api)).toEqual([elsewhere, mine]);
    expect(await ids(orgAdmin.api, `&organization_id=${c.orgId}&category=service`)).toEqual(expect.arrayContaining([mine, anon]));
    expect(await ids(c.doctor.api)).toEqual([]);
    expect((await c.doctor.api.get(`/api/feedback?organization_id=${c.orgId}`)).status).toBe(403);
    expect((await orgAdmin.api.get(`/api/feedback?organization_id=${stranger.orgId}`)).status).toBe(404);
    expect((await orgAdmin.api.get('/api/feedback?status=open')).status).toBe(400);
    expect((await app.api.get('/api/feedback')).status).toBe(401);
    // Reading one: its handlers and its sender; a member who does not handle feedback is told why not.
    expect((await sender.api.get(`/api/feedback/${mine}`)).status).toBe(200);
    expect((await orgAdmin.api.get(`/api/feedback/${mine}`)).status).toBe(200);
    expect((await orgAdmin.api.get(`/api/feedback/${elsewhere}`)).status).toBe(404);
    expect((await c.doctor.api.get(`/api/feedback/${mine}`)).status).toBe(403);
    expect((await stranger.api.get(`/api/feedback/${mine}`)).status).toBe(404);
    expect((await orgAdmin.api.get('/api/feedback/nope')).status).toBe(404);
  });

  it('moves feedback from new to triaged to resolved, once each, by its handlers', async () => {
    const sender = await signUp(app.api, { registration_role: 'PATIENT' });
    const id = (await sender.api.post('/api/feedback', good({ organization_id: c.orgId, rating: 1, category: 'staff' }))).body.data.id;
    expect((await sender.api.patch(`/api/feedback/${id}`, { status: 'triaged' })).status).toBe(403);
    expect((await c.doctor.api.patch(`/api/feedback/${id}`, { status: 'triaged' })).status).toBe(403);
    expect((await stranger.api.patch(`/api/feedback/${id}`, { status: 'triaged' })).status).toBe(404);
    expect((await orgAdmin.api.patch(`/api/feedback/${id}`, { status: 'closed' })).body.error.details[0].field).toBe('status');
    expect((await orgAdmin.api.patch(`/api/feedback/${id}`, { status: 'new' })).body.error.details[0].field).toBe('status');
    const triaged = await orgAdmin.api.patch(`/api/feedback/${id}`, { status: 'triaged' });
    expect(triaged.status).toBe(200);
    expect(triaged.body.data).toMatchObject({ status: 'triaged', triaged_by: orgAdmin.user.id, triaged_at: expect.any(String) });
    expect((await orgAdmin.api.patch(`/api/feedback/${id}`, { status: 'triaged' })).status).toBe(409);
    const resolved = await orgAdmin.api.patch(`/api/feedback/${id}`, {
      status: 'resolved',
      resolution_note: 'Spoke with the team; apology sent',
    });
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolved_by: orgAdmin.user.id,
      resolution_note: 'Spoke with the team; apology sent',
    });
    const again = await orgAdmin.api.patch(`/api/feedback/${id}`, { status: 'resolved' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot resolve a feedback that is resolved');
    expect((await sender.api.get(`/api/feedback/${id}`)).body.data.status).toBe('resolved');
    // Platform administrators, through the named mutations.
    const other = (await anonymous(good({ category: 'platform' }))).body.data.id;
    expect(
      (
        await admin.graphql('mutation($id: ID!) { resolveFeedback(id: $id, resolutionNote: "Fixed in 2.1") { status resolutionNote } }', {
          id: other,
        })
      ).body.data.resolveFeedback,
    ).toEqual({ status: 'resolved', resolutionNote: 'Fixed in 2.1' });
    expect(
      (await admin.graphql('mutation($id: ID!) { triageFeedback(id: $id) { status } }', { id: other })).body.errors[0].extensions.code,
    ).toBe('CONFLICT');
  });
});
