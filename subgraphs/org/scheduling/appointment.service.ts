import { LockMode, raw, type ObjectQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import {
  keysetConnection,
  windowOf,
  type Connection,
  type ConnectionArgs,
  type KeysetList,
  type KeysetScope,
} from '../../../shared/connection';
import { errors } from '../../../shared/errors';
import { ownPatientId, requirePatientOf } from '../../../shared/refs';
import { byIds, isUuid, paginate, type PageResult } from '../../../shared/model';
import { auditChange, auditRead } from '../../../shared/audit/audit-trail';
import { lockedChange } from '../../../shared/locked-change';
import { emitEvent } from '../../../shared/outbox';
import { APPOINTMENT_CANCELLED, APPOINTMENT_RESCHEDULED } from './appointment.events';
import { can, organizationsWith, requireOrgPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { TransitionArgs } from '../../../shared/transitions';
import type { Viewer } from '../../../shared/viewer';
import {
  APPOINTMENT,
  APPOINTMENT_STATUSES,
  type AppointmentAction,
  Appointment,
  appointmentAudit,
  RESCHEDULABLE_STATUSES,
  mayReadAppointment,
  readableAppointment,
} from './appointment.entity';

export { readableAppointment };

import type {
  AppointmentKanban,
  AppointmentListArgs,
  BookAppointmentInput,
  KanbanArgs,
  RescheduleAppointmentInput,
} from './appointment.types';
import { bookWithin, checkBookable, checkFree, checkTimes, doctorOf, lockResource } from './booking';
import { findResource } from './scheduling-access';

/**
 * Which appointments a caller sees in lists: every one (`all`), or those of the organizations where they read
 * appointments and, for a person, their own as patient or doctor. Written once for the root list and the joins.
 */
function appointmentReach(viewer: Viewer): { all: boolean; orgs: string[]; userId: string | null } {
  const orgs = organizationsWith(viewer, 'appointments:read');
  if (orgs === null) return { all: true, orgs: [], userId: null };
  return { all: false, orgs, userId: viewer.apiKey || viewer.system ? null : viewer.userId };
}

const PATIENT_APPOINTMENTS: KeysetList<Appointment> = {
  name: 'patient:appointment',
  entity: Appointment,
  parentColumn: 'patient_id',
  sortColumn: 'start_time',
};

/** Appointments whose start falls on `date` in their resource's time zone. */
const onLocalDate = (date: string) => ({
  [raw(
    (alias) =>
      `(${alias}.start_time at time zone (select r.time_zone from "org"."schedulable_resources" r where r.id = ${alias}.resource_id))::date`,
  )]: date,
});

/** An appointment the caller may change: staff with `appointments:write`, or (where allowed) its own patient. */
async function writableAppointment(ctx: SubgraphContext, id: string, opts: { allowPatient?: boolean } = {}): Promise<Appointment> {
  const appointment = await readableAppointment(ctx, id);
  const viewer = ctx.viewer!;
  if (can(viewer, 'appointments:write', appointment.organizationId)) return appointment;
  if (opts.allowPatient && !viewer.apiKey && appointment.patientUserId === viewer.userId) return appointment;
  throw errors.forbidden();
}

/** Applies a change with the appointment row locked (two changes at once run one after the other), audited. */
function changeAppointment(
  ctx: SubgraphContext,
  id: string,
  change: (tx: SubgraphContext, a: Appointment) => void | Promise<void>,
): Promise<Appointment> {
  return lockedChange(ctx, Appointment, id, async (tx, appointment) => {
    const before = {
      status: appointment.status,
      start_time: appointment.startTime.toISOString(),
      end_time: appointment.endTime.toISOString(),
    };
    await change(tx, appointment);
    auditChange(tx, appointmentAudit('update', appointment, { before, status: appointment.status }));
  });
}

export class AppointmentService {
  /**
   * Public booking. Staff of the resource's organization (`appointments:write`) may name a patient of it; any other
   * signed-in person books for themselves, sees the appointment as its patient, and their own patient profile (if
   * any) becomes its `patient`.
   */
  async book(ctx: SubgraphContext, input: BookAppointmentInput): Promise<Appointment> {
    checkTimes(input.startTime, input.endTime);
    const resource = await findResource(ctx, input.resourceId);
    if (!resource) throw errors.notFound('Resource');
    const viewer = ctx.viewer;
    const staff = can(viewer, 'appointments:write', resource.organizationId);
    const person = !!viewer && !viewer.apiKey && !viewer.system;
    if (staff && input.patientId) await requirePatientOf(ctx, input.patientId, resource.organizationId);
    // Someone booking for themselves is the appointment's patient, linked to their own patient profile when they have one.
    const patientId = staff ? (input.patientId ?? null) : person ? await ownPatientId(ctx) : null;
    return ctx.em.transactional(async (em) => {
      const appointment = await bookWithin(em, {
        resourceId: resource.id,
        startTime: input.startTime,
        endTime: input.endTime,
        patientName: input.patientName,
        patientEmail: input.patientEmail,
        patientPhone: input.patientPhone,
        reason: input.reason,
        patientId,
        patientUserId: person && !staff ? viewer.userId : null,
        bookedBy: viewer?.userId ?? null,
      });
      auditChange(ctx, appointmentAudit('create', appointment, { status: appointment.status }), em);
      return appointment;
    });
  }

  /** Staff see their organizations' appointments, patients their own, doctors those with them; by start time. */
  async list(ctx: SubgraphContext, args: AppointmentListArgs): Promise<PageResult<Appointment>> {
    const viewer = requireViewer(ctx.viewer);
    const where: ObjectQuery<Appointment> = { ...this.scope(viewer) };
    if (args.organizationId) where.organizationId = args.organizationId;
    if (args.resourceId) where.resource = args.resourceId;
    if (args.status) where.status = args.status;
    if (args.patientId) where.patientId = args.patientId;
    if (args.from || args.to) {
      where.startTime = { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lt: args.to } : {}) };
    }
    if (args.date) Object.assign(where, onLocalDate(args.date));
    const page = await paginate(ctx.em, Appointment, where, args, { startTime: 'asc', id: 'asc' });
    auditRead(
      ctx,
      page.items.map((a) => appointmentAudit('list', a)),
    );
    return page;
  }

  get(ctx: SubgraphContext, id: string): Promise<Appointment> {
    return readableAppointment(ctx, id);
  }

  /** A day's appointments in one column per status, for staff (`appointments:read`). */
  async kanban(ctx: SubgraphContext, args: KanbanArgs): Promise<AppointmentKanban> {
    const viewer = requireViewer(ctx.viewer);
    let organizations: string[] | null;
    if (args.organizationId) {
      requireOrgPermission(viewer, args.organizationId, 'appointments:read');
      organizations = [args.organizationId];
    } else {
      organizations = organizationsWith(viewer, 'appointments:read');
      if (organizations && !organizations.length) throw errors.forbidden('The board is for staff who read appointments');
    }
    const where: ObjectQuery<Appointment> = { ...onLocalDate(args.date) };
    if (organizations) where.organizationId = { $in: organizations };
    if (args.resourceId) where.resource = args.resourceId;
    const appointments = await ctx.em.find(Appointment, where, { orderBy: { startTime: 'asc', id: 'asc' } });
    auditRead(
      ctx,
      appointments.map((a) => appointmentAudit('list', a, { view: 'kanban' })),
    );
    return {
      date: args.date,
      columns: APPOINTMENT_STATUSES.map((status) => {
        const inColumn = appointments.filter((a) => a.status === status);
        return { status, count: inColumn.length, appointments: inColumn };
      }),
    };
  }

  /** Moves an appointment on by an action of its machine (staff); a cancellation also goes through `cancel`. */
  async transition(ctx: SubgraphContext, { id, reason }: TransitionArgs, action: AppointmentAction): Promise<Appointment> {
    if (action === 'cancel') return this.cancel(ctx, id, reason, { staffOnly: true });
    await writableAppointment(ctx, id);
    return changeAppointment(ctx, id, (_tx, a) => {
      a.status = APPOINTMENT.next(a.status, action);
      a.statusReason = reason?.trim() || null;
      a.statusChangedAt = clock.now();
    });
  }

  /** Cancels an appointment (staff, or the patient who booked it). */
  async cancel(ctx: SubgraphContext, id: string, reason?: string | null, opts: { staffOnly?: boolean } = {}): Promise<Appointment> {
    await writableAppointment(ctx, id, { allowPatient: !opts.staffOnly });
    const viewer = ctx.viewer!;
    return changeAppointment(ctx, id, (tx, a) => {
      a.status = APPOINTMENT.next(a.status, 'cancel');
      const now = clock.now();
      a.cancellationReason = reason?.trim() || null;
      a.statusReason = a.cancellationReason;
      a.cancelledBy = viewer.userId;
      a.cancelledAt = now;
      a.statusChangedAt = now;
      emitEvent(tx.em, 'org', APPOINTMENT_CANCELLED, {
        appointment_id: a.id,
        organization_id: a.organizationId,
        patient_id: a.patientId ?? null,
        reason: a.cancellationReason,
        cancelled_by: viewer.userId,
      });
    });
  }

  /**
   * Moves a booked or confirmed appointment to another time (and optionally another resource of the same
   * organization), checked like a new booking; staff, or the patient who booked it.
   */
  async reschedule(ctx: SubgraphContext, id: string, input: RescheduleAppointmentInput): Promise<Appointment> {
    const current = await writableAppointment(ctx, id, { allowPatient: true });
    const span = checkTimes(input.startTime, input.endTime);
    const targetId = input.resourceId ?? current.resource.id;
    if (targetId !== current.resource.id) {
      const target = await findResource(ctx, targetId);
      if (!target || target.organizationId !== current.organizationId) {
        throw errors.invalidField('resourceId', 'must be a resource of the same organization');
      }
    }
    return ctx.em.transactional(async (em) => {
      // Resources are always locked in id order, so two reschedules between the same two cannot deadlock.
      const ids = [...new Set([current.resource.id, targetId])].sort();
      const locked = new Map<string, Awaited<ReturnType<typeof lockResource>>>();
      for (const rid of ids) locked.set(rid, await lockResource(em, rid));
      const target = locked.get(targetId)!;
      const a = await em.findOneOrFail(Appointment, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!RESCHEDULABLE_STATUSES.includes(a.status)) {
        throw errors.conflict(`Cannot reschedule an appointment that is ${a.status.replace(/_/g, ' ')}`);
      }
      await checkBookable(em, target);
      await checkFree(em, target, span, a.id);
      const previous = { start: a.startTime, end: a.endTime };
      if (target.id !== a.resource.id) {
        const doctor = await doctorOf(em, target);
        a.resource = target;
        a.doctorId = doctor?.id ?? null;
        a.doctorUserId = doctor?.userId ?? null;
      }
      a.previousStartTime = previous.start;
      a.previousEndTime = previous.end;
      a.startTime = input.startTime;
      a.endTime = input.endTime;
      a.rescheduledCount += 1;
      emitEvent(em, 'org', APPOINTMENT_RESCHEDULED, {
        appointment_id: a.id,
        organization_id: a.organizationId,
        patient_id: a.patientId ?? null,
        previous_start_time: previous.start.toISOString(),
        previous_end_time: previous.end.toISOString(),
        start_time: a.startTime.toISOString(),
        end_time: a.endTime.toISOString(),
      });
      auditChange(
        ctx,
        appointmentAudit('reschedule', a, {
          previous_start_time: previous.start.toISOString(),
          previous_end_time: previous.end.toISOString(),
        }),
        em,
      );
      return a;
    });
  }

  /** Batched by request. */
  load(ctx: SubgraphContext, id: string): Promise<Appointment | null> {
    return ctx.loader<string, Appointment>('appointment', byIds(ctx.em, Appointment)).load(id);
  }

  /** A reference from another subgraph resolves only for callers who may read the appointment. */
  async resolveReference(ctx: SubgraphContext, id: string): Promise<Appointment | null> {
    if (!ctx.viewer || !isUuid(id)) return null;
    const appointment = await this.load(ctx, id);
    return appointment && mayReadAppointment(ctx.viewer, appointment) ? appointment : null;
  }

  /**
   * `patient { appointments }`: the patient's appointments under the rule of `appointments` (those the caller may
   * see), latest start first, by cursor; batched across patients.
   */
  async forPatient(ctx: SubgraphContext, patientId: string, args: ConnectionArgs): Promise<Connection<Appointment>> {
    windowOf(args);
    const viewer = requireViewer(ctx.viewer);
    const reach = appointmentReach(viewer);
    const any = [
      ...(reach.orgs.length ? ['organization_id in (?)'] : []),
      ...(reach.userId ? ['patient_user_id = ?', 'doctor_user_id = ?'] : []),
    ];
    const scope: KeysetScope | undefined = reach.all
      ? undefined
      : {
          sql: any.length ? any.join(' or ') : 'false',
          params: [...(reach.orgs.length ? [reach.orgs] : []), ...(reach.userId ? [reach.userId, reach.userId] : [])],
        };
    const connection = await keysetConnection(ctx, PATIENT_APPOINTMENTS, patientId, args, scope);
    auditRead(
      ctx,
      connection.nodes.map((a) => appointmentAudit('list', a)),
    );
    return connection;
  }

  /** The rows a viewer may list: their organizations' (appointments:read), their own as patient or doctor. */
  private scope(viewer: Viewer): ObjectQuery<Appointment> {
    const reach = appointmentReach(viewer);
    if (reach.all) return {};
    const any: ObjectQuery<Appointment>[] = [];
    if (reach.orgs.length) any.push({ organizationId: { $in: reach.orgs } });
    if (reach.userId) any.push({ patientUserId: reach.userId }, { doctorUserId: reach.userId });
    return any.length ? { $or: any } : { id: { $in: [] } };
  }
}
