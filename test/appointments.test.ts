import { randomUUID } from 'node:crypto';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { OutboxEvent } from '../shared/outbox';
import { DoctorProfile } from '../subgraphs/org/doctors/doctor.entity';
import { sandboxMailbox } from '../shared/adapters/mailer';
import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { outsider } from './support/clinic';
import { lastMail } from './support/mail';
import { eventually } from './support/wait';
import { EVERY_DAY, at, dayAhead, schedulingClinic, type SchedulingClinic } from './support/scheduling';

let app: TestApp;
let c: SchedulingClinic;
let stranger: SignedUp & { orgId: string };
let patient: SignedUp;
/** A doctor resource working every day 08:00–17:00 UTC with a lunch break 12:00–13:00. */
let doctorResource: string;
let room: string;
let doctorEmail: string;

/** Each test books on its own day, so tests never compete for a slot. */
let nextDay = 2;
const freshDay = () => dayAhead(nextDay++);

beforeAll(async () => {
  app = await startApp();
  c = await schedulingClinic(app);
  stranger = await outsider(app);
  patient = await signUp(app.api, { registration_role: 'PATIENT', first_name: 'Akosua', last_name: 'Boateng' });
  doctorEmail = (await app.em('org').findOneOrFail(DoctorProfile, { id: c.doctorProfileId })).email;
  const resource = async (body: Record<string, unknown>) => {
    const res = await c.receptionist.api.post('/api/resources', { organization_id: c.orgId, ...body });
    if (res.status !== 201) throw new Error(`resource: ${res.status} ${res.text}`);
    const id = res.body.data.id as string;
    const schedule = await c.receptionist.api.post('/api/schedules', {
      resource_id: id,
      days_of_week: EVERY_DAY,
      start_time: '08:00',
      end_time: '17:00',
      breaks: [{ start_time: '12:00', end_time: '13:00' }],
    });
    if (schedule.status !== 201) throw new Error(`schedule: ${schedule.status} ${schedule.text}`);
    return id;
  };
  doctorResource = await resource({ type: 'doctor', name: 'Dr. General', doctor_id: c.doctorProfileId });
  room = await resource({ type: 'room', name: 'Procedure room' });
});
afterAll(() => app.close());

/** The SPEC booking body. */
const booking = (date: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  resource_id: doctorResource,
  patient_name: 'Kwame Asante',
  patient_email: 'kwame.asante@example.test',
  patient_phone: '+233201234567',
  start_time: at(date, from),
  end_time: at(date, to),
  reason: 'Persistent cough',
  ...extra,
});

async function book(date: string, from: string, to: string, extra: Record<string, unknown> = {}, api = app.api) {
  const res = await api.post('/api/appointments', booking(date, from, to, extra));
  if (res.status !== 201) throw new Error(`booking: ${res.status} ${res.text}`);
  return res.body.data as { id: string; status: string; start_time: string };
}

/** The mail of a kind about one appointment (the doctor gets many). */
const mailAbout = (to: string, template: string, appointmentId: string) =>
  eventually(
    async () => (await sandboxMailbox(to)).find((m) => m.template === template && m.data?.appointment_id === appointmentId),
    `${template} mail`,
  );

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
const fieldsOf = (res: { body: { error: { details: { field: string }[] } } }) => res.body.error.details.map((d) => d.field);

