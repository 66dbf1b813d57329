import { sandboxRemovals, sandboxVideo, videoProvider } from '../shared/adapters/video';
import { VideoParticipant, VideoSession } from '../subgraphs/org/telemedicine/telemedicine.entity';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { outsider } from './support/clinic';
import { EVERY_DAY, at, dayAhead, schedulingClinic, type SchedulingClinic } from './support/scheduling';
import { eventually } from './support/wait';
import { deliver, sign } from './support/webhooks';

let app: TestApp;
let c: SchedulingClinic;
let patient: SignedUp;
let stranger: SignedUp & { orgId: string };
let resourceId: string;
let nextDay = 2;

beforeAll(async () => {
  app = await startApp();
  c = await schedulingClinic(app);
  stranger = await outsider(app);
  patient = await signUp(app.api, { registration_role: 'PATIENT' });
  const resource = await c.receptionist.api.post('/api/resources', {
    organization_id: c.orgId,
    type: 'doctor',
    name: 'Dr. Video',
    doctor_id: c.doctorProfileId,
  });
  resourceId = resource.body.data.id;
  const schedule = await c.receptionist.api.post('/api/schedules', {
    resource_id: resourceId,
    days_of_week: EVERY_DAY,
    start_time: '08:00',
    end_time: '17:00',
  });
  expect(schedule.status).toBe(201);
});
afterAll(async () => {
  await sandboxVideo().settled();
  await app.close();
});

