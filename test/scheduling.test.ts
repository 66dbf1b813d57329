import { DoctorProfile, DoctorVerification } from '../subgraphs/org/doctors/doctor.entity';
import { Organization, OrganizationStatus } from '../subgraphs/org/organizations/organization.entity';
import { SchedulableResource } from '../subgraphs/org/scheduling/resource.entity';
import { signInAdmin, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { outsider } from './support/clinic';
import { EVERY_DAY, at, dayAhead, schedulingClinic, weekday, type SchedulingClinic } from './support/scheduling';
import { eventually } from './support/wait';

let app: TestApp;
let c: SchedulingClinic;
let stranger: SignedUp & { orgId: string };

beforeAll(async () => {
  app = await startApp();
  c = await schedulingClinic(app);
  stranger = await outsider(app);
});
afterAll(() => app.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
const fieldsOf = (res: { body: { error: { details: { field: string }[] } } }) => res.body.error.details.map((d) => d.field);

async function createResource(body: Record<string, unknown> = {}) {
  const res = await c.receptionist.api.post('/api/resources', { organization_id: c.orgId, type: 'room', name: 'Room 1', ...body });
  if (res.status !== 201) throw new Error(`resource: ${res.status} ${res.text}`);
  return res.body.data as { id: string; time_zone: string };
}

async function createSchedule(resourceId: string, body: Record<string, unknown> = {}) {
  const res = await c.receptionist.api.post('/api/schedules', {
    resource_id: resourceId,
    days_of_week: EVERY_DAY,
    start_time: '08:00',
    end_time: '17:00',
    ...body,
  });
  if (res.status !== 201) throw new Error(`schedule: ${res.status} ${res.text}`);
  return res.body.data as { id: string };
}

describe('schedulable resources', () => {
  it('creates a doctor resource for a doctor of the organization, with defaults', async () => {
    const res = await c.receptionist.api.post('/api/resources', {
      organization_id: c.orgId,
      type: 'doctor',
      name: 'Dr. Test, general practice',
      doctor_id: c.doctorProfileId,
      description: 'Mornings',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      organization_id: c.orgId,
      type: 'doctor',
      name: 'Dr. Test, general practice',
      doctor_id: c.doctorProfileId,
      room_id: null,
      description: 'Mornings',
      time_zone: 'UTC',
      active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // A room resource may stand for one of the organization's rooms (facilities).
    const root = await signInAdmin(app.api);
    const theatre = await root.post(`/api/organizations/${c.orgId}/rooms`, { name: 'Theatre', type: 'operating_theatre' });
    const room = await createResource({ type: 'room', name: 'Theatre', room_id: theatre.body.data.id, time_zone: 'Africa/Nairobi' });
    expect(room).toMatchObject({ room_id: theatre.body.data.id, time_zone: 'Africa/Nairobi' });
    const theirs = await root.post(`/api/organizations/${stranger.orgId}/rooms`, { name: 'Elsewhere', type: 'ward' });
    const refused = await c.receptionist.api.post('/api/resources', {
      organization_id: c.orgId,
      type: 'room',
      name: 'R',
      room_id: theirs.body.data.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ field: 'room_id', message: 'must be a room of the organization' }]);
    expect((await app.api.get(`/api/resources/${res.body.data.id}`)).body.data.name).toBe('Dr. Test, general practice');
  });

  it('validates the fields, naming each bad one', async () => {
    const post = (body: Record<string, unknown>) =>
      c.receptionist.api.post('/api/resources', { organization_id: c.orgId, name: 'X', ...body });
    // A doctor resource may stand for a doctor without a profile here (the receptionist has none of their own).
    const noDoctor = await post({ type: 'doctor' });
    expect(noDoctor.status).toBe(201);
    expect(noDoctor.body.data.doctor_id).toBeNull();
    // A doctor who does not work in the organization.
    const other = await signUp(app.api, { registration_role: 'DOCTOR' });
    const otherProfile = await eventuallyProfile(other.user.id);
    expect(fieldsOf(await post({ type: 'doctor', doctor_id: otherProfile }))).toEqual(['doctor_id']);
    expect(fieldsOf(await post({ type: 'room', doctor_id: c.doctorProfileId }))).toEqual(['doctor_id']);
    expect(fieldsOf(await post({ type: 'equipment', room_id: '7d6f2c1e-0000-4000-8000-000000000001' }))).toEqual(['room_id']);
    expect(fieldsOf(await post({ type: 'room', time_zone: 'Mars/Olympus' }))).toEqual(['time_zone']);
    expect(fieldsOf(await post({ type: 'castle' }))).toEqual(['type']);
    expect(fieldsOf(await post({ type: 'room', name: ' ' }))).toEqual(['name']);
    expect(fieldsOf(await c.receptionist.api.post('/api/resources', { organization_id: 'nope', type: 'room', name: 'X' }))).toEqual([
      'organization_id',
    ]);
  });

  it('lets only scheduling staff change resources: 401 anonymous, 403 other members, 404 outsiders', async () => {
    const body = { organization_id: c.orgId, type: 'room', name: 'Room 2' };
    expect((await app.api.post('/api/resources', body)).status).toBe(401);
    expect((await c.nurse.api.post('/api/resources', body)).status).toBe(403);
    expect((await c.doctor.api.post('/api/resources', body)).status).toBe(403);
    expect((await stranger.api.post('/api/resources', body)).status).toBe(404);
    const room = await createResource({ name: 'Room 2' });
    expect((await app.api.patch(`/api/resources/${room.id}`, { name: 'R' })).status).toBe(401);
    expect((await c.billing.api.patch(`/api/resources/${room.id}`, { name: 'R' })).status).toBe(403);
    expect((await stranger.api.patch(`/api/resources/${room.id}`, { name: 'R' })).status).toBe(404);
    expect((await stranger.api.delete(`/api/resources/${room.id}`)).status).toBe(404);
    expect((await c.nurse.api.delete(`/api/resources/${room.id}`)).status).toBe(403);
    expect((await c.receptionist.api.get('/api/resources/3f1d8c9a-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await c.receptionist.api.patch('/api/resources/3f1d8c9a-0000-4000-8000-000000000000', { name: 'R' })).status).toBe(404);
  });

  it('updates a resource; inactive ones are visible to members only', async () => {
    const room = await createResource({ name: 'Room 3' });
    const res = await c.receptionist.api.patch(`/api/resources/${room.id}`, {
      name: 'Room 3b',
      active: false,
      description: 'Closed for repairs',
      time_zone: 'Africa/Lagos',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Room 3b', active: false, description: 'Closed for repairs', time_zone: 'Africa/Lagos' });
    expect(fieldsOf(await c.receptionist.api.patch(`/api/resources/${room.id}`, { time_zone: 'Nowhere' }))).toEqual(['time_zone']);
    expect(fieldsOf(await c.receptionist.api.patch(`/api/resources/${room.id}`, { name: null }))).toEqual(['name']);
    expect((await app.api.get(`/api/resources/${room.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/resources/${room.id}`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/resources/${room.id}`)).status).toBe(200);
    expect(ids(await app.api.get(`/api/resources?organization_id=${c.orgId}&limit=100`))).not.toContain(room.id);
    expect(ids(await c.billing.api.get(`/api/resources?organization_id=${c.orgId}&limit=100`))).toContain(room.id);
  });

  it('lists active resources publicly, with filters, and hides those of organizations that are not active', async () => {
    const doctor = await createResource({ type: 'doctor', name: 'Dr. Listed', doctor_id: c.doctorProfileId });
    const kit = await createResource({ type: 'equipment', name: 'Ultrasound' });
    const all = await app.api.get(`/api/resources?organization_id=${c.orgId}&limit=100`);
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual(expect.arrayContaining([doctor.id, kit.id]));
    expect(all.body.meta).toMatchObject({ page: 1, limit: 100, total: all.body.data.length });
    const doctors = await app.api.get(`/api/resources?organization_id=${c.orgId}&type=doctor&limit=100`);
    expect(ids(doctors)).toContain(doctor.id);
    expect(doctors.body.data.every((r: { type: string }) => r.type === 'doctor')).toBe(true);
    expect(ids(await app.api.get(`/api/resources?doctor_id=${c.doctorProfileId}&limit=100`))).not.toContain(kit.id);
    expect((await app.api.get('/api/resources?type=castle')).status).toBe(400);
    expect((await app.api.get('/api/resources?limit=500')).status).toBe(400);

    // A suspended organization leaves the public directory; its members still see their resources.
    const other = await schedulingClinic(app);
    const hidden = (await other.receptionist.api.post('/api/resources', { organization_id: other.orgId, type: 'room', name: 'Hidden' }))
      .body.data;
    expect(ids(await app.api.get(`/api/resources?organization_id=${other.orgId}`))).toEqual([hidden.id]);
    await app.em('org').nativeUpdate(Organization, { id: other.orgId }, { status: OrganizationStatus.suspended });
    expect(ids(await app.api.get(`/api/resources?organization_id=${other.orgId}`))).toEqual([]);
    expect((await app.api.get(`/api/resources/${hidden.id}`)).status).toBe(404);
    expect(ids(await other.receptionist.api.get(`/api/resources?organization_id=${other.orgId}`))).toEqual([hidden.id]);
  });

  it('deletes a resource with its schedules', async () => {
    const room = await createResource({ name: 'Room 4' });
    const schedule = await createSchedule(room.id);
    const res = await c.receptionist.api.delete(`/api/resources/${room.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(room.id);
    expect((await c.receptionist.api.get(`/api/resources/${room.id}`)).status).toBe(404);
    expect((await c.receptionist.api.get(`/api/schedules/${schedule.id}`)).status).toBe(404);
    expect((await c.receptionist.api.delete(`/api/resources/${room.id}`)).status).toBe(404);
  });

  it('refuses to delete a resource with appointments to come (409), and keeps the history of a used one', async () => {
    const room = await createResource({ name: 'Room 5' });
    await createSchedule(room.id);
    const date = dayAhead(3);
    const booked = await app.api.post('/api/appointments', {
      resource_id: room.id,
      patient_name: 'Ama Mensah',
      patient_email: 'ama.mensah@example.test',
      start_time: at(date, '09:00'),
      end_time: at(date, '09:30'),
    });
    expect(booked.status).toBe(201);
    const refused = await c.receptionist.api.delete(`/api/resources/${room.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await c.receptionist.api.post(`/api/appointments/${booked.body.data.id}/cancel`, { reason: 'Room closing' })).status).toBe(200);
    expect((await c.receptionist.api.delete(`/api/resources/${room.id}`)).status).toBe(200);
    expect((await c.receptionist.api.get(`/api/resources/${room.id}`)).status).toBe(404);
    expect(ids(await c.receptionist.api.get(`/api/resources?organization_id=${c.orgId}&limit=100`))).not.toContain(room.id);
    // The appointment keeps its history.
    expect((await c.receptionist.api.get(`/api/appointments/${booked.body.data.id}`)).body.data).toMatchObject({
      status: 'cancelled',
      resource_id: room.id,
    });
  });
});

async function eventuallyProfile(userId: string): Promise<string> {
  return (await eventually(() => app.em('org').findOne(DoctorProfile, { userId }), 'doctor profile')).id;
}

describe('schedules', () => {
  it('creates, lists, reads, updates and deletes schedules of a resource', async () => {
    const room = await createResource({ name: 'Clinic room A' });
    const res = await c.receptionist.api.post('/api/schedules', {
      resource_id: room.id,
      days_of_week: [5, 1, 3],
      start_time: '08:00',
      end_time: '12:00',
      breaks: [{ start_time: '10:00', end_time: '10:15' }],
      slot_minutes: 20,
      valid_from: dayAhead(1),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      resource_id: room.id,
      organization_id: c.orgId,
      days_of_week: [1, 3, 5],
      start_time: '08:00',
      end_time: '12:00',
      time_zone: null,
      breaks: [{ start_time: '10:00', end_time: '10:15' }],
      slot_minutes: 20,
      valid_from: dayAhead(1),
      valid_until: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = res.body.data.id;
    const afternoon = await createSchedule(room.id, { days_of_week: [1, 3, 5], start_time: '13:00', end_time: '17:00' });
    const list = await app.api.get(`/api/resources/${room.id}/schedules`);
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([id, afternoon.id]);
    expect(list.body.meta.total).toBe(2);
    expect((await app.api.get(`/api/schedules/${id}`)).body.data.id).toBe(id);
    const patched = await c.receptionist.api.patch(`/api/schedules/${id}`, {
      end_time: '12:30',
      slot_minutes: 30,
      valid_from: null,
      breaks: [],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ end_time: '12:30', slot_minutes: 30, valid_from: null, breaks: [] });
    expect((await c.receptionist.api.delete(`/api/schedules/${afternoon.id}`)).status).toBe(200);
    expect(ids(await app.api.get(`/api/resources/${room.id}/schedules`))).toEqual([id]);
    expect((await c.receptionist.api.get(`/api/schedules/${afternoon.id}`)).status).toBe(404);
  });

  it('validates the working window, the breaks and the dates', async () => {
    const room = await createResource({ name: 'Clinic room B' });
    const post = (body: Record<string, unknown>) =>
      c.receptionist.api.post('/api/schedules', {
        resource_id: room.id,
        days_of_week: [1],
        start_time: '08:00',
        end_time: '12:00',
        ...body,
      });
    const bad = async (body: Record<string, unknown>) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      return fieldsOf(res);
    };
    expect(await bad({ end_time: '08:00' })).toEqual(['end_time']);
    expect(await bad({ start_time: '8am' })).toEqual(['start_time']);
    expect(await bad({ end_time: '24:00' })).toEqual(['end_time']);
    expect(await bad({ days_of_week: [0, 8] })).toEqual(['days_of_week']);
    expect(await bad({ days_of_week: [] })).toEqual(['days_of_week']);
    expect(await bad({ days_of_week: [2, 2] })).toEqual(['days_of_week']);
    expect(await bad({ slot_minutes: 4 })).toEqual(['slot_minutes']);
    expect(await bad({ slot_minutes: 241 })).toEqual(['slot_minutes']);
    expect(await bad({ time_zone: 'Europe/Atlantis' })).toEqual(['time_zone']);
    expect(await bad({ breaks: [{ start_time: '07:00', end_time: '08:30' }] })).toEqual(['breaks.0']);
    expect(await bad({ breaks: [{ start_time: '10:00', end_time: '09:00' }] })).toEqual(['breaks.0.end_time']);
    expect(
      await bad({
        breaks: [
          { start_time: '10:00', end_time: '10:30' },
          { start_time: '10:15', end_time: '10:45' },
        ],
      }),
    ).toEqual(['breaks.1']);
    expect(await bad({ breaks: [{ start_time: '10:00', end_time: 'noon' }] })).toEqual(['breaks.0.end_time']);
    expect(await bad({ valid_from: dayAhead(5), valid_until: dayAhead(4) })).toEqual(['valid_until']);
    expect(await bad({ valid_from: '2026-02-30' })).toEqual(['valid_from']);
    expect((await post({ resource_id: '3f1d8c9a-0000-4000-8000-000000000000' })).status).toBe(404);
    const ok = (await post({})).body.data.id;
    expect(fieldsOf(await c.receptionist.api.patch(`/api/schedules/${ok}`, { start_time: '13:00' }))).toEqual(['end_time']);
    expect(fieldsOf(await c.receptionist.api.patch(`/api/schedules/${ok}`, { days_of_week: null }))).toEqual(['days_of_week']);
  });

  it('answers GraphQL clients a resource with a bad field and hours that overlap as userErrors, the record null', async () => {
    const resource = `mutation($input: CreateResourceInput!) {
      createResource(input: $input) { resource { id name } userErrors { field message code } }
    }`;
    const made = await c.receptionist.api.graphql(resource, { input: { organizationId: c.orgId, type: 'room', name: 'GQL room' } });
    expect(made.body.data.createResource).toEqual({ resource: { id: expect.any(String), name: 'GQL room' }, userErrors: [] });
    const kit = { organizationId: c.orgId, type: 'equipment', name: 'GQL kit', roomId: '00000000-0000-4000-8000-000000000000' };
    const bad = await c.receptionist.api.graphql(resource, { input: kit });
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.createResource).toEqual({
      resource: null,
      userErrors: [{ field: ['input', 'roomId'], message: 'is only for room resources', code: 'INVALID' }],
    });
    const schedule = `mutation($input: CreateScheduleInput!) {
      createSchedule(input: $input) { schedule { id startTime } userErrors { field message code } }
    }`;
    const hours = { resourceId: made.body.data.createResource.resource.id, daysOfWeek: [1, 2], startTime: '08:00', endTime: '12:00' };
    const first = await c.receptionist.api.graphql(schedule, { input: hours });
    expect(first.body.data.createSchedule).toEqual({ schedule: { id: expect.any(String), startTime: '08:00' }, userErrors: [] });
    const overlap = await c.receptionist.api.graphql(schedule, {
      input: { ...hours, daysOfWeek: [2], startTime: '11:00', endTime: '13:00' },
    });
    expect(overlap.body.data.createSchedule).toEqual({
      schedule: null,
      userErrors: [{ field: null, message: expect.stringMatching(/^The schedule overlaps schedule /), code: 'BUSINESS_RULE' }],
    });
    const noDays = await c.receptionist.api.graphql(schedule, { input: { ...hours, daysOfWeek: [] } });
    expect(noDays.body.data.createSchedule).toEqual({
      schedule: null,
      userErrors: [{ field: ['input', 'daysOfWeek'], message: 'must name at least one day', code: 'INVALID' }],
    });
    const later = await c.receptionist.api.graphql(schedule, { input: { ...hours, startTime: '14:00', endTime: '16:00' } });
    const change = `mutation($id: ID!, $input: UpdateScheduleInput!) {
      updateSchedule(id: $id, input: $input) { schedule { startTime } userErrors { field message code } }
    }`;
    const clash = await c.receptionist.api.graphql(change, {
      id: later.body.data.createSchedule.schedule.id,
      input: { startTime: '11:00' },
    });
    expect(clash.body.errors).toBeUndefined();
    expect(clash.body.data.updateSchedule).toEqual({
      schedule: null,
      userErrors: [{ field: null, message: expect.stringMatching(/^The schedule overlaps schedule /), code: 'BUSINESS_RULE' }],
    });
    const edit = `mutation($id: ID!, $input: UpdateResourceInput!) {
      updateResource(id: $id, input: $input) { resource { name } userErrors { field message code } }
    }`;
    const resourceId = made.body.data.createResource.resource.id;
    const elsewhere = await c.receptionist.api.graphql(edit, { id: resourceId, input: { roomId: '00000000-0000-4000-8000-000000000000' } });
    expect(elsewhere.body.data.updateResource).toEqual({
      resource: null,
      userErrors: [{ field: ['input', 'roomId'], message: 'must be a room of the organization', code: 'INVALID' }],
    });
    const renamed = await c.receptionist.api.graphql(edit, { id: resourceId, input: { name: 'GQL room 2' } });
    expect(renamed.body.data.updateResource).toEqual({ resource: { name: 'GQL room 2' }, userErrors: [] });
  });

  it('refuses a schedule that overlaps another of the same resource (409), in any time zone', async () => {
    const room = await createResource({ name: 'Clinic room C', time_zone: 'Africa/Nairobi' });
    await createSchedule(room.id, { days_of_week: [1, 2, 3], start_time: '08:00', end_time: '12:00' });
    const overlap = await c.receptionist.api.post('/api/schedules', {
      resource_id: room.id,
      days_of_week: [3, 4],
      start_time: '11:00',
      end_time: '14:00',
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.code).toBe('CONFLICT');
    // 06:00 in Lagos is 08:00 in Nairobi: the same hours written in another zone.
    const lagos = await c.receptionist.api.post('/api/schedules', {
      resource_id: room.id,
      days_of_week: [2],
      start_time: '06:00',
      end_time: '07:00',
      time_zone: 'Africa/Lagos',
    });
    expect(lagos.status).toBe(409);
    // Back to back, other days, or other validity periods are fine.
    expect(
      (
        await c.receptionist.api.post('/api/schedules', {
          resource_id: room.id,
          days_of_week: [1, 2, 3],
          start_time: '12:00',
          end_time: '13:00',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await c.receptionist.api.post('/api/schedules', {
          resource_id: room.id,
          days_of_week: [4, 5],
          start_time: '08:00',
          end_time: '12:00',
        })
      ).status,
    ).toBe(201);
    const later = dayAhead(400);
    expect(
      (
        await c.receptionist.api.post('/api/schedules', {
          resource_id: room.id,
          days_of_week: [1],
          start_time: '09:00',
          end_time: '10:00',
          valid_from: later,
        })
      ).status,
    ).toBe(409);
    const scoped = await c.receptionist.api.post('/api/schedules', {
      resource_id: room.id,
      days_of_week: [6],
      start_time: '09:00',
      end_time: '10:00',
      valid_until: dayAhead(30),
    });
    expect(scoped.status).toBe(201);
    expect(
      (
        await c.receptionist.api.post('/api/schedules', {
          resource_id: room.id,
          days_of_week: [6],
          start_time: '09:00',
          end_time: '10:00',
          valid_from: dayAhead(31),
        })
      ).status,
    ).toBe(201);
    // An update that would overlap is refused too.
    expect((await c.receptionist.api.patch(`/api/schedules/${scoped.body.data.id}`, { valid_until: dayAhead(60) })).status).toBe(409);
  });

  it('lets only scheduling staff change schedules', async () => {
    const room = await createResource({ name: 'Clinic room D' });
    const schedule = await createSchedule(room.id);
    const body = { resource_id: room.id, days_of_week: [7], start_time: '20:00', end_time: '21:00' };
    expect((await app.api.post('/api/schedules', body)).status).toBe(401);
    expect((await c.nurse.api.post('/api/schedules', body)).status).toBe(403);
    expect((await stranger.api.post('/api/schedules', body)).status).toBe(404);
    expect((await app.api.patch(`/api/schedules/${schedule.id}`, { end_time: '18:00' })).status).toBe(401);
    expect((await c.doctor.api.patch(`/api/schedules/${schedule.id}`, { end_time: '18:00' })).status).toBe(403);
    expect((await stranger.api.patch(`/api/schedules/${schedule.id}`, { end_time: '18:00' })).status).toBe(404);
    expect((await stranger.api.delete(`/api/schedules/${schedule.id}`)).status).toBe(404);
    expect((await c.billing.api.delete(`/api/schedules/${schedule.id}`)).status).toBe(403);
    await c.receptionist.api.patch(`/api/resources/${room.id}`, { active: false });
    expect((await stranger.api.get(`/api/schedules/${schedule.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/resources/${room.id}/schedules`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/resources/${room.id}/schedules`)).status).toBe(200);
  });
});

describe('availability', () => {
  it("answers the slots of a date in the resource's time zone, less breaks and bookings", async () => {
    const room = await createResource({ name: 'Nairobi room', time_zone: 'Africa/Nairobi' });
    const date = dayAhead(4, 'Africa/Nairobi');
    await createSchedule(room.id, {
      days_of_week: [weekday(date)],
      start_time: '09:00',
      end_time: '12:00',
      breaks: [{ start_time: '10:00', end_time: '10:30' }],
      slot_minutes: 30,
    });
    const booked = await app.api.post('/api/appointments', {
      resource_id: room.id,
      patient_name: 'Wanjiru Kamau',
      patient_email: 'wanjiru@example.test',
      start_time: at(date, '09:30', 'Africa/Nairobi'),
      end_time: at(date, '10:00', 'Africa/Nairobi'),
    });
    expect(booked.status).toBe(201);
    const res = await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=${date}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      resource_id: room.id,
      date,
      time_zone: 'Africa/Nairobi',
      slots: [
        // Nairobi is UTC+3: 09:00 there is 06:00Z.
        { start_time: `${date}T06:00:00.000Z`, end_time: `${date}T06:30:00.000Z`, available: true },
        { start_time: `${date}T06:30:00.000Z`, end_time: `${date}T07:00:00.000Z`, available: false },
        { start_time: `${date}T07:30:00.000Z`, end_time: `${date}T08:00:00.000Z`, available: true },
        { start_time: `${date}T08:00:00.000Z`, end_time: `${date}T08:30:00.000Z`, available: true },
        { start_time: `${date}T08:30:00.000Z`, end_time: `${date}T09:00:00.000Z`, available: true },
      ],
    });
    // A cancelled appointment frees its slot.
    await c.receptionist.api.post(`/api/appointments/${booked.body.data.id}/cancel`, {});
    const again = await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=${date}`);
    expect(again.body.data.slots.every((s: { available: boolean }) => s.available)).toBe(true);
    // Other days of the week have no slots.
    expect(
      (await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=${dayAhead(5, 'Africa/Nairobi')}`)).body.data.slots,
    ).toEqual([]);
  });

  it("lists and boards appointments by the date of their resource's time zone", async () => {
    const night = await createResource({ name: 'Night clinic', time_zone: 'Africa/Nairobi' });
    await createSchedule(night.id, { start_time: '00:00', end_time: '03:00' });
    const date = dayAhead(6, 'Africa/Nairobi');
    const booked = await app.api.post('/api/appointments', {
      resource_id: night.id,
      patient_name: 'Njeri Mwangi',
      patient_email: 'njeri@example.test',
      start_time: at(date, '01:00', 'Africa/Nairobi'),
      end_time: at(date, '01:30', 'Africa/Nairobi'),
    });
    expect(booked.status).toBe(201);
    // 01:00 in Nairobi is 22:00 UTC the day before.
    expect(booked.body.data.start_time).toBe(`${dayAhead(5, 'Africa/Nairobi')}T22:00:00.000Z`);
    const on = async (d: string) => ids(await c.receptionist.api.get(`/api/appointments?resource_id=${night.id}&date=${d}`));
    expect(await on(date)).toEqual([booked.body.data.id]);
    expect(await on(dayAhead(5, 'Africa/Nairobi'))).toEqual([]);
    const board = await c.receptionist.api.get(`/api/appointments/kanban?date=${date}&resource_id=${night.id}`);
    expect(board.body.data.columns[0]).toMatchObject({ status: 'booked', count: 1 });
  });

  it('leaves out slots that have begun', async () => {
    const room = await createResource({ name: 'All-day room' });
    await createSchedule(room.id, { start_time: '00:00', end_time: '23:55', slot_minutes: 5 });
    const now = Date.now();
    const today = (await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=${dayAhead(0)}`)).body.data.slots;
    const tomorrow = (await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=${dayAhead(1)}`)).body.data.slots;
    expect(tomorrow).toHaveLength(287);
    expect(today.length).toBeLessThan(287);
    expect(today.every((s: { start_time: string }) => Date.parse(s.start_time) >= now - 1000)).toBe(true);
    expect((await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=${dayAhead(-1)}`)).body.data.slots).toEqual([]);
  });

  it('checks its parameters', async () => {
    const room = await createResource({ name: 'Param room' });
    expect(fieldsOf(await app.api.get(`/api/appointments/availability?resource_id=${room.id}`))).toEqual(['date']);
    expect(fieldsOf(await app.api.get(`/api/appointments/availability?resource_id=${room.id}&date=tomorrow`))).toEqual(['date']);
    expect(fieldsOf(await app.api.get(`/api/appointments/availability?date=${dayAhead(1)}`))).toEqual(['resource_id']);
    expect(
      (await app.api.get(`/api/appointments/availability?resource_id=3f1d8c9a-0000-4000-8000-000000000000&date=${dayAhead(1)}`)).status,
    ).toBe(404);
  });

  it("summarises an approved doctor's free slots per day across their resources", async () => {
    const doctorRoom = await createResource({
      type: 'doctor',
      name: 'Dr. Summary',
      doctor_id: c.doctorProfileId,
      time_zone: 'Africa/Nairobi',
    });
    const first = dayAhead(2, 'Africa/Nairobi');
    // Only this resource of the doctor stays active (one without a schedule would be open all day).
    await app.em('org').nativeUpdate(SchedulableResource, { doctorId: c.doctorProfileId, id: { $ne: doctorRoom.id } }, { active: false });
    await createSchedule(doctorRoom.id, { days_of_week: [weekday(first)], start_time: '09:00', end_time: '11:00', slot_minutes: 30 });
    // Not approved yet: the doctor is not in the public directory.
    // Pending doctors have a summary too; a rejected one would be 404.
    expect((await app.api.get(`/api/doctors/${c.doctorProfileId}/availability`)).status).toBe(200);
    await app.em('org').nativeUpdate(DoctorProfile, { id: c.doctorProfileId }, { verificationStatus: DoctorVerification.approved });
    await app.api.post('/api/appointments', {
      resource_id: doctorRoom.id,
      patient_name: 'Otieno Ouma',
      patient_email: 'otieno@example.test',
      start_time: at(first, '09:00', 'Africa/Nairobi'),
      end_time: at(first, '09:30', 'Africa/Nairobi'),
    });
    const res = await app.api.get(`/api/doctors/${c.doctorProfileId}/availability?from=${first}&days=8`);
    expect(res.status).toBe(200);
    expect(res.body.data.doctor_id).toBe(c.doctorProfileId);
    expect(res.body.data.from).toBe(first);
    expect(res.body.data.days).toHaveLength(8);
    const [day0, ...rest] = res.body.data.days;
    expect(day0).toEqual({
      date: first,
      free_slots: 3,
      first_free_slot: {
        resource_id: doctorRoom.id,
        start_time: at(first, '09:30', 'Africa/Nairobi'),
        end_time: at(first, '10:00', 'Africa/Nairobi'),
      },
    });
    expect(rest.slice(0, 6).every((d: { free_slots: number }) => d.free_slots === 0)).toBe(true);
    expect(rest[6]).toMatchObject({ date: dayAhead(9, 'Africa/Nairobi'), free_slots: 4 });
    const defaults = await app.api.get(`/api/doctors/${c.doctorProfileId}/availability`);
    expect(defaults.body.data.days).toHaveLength(7);
    expect(defaults.body.data.from).toBe(dayAhead(0));
    expect(fieldsOf(await app.api.get(`/api/doctors/${c.doctorProfileId}/availability?days=32`))).toEqual(['days']);
    expect(fieldsOf(await app.api.get(`/api/doctors/${c.doctorProfileId}/availability?from=soon`))).toEqual(['from']);
    expect((await app.api.get('/api/doctors/3f1d8c9a-0000-4000-8000-000000000000/availability')).status).toBe(404);
  });
});

describe('defaults for clients that send less', () => {
  it('takes the caller’s only organization, one day_of_week, every day by default, and books a resource before it has hours', async () => {
    const res = await c.receptionist.api.post('/api/resources', { type: 'equipment', name: 'Ultrasound cart' });
    expect(res.status).toBe(201);
    expect(res.body.data.organization_id).toBe(c.orgId);
    // Someone in two organizations must say which.
    const two = await signUp(app.api);
    for (const name of ['First clinic', 'Second clinic']) expect((await two.api.post('/api/organizations', { name })).status).toBe(201);
    expect(fieldsOf(await two.api.post('/api/resources', { type: 'room', name: 'X' }))).toEqual(['organization_id']);

    // Without a schedule the resource is open all day: 48 half-hour slots tomorrow, and a booking at night works.
    const cart = res.body.data.id;
    const tomorrow = dayAhead(1);
    expect((await app.api.get(`/api/appointments/availability?resource_id=${cart}&date=${tomorrow}`)).body.data.slots).toHaveLength(48);
    const night = await app.api.post('/api/appointments', {
      resource_id: cart,
      patient_name: 'Esi Nyarko',
      patient_email: 'esi@example.test',
      patient_phone: '+233201112223',
      start_time: at(tomorrow, '02:00'),
      end_time: at(tomorrow, '02:30'),
      reason: 'Scan',
    });
    expect(night.status).toBe(201);

    // Its first schedule sets its hours: `day_of_week` names one day (0 and 7 are Sunday).
    const monday = await c.receptionist.api.post('/api/schedules', {
      resource_id: cart,
      day_of_week: 0,
      start_time: '09:00',
      end_time: '12:00',
    });
    expect(monday.status).toBe(201);
    expect(monday.body.data.days_of_week).toEqual([7]);
    const daily = await c.receptionist.api.post('/api/schedules', {
      resource_id: (await createResource({ name: 'Daily room' })).id,
      start_time: '09:00',
      end_time: '12:00',
    });
    expect(daily.body.data.days_of_week).toEqual(EVERY_DAY);
    const nightAgain = await app.api.post('/api/appointments', {
      resource_id: cart,
      patient_name: 'Esi Nyarko',
      patient_email: 'esi@example.test',
      start_time: at(tomorrow, '03:00'),
      end_time: at(tomorrow, '03:30'),
    });
    expect(nightAgain.status).toBe(400);
    expect(fieldsOf(nightAgain)).toEqual(['start_time']);
  });
});