describe('booking', () => {
  it('books with the SPEC body: 201 with id and status booked, and the booked event in the outbox', async () => {
    const date = freshDay();
    const res = await app.api.post('/api/appointments', booking(date, '09:00', '09:30'));
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      id: expect.any(String),
      status: 'booked',
      resource_id: doctorResource,
      organization_id: c.orgId,
      doctor_id: c.doctorProfileId,
      doctor_user_id: c.doctor.user.id,
      patient_name: 'Kwame Asante',
      patient_email: 'kwame.asante@example.test',
      patient_phone: '+233201234567',
      start_time: at(date, '09:00'),
      end_time: at(date, '09:30'),
      // The reason for the visit is clinical: an anonymous booker's answer has it null (docs/permissions.md).
      reason: null,
      patient_id: null,
      patient_user_id: null,
      booked_by: null,
      rescheduled_count: 0,
    });
    const id = res.body.data.id;
    // It was kept: the doctor the patient will see reads it.
    expect((await c.doctor.api.get(`/api/appointments/${id}`)).body.data.reason).toBe('Persistent cough');
    const events = await app.em('org').find(OutboxEvent, { topic: 'svc.scheduling.appointment_booked', payload: { appointment_id: id } });
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      appointment_id: id,
      resource_id: doctorResource,
      organization_id: c.orgId,
      patient_id: null,
      start_time: at(date, '09:00'),
      end_time: at(date, '09:30'),
      status: 'booked',
    });
    // The patient and the doctor are told by mail.
    const mail = await lastMail('kwame.asante@example.test', 'appointment_booked');
    expect(mail.data).toEqual({ appointment_id: id, start_time: at(date, '09:00') });
    expect((await mailAbout(doctorEmail, 'appointment_booked', id)).data).toEqual({ appointment_id: id, start_time: at(date, '09:00') });
  });

  it('refuses bad times with a 400 naming the field', async () => {
    const date = freshDay();
    const field = async (body: Record<string, unknown>) => {
      const res = await app.api.post('/api/appointments', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return fieldsOf(res);
    };
    const yesterday = dayAhead(-1);
    expect(await field(booking(yesterday, '09:00', '09:30'))).toEqual(['start_time']);
    expect(await field(booking(date, '10:00', '10:00'))).toEqual(['end_time']);
    expect(await field(booking(date, '10:00', '09:30'))).toEqual(['end_time']);
    expect(await field({ ...booking(date, '08:00', '08:30'), end_time: at(dayAhead(nextDay + 1), '08:30') })).toEqual(['end_time']);
    // Outside working hours: before opening, across the lunch break, after closing.
    expect(await field(booking(date, '07:30', '08:30'))).toEqual(['start_time']);
    expect(await field(booking(date, '11:45', '12:15'))).toEqual(['start_time']);
    expect(await field(booking(date, '12:00', '12:30'))).toEqual(['start_time']);
    expect(await field(booking(date, '16:45', '17:15'))).toEqual(['start_time']);
    expect(await field(booking(date, '09:00', '09:30', { patient_email: 'not-an-email' }))).toEqual(['patient_email']);
    expect(await field(booking(date, '09:00', '09:30', { patient_phone: '0712345678' }))).toEqual(['patient_phone']);
    expect(await field(booking(date, '09:00', '09:30', { patient_name: '' }))).toEqual(['patient_name']);
    expect(await field({ ...booking(date, '09:00', '09:30'), start_time: 'tomorrow morning' })).toEqual(['start_time']);
    const { patient_name: _n, ...noName } = booking(date, '09:00', '09:30');
    expect(await field(noName)).toEqual(['patient_name']);
    expect(await field(booking(date, '09:00', '09:30', { resource_id: 'room-1' }))).toEqual(['resource_id']);
    // Nothing was booked.
    const day = await c.receptionist.api.get(`/api/appointments?date=${date}`);
    expect(day.body.data).toEqual([]);
  });

  it('answers 404 for an unknown resource and 400 for an inactive one', async () => {
    const date = freshDay();
    expect(
      (await app.api.post('/api/appointments', booking(date, '09:00', '09:30', { resource_id: '3f1d8c9a-0000-4000-8000-000000000000' })))
        .status,
    ).toBe(404);
    const closed = (
      await c.receptionist.api.post('/api/resources', { organization_id: c.orgId, type: 'equipment', name: 'X-ray', active: false })
    ).body.data.id;
    await c.receptionist.api.post('/api/schedules', {
      resource_id: closed,
      days_of_week: EVERY_DAY,
      start_time: '08:00',
      end_time: '17:00',
    });
    const res = await c.receptionist.api.post('/api/appointments', booking(date, '09:00', '09:30', { resource_id: closed }));
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['resource_id']);
  });

  it('refuses a double booking (409) and accepts back-to-back ones', async () => {
    const date = freshDay();
    await book(date, '10:00', '10:30');
    const same = await app.api.post('/api/appointments', booking(date, '10:00', '10:30'));
    expect(same.status).toBe(409);
    expect(same.body.error.code).toBe('CONFLICT');
    expect((await app.api.post('/api/appointments', booking(date, '10:15', '10:45'))).status).toBe(409);
    expect((await app.api.post('/api/appointments', booking(date, '09:00', '11:00'))).status).toBe(409);
    await book(date, '09:30', '10:00');
    await book(date, '10:30', '11:00');
    // Another resource is free at the same time.
    await book(date, '10:00', '10:30', { resource_id: room });
  });

  it('lets exactly one of many simultaneous bookings of a slot through', async () => {
    const date = freshDay();
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.api.post('/api/appointments', booking(date, '14:00', '14:30', { patient_email: `racer${i}@example.test` })),
      ),
    );
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const stored = await c.receptionist.api.get(`/api/appointments?date=${date}&resource_id=${doctorResource}`);
    expect(stored.body.data).toHaveLength(1);
  });

  it('answers an anonymous retry with the same Idempotency-Key with the first booking, not a double-booking 409', async () => {
    const date = freshDay();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await app.api.post('/api/appointments', booking(date, '09:00', '09:30'), { headers });
    expect(first.status).toBe(201);
    const retry = await app.api.post('/api/appointments', booking(date, '09:00', '09:30'), { headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect((await app.api.post('/api/appointments', booking(date, '09:00', '09:30'))).status).toBe(409);
  });

  it('makes a signed-in booker the patient; staff may name a clinical patient instead', async () => {
    const date = freshDay();
    const own = await book(date, '09:00', '09:30', { patient_id: c.patientId }, patient.api);
    expect(own).toMatchObject({ patient_user_id: patient.user.id, patient_id: null, booked_by: patient.user.id });
    const staff = await book(date, '09:30', '10:00', { patient_id: c.patientId }, c.receptionist.api);
    expect(staff).toMatchObject({ patient_user_id: null, patient_id: c.patientId, booked_by: c.receptionist.user.id });
    // Another organization's staff are strangers here: their booking is their own.
    const theirs = await book(date, '10:00', '10:30', { patient_id: c.patientId }, stranger.api);
    expect(theirs).toMatchObject({ patient_user_id: stranger.user.id, patient_id: null });
    // Staff name only a patient of the organization: an unknown one is a 404 and books nothing.
    const unknown = await c.receptionist.api.post('/api/appointments', booking(date, '10:30', '11:00', { patient_id: randomUUID() }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Patient not found');
    expect((await c.receptionist.api.post('/api/appointments', booking(date, '10:30', '11:00', { patient_id: 'abc' }))).status).toBe(400);
    const day = await c.receptionist.api.get(`/api/appointments?date=${date}&resource_id=${doctorResource}`);
    expect(day.body.data).toHaveLength(3);
  });
});

describe('reading appointments', () => {
  it('shows staff their organization, patients their own, doctors those with them; others get 404', async () => {
    const date = freshDay();
    const mine = await book(date, '09:00', '09:30', {}, patient.api);
    const roomOnly = await book(date, '09:00', '09:30', { resource_id: room });
    // Staff of the organization.
    const staffList = await c.nurse.api.get(`/api/appointments?date=${date}`);
    expect(staffList.status).toBe(200);
    expect(ids(staffList)).toEqual([mine.id, roomOnly.id].sort((a, b) => (a < b ? -1 : 1)));
    // The patient sees their own only, the doctor those of their resources.
    expect(ids(await patient.api.get(`/api/appointments?date=${date}`))).toEqual([mine.id]);
    const other = await signUp(app.api, { registration_role: 'PATIENT' });
    expect(ids(await other.api.get(`/api/appointments?date=${date}`))).toEqual([]);
    expect((await patient.api.get(`/api/appointments/${mine.id}`)).body.data.id).toBe(mine.id);
    expect((await c.doctor.api.get(`/api/appointments/${mine.id}`)).status).toBe(200);
    expect((await other.api.get(`/api/appointments/${mine.id}`)).status).toBe(404);
    expect((await patient.api.get(`/api/appointments/${roomOnly.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/appointments/${mine.id}`)).status).toBe(404);
    expect(ids(await stranger.api.get(`/api/appointments?date=${date}`))).toEqual([]);
    // A member whose role does not read appointments.
    expect((await c.billing.api.get(`/api/appointments/${mine.id}`)).status).toBe(403);
    expect((await app.api.get(`/api/appointments/${mine.id}`)).status).toBe(401);
    expect((await app.api.get('/api/appointments')).status).toBe(401);
    expect((await c.nurse.api.get('/api/appointments/3f1d8c9a-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await c.nurse.api.get('/api/appointments/nope')).status).toBe(404);
  });

  it('filters by status, resource, time range and patient, ordered by start time, paginated', async () => {
    const date = freshDay();
    const late = await book(date, '15:00', '15:30');
    const early = await book(date, '08:00', '08:30');
    const withPatient = await book(date, '11:00', '11:30', { patient_id: c.patientId, resource_id: room }, c.receptionist.api);
    const all = await c.receptionist.api.get(`/api/appointments?date=${date}`);
    expect(ids(all)).toEqual([early.id, withPatient.id, late.id]);
    expect(all.body.meta).toEqual({ page: 1, limit: 20, total: 3 });
    const page2 = await c.receptionist.api.get(`/api/appointments?date=${date}&limit=1&page=2`);
    expect(ids(page2)).toEqual([withPatient.id]);
    expect(page2.body.meta).toEqual({ page: 2, limit: 1, total: 3 });
    expect(ids(await c.receptionist.api.get(`/api/appointments?date=${date}&resource_id=${room}`))).toEqual([withPatient.id]);
    expect(ids(await c.receptionist.api.get(`/api/appointments?patient_id=${c.patientId}&date=${date}`))).toEqual([withPatient.id]);
    expect(
      ids(await c.receptionist.api.get(`/api/appointments?from=${at(date, '10:00')}&to=${at(date, '16:00')}&organization_id=${c.orgId}`)),
    ).toEqual([withPatient.id, late.id]);
    await c.receptionist.api.patch(`/api/appointments/${late.id}/status`, { status: 'confirmed' });
    expect(ids(await c.receptionist.api.get(`/api/appointments?date=${date}&status=confirmed`))).toEqual([late.id]);
    expect(fieldsOf(await c.receptionist.api.get('/api/appointments?status=lost'))).toEqual(['status']);
    expect(fieldsOf(await c.receptionist.api.get('/api/appointments?date=2026-13-01'))).toEqual(['date']);
  });
});

describe('status', () => {
  it('moves through booked → confirmed → checked_in → in_progress → completed', async () => {
    const { id } = await book(freshDay(), '09:00', '09:30');
    for (const status of ['confirmed', 'checked_in', 'in_progress', 'completed']) {
      const res = await c.nurse.api.patch(`/api/appointments/${id}/status`, { status, reason: `to ${status}` });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id, status, status_reason: `to ${status}` });
    }
    const again = await c.nurse.api.patch(`/api/appointments/${id}/status`, { status: 'cancelled' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot cancel an appointment that is completed');
  });

  it('checks in a patient who arrives without having confirmed', async () => {
    const { id } = await book(freshDay(), '09:00', '09:30', {}, patient.api);
    const res = await c.receptionist.api.patch(`/api/appointments/${id}/status`, { status: 'checked_in' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('checked_in');
  });

  it('refuses illegal moves (409), unknown statuses (400) and people who may not change it', async () => {
    const date = freshDay();
    const { id } = await book(date, '09:00', '09:30', {}, patient.api);
    const skip = await c.nurse.api.patch(`/api/appointments/${id}/status`, { status: 'completed' });
    expect(skip.status).toBe(409);
    expect(skip.body.error.message).toBe('Cannot complete an appointment that is booked');
    expect((await c.nurse.api.patch(`/api/appointments/${id}/status`, { status: 'in_progress' })).status).toBe(409);
    expect(fieldsOf(await c.nurse.api.patch(`/api/appointments/${id}/status`, { status: 'teleported' }))).toEqual(['status']);
    expect(fieldsOf(await c.nurse.api.patch(`/api/appointments/${id}/status`, { status: 'booked' }))).toEqual(['status']);
    expect(fieldsOf(await c.nurse.api.patch(`/api/appointments/${id}/status`, {}))).toEqual(['status']);
    expect((await patient.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' })).status).toBe(403);
    expect((await c.billing.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' })).status).toBe(403);
    expect((await stranger.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' })).status).toBe(404);
    expect((await app.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' })).status).toBe(401);
    // State changes also arrive as POST.
    expect((await c.nurse.api.post(`/api/appointments/${id}/status`, { status: 'no_show' })).body.data.status).toBe('no_show');
    expect((await c.nurse.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' })).status).toBe(409);
    // A no-show frees the time.
    await book(date, '09:00', '09:30');
  });
});

describe('cancel', () => {
  it('cancels (the patient their own), emits the event and mails patient and doctor', async () => {
    const date = freshDay();
    const email = `cancel.${Date.now()}@example.test`;
    const { id } = await book(date, '09:00', '09:30', { patient_email: email }, patient.api);
    expect((await c.billing.api.post(`/api/appointments/${id}/cancel`, {})).status).toBe(403);
    expect((await stranger.api.post(`/api/appointments/${id}/cancel`, {})).status).toBe(404);
    expect((await app.api.post(`/api/appointments/${id}/cancel`, {})).status).toBe(401);
    const res = await patient.api.post(`/api/appointments/${id}/cancel`, { reason: 'Feeling better' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      status: 'cancelled',
      cancellation_reason: 'Feeling better',
      cancelled_by: patient.user.id,
      cancelled_at: expect.any(String),
    });
    const [event] = await app
      .em('org')
      .find(OutboxEvent, { topic: 'svc.scheduling.appointment_cancelled', payload: { appointment_id: id } });
    expect(event.payload).toEqual({
      appointment_id: id,
      organization_id: c.orgId,
      patient_id: null,
      reason: 'Feeling better',
      cancelled_by: patient.user.id,
    });
    const mail = await lastMail(email, 'appointment_cancelled');
    expect(mail.data).toEqual({ appointment_id: id, start_time: at(date, '09:00') });
    expect(mail.text).toContain('Feeling better');
    expect((await mailAbout(doctorEmail, 'appointment_cancelled', id)).data?.start_time).toBe(at(date, '09:00'));
    const twice = await c.receptionist.api.post(`/api/appointments/${id}/cancel`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot cancel an appointment that is cancelled');
    expect(await app.em('org').count(OutboxEvent, { topic: 'svc.scheduling.appointment_cancelled', payload: { appointment_id: id } })).toBe(
      1,
    );
    // The slot is free again.
    await book(date, '09:00', '09:30');
  });
});

describe('reschedule', () => {
  it('moves the time, keeps the status and the previous time, emits the event and mails', async () => {
    const date = freshDay();
    const email = `move.${Date.now()}@example.test`;
    const { id } = await book(date, '09:00', '09:30', { patient_email: email });
    await c.receptionist.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' });
    const res = await c.receptionist.api.post(`/api/appointments/${id}/reschedule`, {
      start_time: at(date, '09:15'),
      end_time: at(date, '09:45'),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      status: 'confirmed',
      start_time: at(date, '09:15'),
      end_time: at(date, '09:45'),
      previous_start_time: at(date, '09:00'),
      previous_end_time: at(date, '09:30'),
      rescheduled_count: 1,
    });
    const [event] = await app
      .em('org')
      .find(OutboxEvent, { topic: 'svc.scheduling.appointment_rescheduled', payload: { appointment_id: id } });
    expect(event.payload).toEqual({
      appointment_id: id,
      organization_id: c.orgId,
      patient_id: null,
      previous_start_time: at(date, '09:00'),
      previous_end_time: at(date, '09:30'),
      start_time: at(date, '09:15'),
      end_time: at(date, '09:45'),
    });
    expect((await lastMail(email, 'appointment_rescheduled')).data).toEqual({ appointment_id: id, start_time: at(date, '09:15') });
    // To another resource of the organization.
    const moved = await c.receptionist.api.post(`/api/appointments/${id}/reschedule`, {
      start_time: at(date, '10:00'),
      end_time: at(date, '10:30'),
      resource_id: room,
    });
    expect(moved.body.data).toMatchObject({
      resource_id: room,
      doctor_id: null,
      doctor_user_id: null,
      rescheduled_count: 2,
      previous_start_time: at(date, '09:15'),
    });
  });

  it('checks the new time like a booking: conflicts 409, bad times 400, and only booked or confirmed ones move', async () => {
    const date = freshDay();
    const { id } = await book(date, '09:00', '09:30', {}, patient.api);
    await book(date, '10:00', '10:30');
    const move = (body: Record<string, unknown>, api = c.receptionist.api) => api.post(`/api/appointments/${id}/reschedule`, body);
    expect((await move({ start_time: at(date, '10:15'), end_time: at(date, '10:45') })).status).toBe(409);
    expect(fieldsOf(await move({ start_time: at(date, '12:15'), end_time: at(date, '12:45') }))).toEqual(['start_time']);
    expect(fieldsOf(await move({ start_time: at(dayAhead(-1), '09:00'), end_time: at(dayAhead(-1), '09:30') }))).toEqual(['start_time']);
    expect(fieldsOf(await move({ start_time: at(date, '10:00'), end_time: at(date, '09:00') }))).toEqual(['end_time']);
    expect(fieldsOf(await move({ start_time: at(date, '09:00') }))).toEqual(['end_time']);
    const elsewhere = (await stranger.api.post('/api/resources', { organization_id: stranger.orgId, type: 'room', name: 'Elsewhere' })).body
      .data;
    expect(
      fieldsOf(
        await move({
          start_time: at(date, '09:00'),
          end_time: at(date, '09:30'),
          resource_id: elsewhere?.id ?? '3f1d8c9a-0000-4000-8000-000000000000',
        }),
      ),
    ).toEqual(['resource_id']);
    // Moving within its own time (overlapping itself) is fine; the patient may move their own.
    const self = await move({ start_time: at(date, '09:15'), end_time: at(date, '09:45') }, patient.api);
    expect(self.status).toBe(200);
    expect((await move({ start_time: at(date, '11:00'), end_time: at(date, '11:30') }, stranger.api)).status).toBe(404);
    expect((await move({ start_time: at(date, '11:00'), end_time: at(date, '11:30') }, c.billing.api)).status).toBe(403);
    await c.receptionist.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' });
    await c.receptionist.api.patch(`/api/appointments/${id}/status`, { status: 'checked_in' });
    const late = await move({ start_time: at(date, '11:00'), end_time: at(date, '11:30') });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Cannot reschedule an appointment that is checked in');
  });
});

describe('kanban', () => {
  it("answers a day's appointments in one column per status, in a fixed order", async () => {
    const date = freshDay();
    const a = await book(date, '09:00', '09:30');
    const b = await book(date, '10:00', '10:30');
    const d = await book(date, '11:00', '11:30', { resource_id: room });
    await c.receptionist.api.patch(`/api/appointments/${b.id}/status`, { status: 'confirmed' });
    await c.receptionist.api.post(`/api/appointments/${d.id}/cancel`, {});
    const res = await c.nurse.api.get(`/api/appointments/kanban?date=${date}`);
    expect(res.status).toBe(200);
    expect(res.body.data.date).toBe(date);
    const columns = res.body.data.columns as { status: string; count: number; appointments: { id: string }[] }[];
    expect(columns.map((col) => col.status)).toEqual([
      'booked',
      'confirmed',
      'checked_in',
      'in_progress',
      'completed',
      'cancelled',
      'no_show',
    ]);
    const byStatus = Object.fromEntries(columns.map((col) => [col.status, col.appointments.map((x) => x.id)]));
    expect(byStatus).toMatchObject({ booked: [a.id], confirmed: [b.id], cancelled: [d.id], checked_in: [] });
    expect(columns.find((col) => col.status === 'booked')!.count).toBe(1);
    const filtered = await c.nurse.api.get(`/api/appointments/kanban?date=${date}&resource_id=${room}&organization_id=${c.orgId}`);
    expect(filtered.body.data.columns.reduce((n: number, col: { count: number }) => n + col.count, 0)).toBe(1);
    // Staff only.
    expect((await app.api.get(`/api/appointments/kanban?date=${date}`)).status).toBe(401);
    expect((await patient.api.get(`/api/appointments/kanban?date=${date}`)).status).toBe(403);
    expect((await c.billing.api.get(`/api/appointments/kanban?date=${date}&organization_id=${c.orgId}`)).status).toBe(403);
    expect((await stranger.api.get(`/api/appointments/kanban?date=${date}&organization_id=${c.orgId}`)).status).toBe(404);
    // Another organization's board does not show this one's appointments.
    const theirs = await stranger.api.get(`/api/appointments/kanban?date=${date}`);
    expect(theirs.body.data.columns.every((col: { count: number }) => col.count === 0)).toBe(true);
    expect(fieldsOf(await c.nurse.api.get('/api/appointments/kanban'))).toEqual(['date']);
  });
});

describe('appointment requests', () => {
  it('is created by a signed-in user with contact details from their account, approved into a booking', async () => {
    const date = freshDay();
    const res = await patient.api.post('/api/appointment-requests', {
      resource_id: doctorResource,
      preferred_start: at(date, '09:00'),
      preferred_end: at(date, '09:30'),
      reason: 'Check-up',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'pending',
      organization_id: c.orgId,
      resource_id: doctorResource,
      doctor_id: c.doctorProfileId,
      requested_by: patient.user.id,
      patient_id: null,
      patient_name: 'Akosua Boateng',
      patient_email: patient.user.email,
      preferred_start: at(date, '09:00'),
      appointment_id: null,
    });
    const id = res.body.data.id;
    // Staff see it among the pending ones; the requester sees their own; others do not.
    expect(ids(await c.receptionist.api.get('/api/appointment-requests?limit=100'))).toContain(id);
    expect(ids(await patient.api.get('/api/appointment-requests?limit=100'))).toContain(id);
    expect(ids(await stranger.api.get('/api/appointment-requests?limit=100'))).not.toContain(id);
    expect((await app.api.get('/api/appointment-requests')).status).toBe(401);

    expect((await patient.api.post(`/api/appointment-requests/${id}/approve`, {})).status).toBe(403);
    expect((await c.billing.api.post(`/api/appointment-requests/${id}/approve`, {})).status).toBe(403);
    expect((await stranger.api.post(`/api/appointment-requests/${id}/approve`, {})).status).toBe(404);
    const approved = await c.receptionist.api.post(`/api/appointment-requests/${id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      id,
      status: 'approved',
      decided_by: c.receptionist.user.id,
      appointment_id: expect.any(String),
    });
    const appointment = approved.body.data.appointment;
    expect(appointment).toMatchObject({
      id: approved.body.data.appointment_id,
      status: 'booked',
      resource_id: doctorResource,
      patient_user_id: patient.user.id,
      patient_email: patient.user.email,
      start_time: at(date, '09:00'),
      booked_by: c.receptionist.user.id,
    });
    expect(
      await app.em('org').count(OutboxEvent, { topic: 'svc.scheduling.appointment_booked', payload: { appointment_id: appointment.id } }),
    ).toBe(1);
    expect((await patient.api.get(`/api/appointments/${appointment.id}`)).status).toBe(200);
    const twice = await c.receptionist.api.post(`/api/appointment-requests/${id}/approve`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot approve an appointment request that is approved');
    expect((await c.receptionist.api.post(`/api/appointment-requests/${id}/reject`, {})).status).toBe(409);
    expect(ids(await c.receptionist.api.get('/api/appointment-requests?status=approved&limit=100'))).toContain(id);
    expect(ids(await c.receptionist.api.get('/api/appointment-requests?limit=100'))).not.toContain(id);
  });

  it('is approved at the time staff choose, through the same checks (a taken time is a 409 and it stays pending)', async () => {
    const date = freshDay();
    await book(date, '09:00', '09:30');
    const req = (
      await patient.api.post('/api/appointment-requests', {
        doctor_id: c.doctorProfileId,
        preferred_start: at(date, '09:00'),
        preferred_end: at(date, '09:30'),
      })
    ).body.data;
    expect(req).toMatchObject({ organization_id: c.orgId, resource_id: null, doctor_id: c.doctorProfileId });
    const taken = await c.receptionist.api.post(`/api/appointment-requests/${req.id}/approve`, {});
    // The doctor has one resource here; the preferred time is taken.
    expect(taken.status).toBe(409);
    expect(
      (await c.receptionist.api.get(`/api/appointment-requests?limit=100`)).body.data.find((r: { id: string }) => r.id === req.id).status,
    ).toBe('pending');
    expect(
      fieldsOf(
        await c.receptionist.api.post(`/api/appointment-requests/${req.id}/approve`, {
          start_time: at(date, '12:00'),
          end_time: at(date, '12:30'),
        }),
      ),
    ).toEqual(['start_time']);
    const ok = await c.receptionist.api.post(`/api/appointment-requests/${req.id}/approve`, {
      start_time: at(date, '10:00'),
      end_time: at(date, '10:30'),
      resource_id: room,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.appointment).toMatchObject({ start_time: at(date, '10:00'), resource_id: room });
  });

  it('is rejected once, with a reason; bad requests are 400 and unknown ones 404', async () => {
    const date = freshDay();
    const req = (
      await patient.api.post('/api/appointment-requests', {
        resource_id: room,
        preferred_start: at(date, '09:00'),
        preferred_end: at(date, '09:30'),
      })
    ).body.data;
    const res = await c.nurse.api.post(`/api/appointment-requests/${req.id}/reject`, { reason: 'Room unavailable' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Room unavailable', decided_by: c.nurse.user.id });
    expect((await c.nurse.api.post(`/api/appointment-requests/${req.id}/reject`, {})).status).toBe(409);
    expect((await c.nurse.api.post(`/api/appointment-requests/${req.id}/approve`, {})).status).toBe(409);
    expect((await c.nurse.api.post('/api/appointment-requests/3f1d8c9a-0000-4000-8000-000000000000/reject', {})).status).toBe(404);
    expect(ids(await patient.api.get('/api/appointment-requests?status=rejected&limit=100'))).toContain(req.id);

    const post = (body: Record<string, unknown>) =>
      patient.api.post('/api/appointment-requests', { preferred_start: at(date, '09:00'), preferred_end: at(date, '09:30'), ...body });
    expect(fieldsOf(await post({}))).toEqual(['resource_id']);
    expect(fieldsOf(await post({ resource_id: room, preferred_end: at(date, '08:00') }))).toEqual(['preferred_end']);
    expect(fieldsOf(await post({ resource_id: room, preferred_start: at(dayAhead(-2), '09:00') }))).toEqual(['preferred_start']);
    expect((await post({ resource_id: '3f1d8c9a-0000-4000-8000-000000000000' })).status).toBe(404);
    // The booking names stand in for the preferred times (a wire synonym; GraphQL has only preferredStart/End).
    const booking = await patient.api.post('/api/appointment-requests', {
      resource_id: room,
      start_time: at(date, '15:00'),
      end_time: at(date, '15:30'),
    });
    expect(booking.status).toBe(201);
    expect(booking.body.data).toMatchObject({ preferred_start: at(date, '15:00'), preferred_end: at(date, '15:30') });
    expect((await post({ doctor_id: '3f1d8c9a-0000-4000-8000-000000000000' })).status).toBe(404);
    expect(
      (
        await app.api.post('/api/appointment-requests', {
          resource_id: room,
          preferred_start: at(date, '09:00'),
          preferred_end: at(date, '09:30'),
        })
      ).status,
    ).toBe(401);
    // The booking names work too; without either the 400 names preferred_start and preferred_end.
    const aliased = await patient.api.post('/api/appointment-requests', {
      resource_id: room,
      start_time: at(date, '10:00'),
      end_time: at(date, '10:30'),
    });
    expect(aliased.status).toBe(201);
    expect(aliased.body.data.preferred_start).toBe(new Date(at(date, '10:00')).toISOString());
    expect(fieldsOf(await patient.api.post('/api/appointment-requests', { resource_id: room }))).toEqual([
      'preferred_start',
      'preferred_end',
    ]);
  });
});

describe('audit', () => {
  it('records who booked, read, listed and changed an appointment', async () => {
    const { id } = await book(freshDay(), '09:00', '09:30', {}, patient.api);
    expect((await c.nurse.api.get(`/api/appointments/${id}`)).status).toBe(200);
    expect((await c.receptionist.api.patch(`/api/appointments/${id}/status`, { status: 'confirmed' })).status).toBe(200);
    const trail = await eventually(async () => {
      const rows = await app.em('org').find(AuditEvent, { resourceType: 'appointment', resourceId: id }, { orderBy: { createdAt: 'asc' } });
      return rows.some((r) => r.action === 'read') ? rows : null;
    }, 'appointment audit');
    expect(trail.map((r) => [r.action, r.actorId])).toEqual(
      expect.arrayContaining([
        ['create', patient.user.id],
        ['read', c.nurse.user.id],
        ['update', c.receptionist.user.id],
      ]),
    );
    expect(trail.find((r) => r.action === 'update')?.details).toMatchObject({ before: { status: 'booked' }, status: 'confirmed' });
  });
});

describe('GraphQL', () => {
  it('moves an appointment by one mutation per transition; an illegal one is a CONFLICT naming it', async () => {
    const { id } = await book(freshDay(), '09:00', '09:30');
    for (const [mutation, status] of [
      ['confirmAppointment', 'confirmed'],
      ['checkInAppointment', 'checked_in'],
      ['startAppointment', 'in_progress'],
      ['completeAppointment', 'completed'],
    ]) {
      const res = await c.nurse.api.graphql(`mutation($id: ID!) { ${mutation}(id: $id, reason: "on time") { status statusReason } }`, {
        id,
      });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data[mutation]).toEqual({ status, statusReason: 'on time' });
    }
    const late = await c.nurse.api.graphql('mutation($id: ID!) { markAppointmentNoShow(id: $id) { status } }', { id });
    expect(late.body.errors[0].message).toBe('Cannot no show an appointment that is completed');
    expect(late.body.errors[0].extensions).toMatchObject({
      code: 'CONFLICT',
      reason: 'ILLEGAL_TRANSITION',
      from: 'completed',
      action: 'no_show',
    });
  });

  it('resolves the clinical patient and the doctor of an appointment booked by staff', async () => {
    const date = freshDay();
    const booked = await c.receptionist.api.graphql(
      `mutation($input: BookAppointmentInput!) { bookAppointment(input: $input) { appointment { id status patientId } userErrors { code } } }`,
      {
        input: {
          resourceId: doctorResource,
          patientName: 'Amina Odhiambo',
          patientEmail: 'amina.odhiambo@example.test',
          startTime: at(date, '09:00'),
          endTime: at(date, '09:30'),
          patientId: c.patientId,
        },
      },
    );
    expect(booked.body.errors).toBeUndefined();
    expect(booked.body.data.bookAppointment.userErrors).toEqual([]);
    expect(booked.body.data.bookAppointment.appointment).toMatchObject({ status: 'booked', patientId: c.patientId });
    const id = booked.body.data.bookAppointment.appointment.id;
    const res = await c.doctor.api.graphql(
      `query($id: ID!) { appointment(id: $id) { id status resource { id name type } patient { id firstName } doctor { id firstName } } }`,
      { id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.appointment).toEqual({
      id,
      status: 'booked',
      resource: { id: doctorResource, name: 'Dr. General', type: 'doctor' },
      patient: { id: c.patientId, firstName: 'Amina' },
      doctor: { id: c.doctorProfileId, firstName: 'Test' },
    });
    const list = await c.receptionist.api.graphql(`query($date: LocalDate) { appointments(date: $date) { total items { id } } }`, { date });
    expect(list.body.data.appointments).toEqual({ total: 1, items: [{ id }] });
    const kanban = await c.receptionist.api.graphql(
      `query($date: LocalDate!) { appointmentKanban(date: $date) { columns { status count } } }`,
      { date },
    );
    expect(kanban.body.data.appointmentKanban.columns[0]).toEqual({ status: 'booked', count: 1 });
    const refused = await stranger.api.graphql(`query($id: ID!) { appointment(id: $id) { id } }`, { id });
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it("links a patient's own booking to their patient profile, which the appointment resolves", async () => {
    const me = await signUp(app.api, { registration_role: 'PATIENT', first_name: 'Kofi' });
    const profile = await me.api.post('/api/patients', { ...SAMPLE_PATIENT, first_name: 'Kofi', email: undefined });
    expect(profile.status).toBe(201);
    const date = freshDay();
    const booked = await book(date, '09:00', '09:30', {}, me.api);
    expect(booked).toMatchObject({ patient_id: profile.body.data.id, patient_user_id: me.user.id });
    const res = await me.api.graphql(`query($id: ID!) { appointment(id: $id) { patient { id firstName } doctor { id } } }`, {
      id: booked.id,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.appointment).toEqual({
      patient: { id: profile.body.data.id, firstName: 'Kofi' },
      doctor: { id: c.doctorProfileId },
    });
    // A request carries the profile too, and its approval books with it.
    const request = await me.api.post('/api/appointment-requests', {
      resource_id: doctorResource,
      start_time: at(date, '10:00'),
      end_time: at(date, '10:30'),
    });
    expect(request.body.data).toMatchObject({ patient_id: profile.body.data.id, requested_by: me.user.id });
    const approved = await c.receptionist.api.post(`/api/appointment-requests/${request.body.data.id}/approve`, {});
    expect(approved.body.data.appointment).toMatchObject({ patient_id: profile.body.data.id, patient_user_id: me.user.id });
  });

  it('answers a time taken and a bad field as userErrors, with the appointment null', async () => {
    const date = freshDay();
    const book = `mutation($input: BookAppointmentInput!) {
      bookAppointment(input: $input) { appointment { id } userErrors { field message code } }
    }`;
    const input = (from: string, to: string, extra: Record<string, unknown> = {}) => ({
      resourceId: doctorResource,
      patientName: 'Kwame Asante',
      patientEmail: 'kwame.asante@example.test',
      startTime: at(date, from),
      endTime: at(date, to),
      ...extra,
    });
    const first = await app.api.graphql(book, { input: input('11:00', '11:30') }, { token: null });
    expect(first.body.data.bookAppointment.userErrors).toEqual([]);
    expect(first.body.data.bookAppointment.appointment.id).toEqual(expect.any(String));
    const taken = await app.api.graphql(book, { input: input('11:15', '11:45') }, { token: null });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.bookAppointment).toEqual({
      appointment: null,
      userErrors: [{ field: null, message: 'The resource is already booked for part of this time', code: 'BUSINESS_RULE' }],
    });
    const bad = await app.api.graphql(book, { input: input('15:00', '15:30', { patientEmail: 'not an email' }) }, { token: null });
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.bookAppointment).toEqual({
      appointment: null,
      userErrors: [{ field: ['input', 'patientEmail'], message: expect.any(String), code: 'INVALID' }],
    });
    // REST answers the time taken as it always has.
    const rest = await app.api.post('/api/appointments', booking(date, '11:15', '11:45'));
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({
      success: false,
      error: { code: 'CONFLICT', message: 'The resource is already booked for part of this time' },
    });
  });

  it('answers a reschedule into a time taken as a userError, and a move by a stranger top-level', async () => {
    const date = freshDay();
    const { id } = await book(date, '09:00', '09:30');
    await book(date, '10:00', '10:30');
    const move = `mutation($id: ID!, $input: RescheduleAppointmentInput!) {
      rescheduleAppointment(id: $id, input: $input) { appointment { id startTime } userErrors { field message code } }
    }`;
    const taken = await c.receptionist.api.graphql(move, { id, input: { startTime: at(date, '10:15'), endTime: at(date, '10:45') } });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.rescheduleAppointment).toEqual({
      appointment: null,
      userErrors: [{ field: null, message: 'The resource is already booked for part of this time', code: 'BUSINESS_RULE' }],
    });
    const backwards = await c.receptionist.api.graphql(move, { id, input: { startTime: at(date, '11:00'), endTime: at(date, '10:00') } });
    expect(backwards.body.data.rescheduleAppointment.userErrors).toEqual([
      { field: ['input', 'endTime'], message: expect.any(String), code: 'INVALID' },
    ]);
    const moved = await c.receptionist.api.graphql(move, { id, input: { startTime: at(date, '11:00'), endTime: at(date, '11:30') } });
    expect(moved.body.data.rescheduleAppointment).toEqual({ appointment: { id, startTime: at(date, '11:00') }, userErrors: [] });
    const strange = await stranger.api.graphql(move, { id, input: { startTime: at(date, '14:00'), endTime: at(date, '14:30') } });
    expect(strange.body.data).toBeNull();
    expect(strange.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
