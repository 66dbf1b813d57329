import { LockMode } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { emitEvent } from '../../../shared/outbox';
import { APPOINTMENT_BOOKED } from './appointment.events';
import { DoctorProfile } from '../doctors/doctor.entity';
import { Organization, OrganizationStatus } from '../organizations/organization.entity';
import { Appointment, AppointmentStatus, RELEASED_STATUSES } from './appointment.entity';
import { withinWorkingHours, type Interval } from './calendar';
import { SchedulableResource, Schedule } from './resource.entity';

/**
 * The one booking path. Public booking, staff booking, approving a request and rescheduling all come through here:
 * the same field rules, the resource row locked for the whole check-and-write, the same overlap rule and the event
 * in the same transaction.
 */

export const MAX_APPOINTMENT_HOURS = 8;

/** Field rules of a requested time: in the future, end after start, at most MAX_APPOINTMENT_HOURS long. */
export function checkTimes(
  start: Date,
  end: Date,
  fields: { start: string; end: string } = { start: 'startTime', end: 'endTime' },
): Interval {
  const snake = (f: string) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (Number.isNaN(start.getTime())) throw errors.invalidField(fields.start, 'must be an ISO 8601 timestamp');
  if (Number.isNaN(end.getTime())) throw errors.invalidField(fields.end, 'must be an ISO 8601 timestamp');
  if (start.getTime() <= clock.nowMs()) throw errors.invalidField(fields.start, 'must be in the future');
  if (end <= start) throw errors.invalidField(fields.end, `must be after ${snake(fields.start)}`);
  if (end.getTime() - start.getTime() > MAX_APPOINTMENT_HOURS * 3_600_000) {
    throw errors.invalidField(fields.end, `must be at most ${MAX_APPOINTMENT_HOURS} hours after ${snake(fields.start)}`);
  }
  return { start: start.getTime(), end: end.getTime() };
}

/** Locks a resource row for the rest of the transaction: bookings of one resource happen one at a time. */
export async function lockResource(em: EntityManager, id: string): Promise<SchedulableResource> {
  const resource = await em.findOne(SchedulableResource, { id, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!resource) throw errors.notFound('Resource');
  return resource;
}

/** An inactive resource, or one of an organization that is not active, takes no bookings. */
export async function checkBookable(em: EntityManager, resource: SchedulableResource): Promise<void> {
  if (!resource.active) throw errors.invalidField('resourceId', 'is not active and takes no bookings');
  const org = await em.findOne(Organization, { id: resource.organizationId });
  if (org?.status !== OrganizationStatus.active) throw errors.invalidField('resourceId', 'belongs to an organization that is not active');
}

/**
 * Checks that the resource works for the whole span and that no appointment holding its time overlaps it
 * (`start < other.end and end > other.start`). Call with the resource locked.
 */
export async function checkFree(em: EntityManager, resource: SchedulableResource, span: Interval, excludeId?: string): Promise<void> {
  const schedules = await em.find(Schedule, { resource });
  if (!withinWorkingHours(schedules, resource.timeZone, span)) {
    throw errors.invalidField(
      'startTime',
      "must fall within the resource's working hours: the whole appointment inside one schedule window, clear of its breaks",
    );
  }
  const clash = await em.count(Appointment, {
    resource,
    status: { $nin: RELEASED_STATUSES },
    startTime: { $lt: new Date(span.end) },
    endTime: { $gt: new Date(span.start) },
    ...(excludeId ? { id: { $ne: excludeId } } : {}),
  });
  if (clash) throw errors.conflict('The resource is already booked for part of this time');
}

/** The doctor behind a resource, for the appointment's denormalized doctor fields. */
export async function doctorOf(em: EntityManager, resource: SchedulableResource): Promise<DoctorProfile | null> {
  return resource.doctorId ? em.findOne(DoctorProfile, { id: resource.doctorId }) : null;
}

export interface BookingDraft {
  resourceId: string;
  startTime: Date;
  endTime: Date;
  patientName: string;
  patientEmail: string;
  patientPhone?: string | null;
  reason?: string | null;
  patientId?: string | null;
  patientUserId?: string | null;
  bookedBy?: string | null;
  /** When set, the resource must belong to this organization (400 naming resource_id otherwise). */
  organizationId?: string;
}

/** Books inside the caller's transaction (`em` is transactional); the flush at its end writes the event too. */
export async function bookWithin(em: EntityManager, draft: BookingDraft): Promise<Appointment> {
  const span = checkTimes(draft.startTime, draft.endTime);
  const resource = await lockResource(em, draft.resourceId);
  if (draft.organizationId && resource.organizationId !== draft.organizationId) {
    throw errors.invalidField('resourceId', "must be a resource of the request's organization");
  }
  await checkBookable(em, resource);
  await checkFree(em, resource, span);
  const doctor = await doctorOf(em, resource);
  const appointment = em.create(Appointment, {
    organizationId: resource.organizationId,
    resource,
    doctorId: doctor?.id ?? null,
    doctorUserId: doctor?.userId ?? null,
    patientId: draft.patientId ?? null,
    patientUserId: draft.patientUserId ?? null,
    patientName: draft.patientName.trim(),
    patientEmail: draft.patientEmail.trim().toLowerCase(),
    patientPhone: draft.patientPhone ?? null,
    startTime: draft.startTime,
    endTime: draft.endTime,
    reason: draft.reason?.trim() || null,
    status: AppointmentStatus.booked,
    statusChangedAt: clock.now(),
    bookedBy: draft.bookedBy ?? null,
  });
  emitEvent(em, 'org', APPOINTMENT_BOOKED, {
    appointment_id: appointment.id,
    resource_id: resource.id,
    organization_id: appointment.organizationId,
    patient_id: appointment.patientId ?? null,
    start_time: appointment.startTime.toISOString(),
    end_time: appointment.endTime.toISOString(),
    status: appointment.status,
  });
  return appointment;
}
