import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { errors } from '../../../shared/errors';
import { ClinicalField } from '../../../shared/clinical';
import { BaseRecord, isUuid } from '../../../shared/model';
import { can, canSeeOrganization, requireViewer } from '../../../shared/permissions';
import { stateMachine } from '../../../shared/state-machine';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { SchedulableResource } from './resource.entity';
import { auditRead, type AuditEntry } from '../../../shared/audit/audit-trail';

export enum AppointmentStatus {
  booked = 'booked',
  confirmed = 'confirmed',
  checked_in = 'checked_in',
  in_progress = 'in_progress',
  completed = 'completed',
  cancelled = 'cancelled',
  no_show = 'no_show',
}
registerEnumType(AppointmentStatus, {
  name: 'AppointmentStatus',
  description: 'Where an appointment is in its life, from booked to completed, cancelled or no-show',
});

/** Every status in the order of a day's work (the kanban columns). */
export const APPOINTMENT_STATUSES = Object.values(AppointmentStatus);

/** Appointments that no longer hold their time: the slot is free again. */
export const RELEASED_STATUSES = [AppointmentStatus.cancelled, AppointmentStatus.no_show];

/** Appointments that may move to another time; their status stays as it is. */
export const RESCHEDULABLE_STATUSES = [AppointmentStatus.booked, AppointmentStatus.confirmed];

export type AppointmentAction = 'confirm' | 'check_in' | 'start' | 'complete' | 'cancel' | 'no_show';

/**
 * booked → confirmed → checked_in → in_progress → completed (a patient who arrives without confirming is checked in
 * straight from booked); cancel before the visit starts; no_show when the
 * patient never arrived (booked or confirmed).
 */
export const APPOINTMENT = stateMachine<AppointmentStatus, AppointmentAction>('appointment', {
  confirm: { from: [AppointmentStatus.booked], to: AppointmentStatus.confirmed },
  check_in: { from: [AppointmentStatus.booked, AppointmentStatus.confirmed], to: AppointmentStatus.checked_in },
  start: { from: [AppointmentStatus.checked_in], to: AppointmentStatus.in_progress },
  complete: { from: [AppointmentStatus.in_progress], to: AppointmentStatus.completed },
  cancel: { from: [AppointmentStatus.booked, AppointmentStatus.confirmed, AppointmentStatus.checked_in], to: AppointmentStatus.cancelled },
  no_show: { from: [AppointmentStatus.booked, AppointmentStatus.confirmed], to: AppointmentStatus.no_show },
});

/** A booked time on a schedulable resource. */
@ObjectType('Appointment')
@Directive('@key(fields: "id")')
@Entity({ tableName: 'appointments' })
@Index({ properties: ['resource', 'startTime'] })
@Index({ properties: ['organizationId', 'startTime'] })
export class Appointment extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @ManyToOne(() => SchedulableResource)
  resource!: SchedulableResource;

  @Field(() => ID, { nullable: true, description: 'The doctor profile of a doctor resource' })
  @Property({ type: 'uuid', nullable: true })
  doctorId?: string | null;

  @Field(() => ID, { nullable: true, description: "The doctor's user id, as it was at booking" })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  doctorUserId?: string | null;

  @Field(() => ID, { nullable: true, description: "The clinical patient: the one staff named, or the booker's own patient profile" })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The user who booked for themselves' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  patientUserId?: string | null;

  @Field()
  @Property({ type: 'text' })
  patientName!: string;

  @Field()
  @Property({ type: 'text' })
  patientEmail!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  patientPhone?: string | null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  startTime!: Date;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  endTime!: Date;

  @ClinicalField(() => String, { description: 'Why the patient is to be seen' }, (a: Appointment) => ({
    organizationId: a.organizationId,
    patientId: a.patientId,
    readers: [a.patientUserId, a.doctorUserId],
  }))
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => AppointmentStatus)
  @Enum({ items: () => AppointmentStatus })
  status: Opt<AppointmentStatus> = AppointmentStatus.booked;

  @Field(() => String, { nullable: true, description: 'Reason given with the last status change' })
  @Property({ type: 'text', nullable: true })
  statusReason?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  statusChangedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who booked it; null for an anonymous booking' })
  @Property({ type: 'uuid', nullable: true })
  bookedBy?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  cancellationReason?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Start time before the last reschedule' })
  @Property({ type: 'timestamptz', nullable: true })
  previousStartTime?: Date | null;

  @Field(() => Date, { nullable: true, description: 'End time before the last reschedule' })
  @Property({ type: 'timestamptz', nullable: true })
  previousEndTime?: Date | null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  rescheduledCount: Opt<number> = 0;
}

/** Whether the viewer reads the appointment: staff with appointments:read, its patient, its doctor. */
export function mayReadAppointment(viewer: Viewer, a: Appointment): boolean {
  if (can(viewer, 'appointments:read', a.organizationId)) return true;
  return !viewer.apiKey && !viewer.system && (a.patientUserId === viewer.userId || a.doctorUserId === viewer.userId);
}

/**
 * An appointment the caller may read: staff of its organization holding `appointments:read`, the patient who
 * booked it, the doctor it is with. Other members of the organization get 403, everyone else 404.
 */
/** An appointment carries a patient's name and contact details: every read and change of one is audited. */
export const appointmentAudit = (action: string, a: Appointment, details: Record<string, unknown> = {}): AuditEntry => ({
  action,
  resourceType: 'appointment',
  resourceId: a.id,
  patientId: a.patientId ?? null,
  organizationId: a.organizationId,
  details,
});

export async function readableAppointment(ctx: SubgraphContext, id: string): Promise<Appointment> {
  const viewer = requireViewer(ctx.viewer);
  const appointment = isUuid(id) ? await ctx.em.findOne(Appointment, { id }) : null;
  if (!appointment) throw errors.notFound('Appointment');
  if (mayReadAppointment(viewer, appointment)) {
    auditRead(ctx, appointmentAudit('read', appointment));
    return appointment;
  }
  if (canSeeOrganization(viewer, appointment.organizationId)) throw errors.forbidden();
  throw errors.notFound('Appointment');
}