/** An appointment the patient booked for themselves with the clinic's doctor, on a day of its own. */
async function appointment(): Promise<string> {
  const date = dayAhead(nextDay++);
  const res = await patient.api.post('/api/appointments', {
    resource_id: resourceId,
    patient_name: 'Ama Mensah',
    patient_email: patient.user.email,
    patient_phone: '+233201234567',
    start_time: at(date, '10:00'),
    end_time: at(date, '10:30'),
    reason: 'Follow-up by video',
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const session = (id: string) => app.em('org').findOneOrFail(VideoSession, { id });

describe('telemedicine sessions', () => {
  it('runs a visit: initiate, both join, the provider reports it, participants, end', async () => {
    const id = await appointment();
    const started = await c.doctor.api.post(`/api/appointments/${id}/telemedicine/initiate`);
    expect(started.status).toBe(201);
    const s = started.body.data;
    expect(s).toMatchObject({
      appointment_id: id,
      organization_id: c.orgId,
      provider: 'sandbox',
      status: expect.stringMatching(/^(created|active)$/),
    });
    expect(s.join).toMatchObject({ identity: c.doctor.user.id, role: 'doctor', token: expect.stringMatching(/^ey/) });

    // A retry answers the same open session; the patient joins it with a token of their own.
    const again = await patient.api.post(`/api/appointments/${id}/telemedicine/initiate`);
    expect(again.body.data.id).toBe(s.id);
    expect(again.body.data.join).toMatchObject({ identity: patient.user.id, role: 'patient' });
    const joined = await patient.api.post(`/api/appointments/${id}/telemedicine/${s.id}/join`);
    expect(joined.status).toBe(200);

    // Both connect to the provider's room; its signed webhooks reach /api/webhooks/video and update the session.
    await sandboxVideo().join(s.join.token, { publish: 'video' });
    await sandboxVideo().join(joined.body.data.join.token, { publish: 'audio' });
    await eventually(
      async () => (await app.em('org').count(VideoParticipant, { session: s.id })) === 2 && (await session(s.id)).status === 'active',
      'participants joined',
    );
    await eventually(
      async () => (await app.em('org').find(VideoParticipant, { session: s.id })).every((p) => p.publishedTracks.length === 1),
      'tracks published',
    );

    const status = await patient.api.get(`/api/appointments/${id}/telemedicine/status/${s.id}`);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ id: s.id, status: 'active', started_at: expect.any(String), join: null });
    const participants = await c.doctor.api.get(`/api/appointments/${id}/telemedicine/${s.id}/participants`);
    expect(participants.status).toBe(200);
    expect(participants.body.meta.total).toBe(2);
    const byRole = Object.fromEntries(participants.body.data.map((p: any) => [p.role, p]));
    expect(byRole.doctor).toMatchObject({ identity: c.doctor.user.id, connected: true, published_tracks: ['video'], join_count: 1 });
    expect(byRole.patient).toMatchObject({ identity: patient.user.id, connected: true, published_tracks: ['audio'] });

    // The patient may not end it; the doctor does, and the provider's room_finished and participant_left follow.
    expect((await patient.api.post(`/api/appointments/${id}/telemedicine/end/${s.id}`)).status).toBe(403);
    const ended = await c.doctor.api.post(`/api/appointments/${id}/telemedicine/end/${s.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body.data).toMatchObject({ status: 'ended', ended_by: c.doctor.user.id, ended_at: expect.any(String) });
    await eventually(
      async () => (await app.em('org').find(VideoParticipant, { session: s.id })).every((p) => p.leftAt),
      'participants left',
    );
    const again2 = await c.doctor.api.post(`/api/appointments/${id}/telemedicine/end/${s.id}`);
    expect(again2.status).toBe(409);
    expect((await patient.api.post(`/api/appointments/${id}/telemedicine/${s.id}/join`)).status).toBe(409);

    // After the end a new session can be opened.
    const next = await c.doctor.api.post(`/api/appointments/${id}/telemedicine/initiate`);
    expect(next.status).toBe(201);
    expect(next.body.data.id).not.toBe(s.id);
  });

  it('lets only the doctor and the patient join; a stranger with a leaked token is removed from the room', async () => {
    const id = await appointment();
    const s = (await c.doctor.api.post(`/api/appointments/${id}/telemedicine/initiate`)).body.data;
    // The clinic's nurse can read the appointment but is neither its doctor nor its patient.
    expect((await c.nurse.api.post(`/api/appointments/${id}/telemedicine/${s.id}/join`)).status).toBe(403);
    // Staff may start a session, but get no token.
    const byStaff = await c.receptionist.api.post(`/api/appointments/${id}/telemedicine/initiate`);
    expect(byStaff.status).toBe(201);
    expect(byStaff.body.data.join).toBeNull();
    // Someone outside the organization cannot see the appointment at all.
    expect((await stranger.api.post(`/api/appointments/${id}/telemedicine/initiate`)).status).toBe(404);
    expect((await stranger.api.get(`/api/appointments/${id}/telemedicine/status/${s.id}`)).status).toBe(404);
    expect((await stranger.api.post(`/api/appointments/${id}/telemedicine/${s.id}/join`)).status).toBe(404);
    expect((await app.api.post(`/api/appointments/${id}/telemedicine/initiate`)).status).toBe(401);

    // A token issued for the stranger's identity (as if leaked or forged with the provider's key) gets them in;
    // the platform records them as unauthorized and has the provider remove them.
    const leaked = await videoProvider().accessToken({
      room: s.room_name,
      identity: stranger.user.id,
      name: 'intruder',
      ttlSeconds: 60,
    });
    await sandboxVideo().join(leaked.token);
    const intruder = await eventually(
      () => app.em('org').findOne(VideoParticipant, { session: s.id, identity: stranger.user.id }),
      'intruder recorded',
    );
    expect(intruder.role).toBe('unauthorized');
    // The platform asks the provider to remove them (whichever of the run's processes handled the webhook).
    await eventually(async () => (await sandboxRemovals(s.room_name)).includes(stranger.user.id), 'intruder removed');
  });

  it('refuses sessions for cancelled appointments and unknown sessions', async () => {
    const id = await appointment();
    expect((await patient.api.post(`/api/appointments/${id}/cancel`, { reason: 'Feeling better' })).status).toBe(200);
    const res = await c.doctor.api.post(`/api/appointments/${id}/telemedicine/initiate`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    const other = await appointment();
    expect((await c.doctor.api.get(`/api/appointments/${other}/telemedicine/status/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
    expect((await c.doctor.api.get(`/api/appointments/${other}/telemedicine/status/not-a-uuid`)).status).toBe(404);
  });

  it('applies provider webhooks once, ignores rooms that are not ours, and works through GraphQL', async () => {
    const id = await appointment();
    const s = (await c.doctor.api.post(`/api/appointments/${id}/telemedicine/initiate`)).body.data;
    const event = JSON.stringify({
      event: 'participant_joined',
      id: `EV_dup_${s.id}`,
      createdAt: String(Math.floor(Date.now() / 1000)),
      room: { name: s.room_name, sid: 'RM_x' },
      participant: { identity: patient.user.id, sid: 'PA_x', name: 'Ama' },
    });
    expect((await deliver(app.api, '/api/webhooks/video', event, await sign.video(event))).status).toBe(200);
    const dup = await deliver(app.api, '/api/webhooks/video', event, await sign.video(event));
    expect(dup.body.data.duplicate).toBe(true);
    const joined = await eventually(
      () => app.em('org').findOne(VideoParticipant, { session: s.id, identity: patient.user.id }),
      'patient joined',
    );
    expect(joined).toMatchObject({ role: 'patient', joinCount: 1 });

    const foreign = JSON.stringify({
      event: 'room_started',
      id: 'EV_foreign',
      createdAt: '1700000000',
      room: { name: 'not-ours', sid: 'RM_y' },
    });
    expect((await deliver(app.api, '/api/webhooks/video', foreign, await sign.video(foreign))).status).toBe(200);

    const gql = await c.doctor.api.graphql(
      'query($a: ID!, $s: ID!) { telemedicineSession(appointmentId: $a, sessionId: $s) { id status participants { identity role joinCount } } }',
      { a: id, s: s.id },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.telemedicineSession.participants).toEqual([{ identity: patient.user.id, role: 'patient', joinCount: 1 }]);
    const end = await c.doctor.api.graphql('mutation($a: ID!, $s: ID!) { endTelemedicine(appointmentId: $a, sessionId: $s) { status } }', {
      a: id,
      s: s.id,
    });
    expect(end.body.data.endTelemedicine.status).toBe('ended');
  });
});
