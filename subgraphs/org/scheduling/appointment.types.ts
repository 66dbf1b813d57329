import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { PayloadOf } from '../../../shared/user-errors';
import { LocalDate } from '../../../shared/scalars';
import { IsCalendarDate, IsEmailAddress, IsPhone, IsText } from '../../../shared/validation';
import { AppointmentRequest, AppointmentRequestStatus } from './appointment-request.entity';
import { Appointment, AppointmentStatus } from './appointment.entity';
import { IsId } from './resource.types';

/** The SPEC booking body, plus `patient_id` that staff of the organization may give. */
@InputType({ description: 'The appointment to book: the resource, the time and who it is for' })
export class BookAppointmentInput {
  @Field(() => ID)
  @IsId()
  resourceId!: string;

  @Field()
  @IsText(200)
  patientName!: string;

  @Field()
  @IsEmailAddress()
  patientEmail!: string;

  @Field({ nullable: true, description: 'E.164, such as +254712345678' })
  @IsPhone()
  patientPhone?: string;

  @Field(() => Date, { description: 'ISO 8601 UTC, in the future' })
  startTime!: Date;

  @Field(() => Date, { description: 'ISO 8601 UTC, after start_time, at most 8 hours later' })
  endTime!: Date;

  @Field({ nullable: true })
  @IsText(2000)
  reason?: string;

  @Field(() => ID, { nullable: true, description: 'A patient of the organization; honoured only from staff with appointments:write' })
  @IsId()
  patientId?: string;
}

@ObjectType({ description: 'What bookAppointment answers: the appointment, or what the user must fix (a time taken, a bad field)' })
export class BookAppointmentPayload extends PayloadOf(Appointment, 'appointment') {}

@InputType({ description: 'The new time of the appointment' })
export class RescheduleAppointmentInput {
  @Field(() => Date)
  startTime!: Date;

  @Field(() => Date)
  endTime!: Date;

  @Field(() => ID, { nullable: true, description: 'Another resource of the same organization' })
  @IsId()
  resourceId?: string;
}

@ObjectType({
  description:
    'What rescheduleAppointment answers: the moved appointment, or what the user must fix (a time taken, a visit under way, a bad field)',
})
export class RescheduleAppointmentPayload extends PayloadOf(Appointment, 'appointment') {}

@ArgsType()
export class AppointmentListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's; all the caller may see when omitted" })
  @IsId()
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: "Only this resource's; every resource when omitted" })
  @IsId()
  resourceId?: string;

  @Field(() => AppointmentStatus, { nullable: true, description: 'Only appointments in this status; every status when omitted' })
  status?: AppointmentStatus;

  @Field(() => LocalDate, { nullable: true, description: "YYYY-MM-DD, in each resource's time zone" })
  @IsCalendarDate()
  date?: string;

  @Field(() => Date, { nullable: true, description: 'Starting at or after this instant' })
  from?: Date;

  @Field(() => Date, { nullable: true, description: 'Starting before this instant' })
  to?: Date;

  @Field(() => ID, { nullable: true, description: "Only this patient's; every patient the caller may see when omitted" })
  @IsId()
  patientId?: string;
}

@ObjectType()
export class AppointmentPage extends PageOf(Appointment) {}

@ObjectType({ description: 'Appointments by cursor, latest start first' })
export class AppointmentConnection extends ConnectionOf(Appointment, 'Appointment') {}

@ArgsType()
export class KanbanArgs {
  @Field(() => LocalDate, { description: "YYYY-MM-DD, in each resource's time zone" })
  @IsCalendarDate()
  date!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'One organization (appointments:read); every organization where the caller reads appointments when omitted',
  })
  @IsId()
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: "Only this resource's appointments; every resource when omitted" })
  @IsId()
  resourceId?: string;
}

@ObjectType({ description: 'The appointments of one status' })
export class KanbanColumn {
  @Field(() => AppointmentStatus)
  status!: AppointmentStatus;

  @Field(() => Int)
  count!: number;

  @Field(() => [Appointment], { description: 'By start time' })
  appointments!: Appointment[];
}

@ObjectType({ description: "A day's appointments in one column per status" })
export class AppointmentKanban {
  @Field(() => LocalDate)
  date!: string;

  @Field(() => [KanbanColumn], { description: 'One column per status, always in the same order' })
  columns!: KanbanColumn[];
}

@InputType({ description: 'The appointment asked for: the resource or doctor, the preferred time and the reason' })
export class CreateAppointmentRequestInput {
  @Field(() => ID, { nullable: true, description: 'The resource wanted; or give doctor_id' })
  @IsId()
  resourceId?: string;

  @Field(() => ID, { nullable: true, description: 'The doctor wanted, when no resource is named' })
  @IsId()
  doctorId?: string;

  @Field(() => ID, { nullable: true, description: 'Needed with doctor_id when the doctor works in several organizations' })
  @IsId()
  organizationId?: string;

  @Field(() => Date, { nullable: true, description: 'Required: the start wanted' })
  preferredStart?: Date;

  @Field(() => Date, { nullable: true, description: 'Required: the end wanted' })
  preferredEnd?: Date;

  @Field({ nullable: true })
  @IsText(2000)
  reason?: string;

  @Field({ nullable: true, description: "The caller's name when omitted" })
  @IsText(200)
  patientName?: string;

  @Field({ nullable: true, description: "The caller's email when omitted" })
  @IsEmailAddress()
  patientEmail?: string;

  @Field({ nullable: true })
  @IsPhone()
  patientPhone?: string;
}

@ArgsType()
export class AppointmentRequestListArgs extends PageArgs {
  @Field(() => AppointmentRequestStatus, { nullable: true, description: 'pending when omitted' })
  status?: AppointmentRequestStatus;

  @Field(() => ID, { nullable: true, description: 'Only requests to this organization; all the caller may see when omitted' })
  @IsId()
  organizationId?: string;
}

@ObjectType()
export class AppointmentRequestPage extends PageOf(AppointmentRequest) {}
