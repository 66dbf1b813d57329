import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { ClinicalField } from '../../../shared/clinical';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum AppointmentRequestStatus {
  pending = 'pending',
  approved = 'approved',
  rejected = 'rejected',
}
registerEnumType(AppointmentRequestStatus, {
  name: 'AppointmentRequestStatus',
  description: "Where a patient's request for an appointment is: pending, approved (an appointment was booked) or rejected",
});

/** approve: staff book the appointment it asks for. reject: staff decline it. Each happens once. */
export const APPOINTMENT_REQUEST = stateMachine<AppointmentRequestStatus, 'approve' | 'reject'>('appointment request', {
  approve: { from: [AppointmentRequestStatus.pending], to: AppointmentRequestStatus.approved },
  reject: { from: [AppointmentRequestStatus.pending], to: AppointmentRequestStatus.rejected },
});

/** A signed-in user's wish for an appointment, which the organization's staff approve (booking it) or reject. */
@ObjectType('AppointmentRequest', {
  description: 'A patient asking for an appointment at a preferred time, for staff to approve or reject',
})
@Entity({ tableName: 'appointment_requests' })
@Index({ properties: ['organizationId', 'status', 'createdAt'] })
export class AppointmentRequest extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  resourceId?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  doctorId?: string | null;

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  requestedBy!: string;

  @Field(() => ID, { nullable: true, description: "The requester's own patient profile (clinical), when they have one" })
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

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
  preferredStart!: Date;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  preferredEnd!: Date;

  @ClinicalField(() => String, { description: 'Why the patient asks to be seen' }, (r: AppointmentRequest) => ({
    organizationId: r.organizationId,
    patientId: r.patientId,
    readers: [r.requestedBy],
  }))
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => AppointmentRequestStatus)
  @Enum({ items: () => AppointmentRequestStatus })
  status: Opt<AppointmentRequestStatus> = AppointmentRequestStatus.pending;

  @Field(() => ID, { nullable: true, description: 'The appointment booked on approval' })
  @Property({ type: 'uuid', nullable: true })
  appointmentId?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  decidedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  rejectionReason?: string | null;
}
