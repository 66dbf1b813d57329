import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import { byIds, PageArgs } from '../../../shared/model';
import { Organization } from '../organizations/organization.entity';
import { ref } from '../../../shared/refs';
import { OrgPatient } from '../patient';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DoctorProfile } from '../doctors/doctor.entity';
import { DoctorService } from '../doctors/doctor.service';
import { AppointmentRequest } from './appointment-request.entity';
import { AppointmentRequestService } from './appointment-request.service';
import { Appointment, AppointmentStatus } from './appointment.entity';
import { AppointmentService } from './appointment.service';
import {
  AppointmentConnection,
  AppointmentKanban,
  AppointmentListArgs,
  AppointmentPage,
  AppointmentRequestListArgs,
  AppointmentRequestPage,
  BookAppointmentInput,
  CreateAppointmentRequestInput,
  KanbanArgs,
  RescheduleAppointmentInput,
} from './appointment.types';
import { SchedulableResource } from './resource.entity';
import { ResourceService } from './resource.service';

@Resolver(() => Appointment)
export class AppointmentResolver {
  private readonly service = new AppointmentService();
  private readonly resources = new ResourceService();

  @Public()
  @Mutation(() => Appointment, { description: 'Book an appointment (public); 409 when the time is taken' })
  bookAppointment(@Arg('input') input: BookAppointmentInput, @Ctx() ctx: SubgraphContext) {
    return this.service.book(ctx, input);
  }

  @Query(() => AppointmentPage, {
    description: "Appointments the caller may see (staff: their organizations'; patients and doctors: their own), by start time",
  })
  appointments(@Args() args: AppointmentListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Appointment, {
    nullable: true,
    description: 'An appointment, for its patient, doctor or organization staff; NOT_FOUND otherwise',
  })
  appointment(@Arg('id', () => ID, { description: 'The appointment' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Query(() => AppointmentKanban, { description: "A day's appointments in one column per status (staff)" })
  appointmentKanban(@Args() args: KanbanArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.kanban(ctx, args);
  }

  @Mutation(() => Appointment, { description: 'Move an appointment to a status (staff); 409 when the move is not allowed' })
  updateAppointmentStatus(
    @Arg('id', () => ID, { description: 'The appointment' }) id: string,
    @Arg('status', () => AppointmentStatus) status: AppointmentStatus,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.updateStatus(ctx, id, status, reason);
  }

  @Mutation(() => Appointment, { description: 'Cancel an appointment (staff, or its patient)' })
  cancelAppointment(
    @Arg('id', () => ID, { description: 'The appointment' }) id: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.cancel(ctx, id, reason);
  }

  @Mutation(() => Appointment, { description: 'Move a booked or confirmed appointment to another time (staff, or its patient)' })
  rescheduleAppointment(
    @Arg('id', () => ID, { description: 'The appointment' }) id: string,
    @Arg('input') input: RescheduleAppointmentInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reschedule(ctx, id, input);
  }

  @FieldResolver(() => ID)
  resourceId(@Root() appointment: Appointment): string {
    return appointment.resource.id;
  }

  @FieldResolver(() => SchedulableResource, { description: 'The resource booked' })
  resource(@Root() appointment: Appointment, @Ctx() ctx: SubgraphContext) {
    return this.resources.load(ctx, appointment.resource.id);
  }

  @FieldResolver(() => DoctorProfile, { nullable: true, description: 'The doctor of a doctor resource' })
  doctor(@Root() appointment: Appointment, @Ctx() ctx: SubgraphContext) {
    if (!appointment.doctorId) return null;
    return ctx.loader<string, DoctorProfile>('doctor-profile', byIds(ctx.em, DoctorProfile)).load(appointment.doctorId);
  }

  @FieldResolver(() => OrgPatient, { nullable: true, description: 'The clinical patient, for callers who may see them' })
  patient(@Root() appointment: Appointment) {
    return ref(appointment.patientId);
  }

  static resolveReference(reference: { id: string }, ctx: SubgraphContext) {
    return new AppointmentService().resolveReference(ctx, reference.id);
  }
}

@Resolver(() => AppointmentRequest)
export class AppointmentRequestResolver {
  private readonly service = new AppointmentRequestService();
  private readonly appointments = new AppointmentService();
  private readonly resources = new ResourceService();

  @Mutation(() => AppointmentRequest, { description: 'Ask for an appointment with a resource or a doctor (signed-in users)' })
  createAppointmentRequest(
    @Arg('input', { description: 'The fields of the new appointment request' }) input: CreateAppointmentRequestInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => AppointmentRequestPage, {
    description: "Requests of the caller's organizations (staff) and the caller's own; pending unless asked",
  })
  appointmentRequests(@Args() args: AppointmentRequestListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => AppointmentRequest, {
    nullable: true,
    description: 'An appointment request, for the patient who asked or organization staff; NOT_FOUND otherwise',
  })
  appointmentRequest(@Arg('id', () => ID, { description: 'The appointment request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => AppointmentRequest, {
    description: 'Book the appointment a request asks for (or at the time and resource given) and approve it',
  })
  approveAppointmentRequest(
    @Arg('id', () => ID, { description: 'The appointment request' }) id: string,
    @Arg('startTime', () => Date, { nullable: true }) startTime: Date | null,
    @Arg('endTime', () => Date, { nullable: true }) endTime: Date | null,
    @Arg('resourceId', () => ID, { nullable: true, description: 'The resource' }) resourceId: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.approve(ctx, id, { startTime, endTime, resourceId });
  }

  @Mutation(() => AppointmentRequest, { description: 'Reject a pending appointment request (appointments:write)' })
  rejectAppointmentRequest(
    @Arg('id', () => ID, { description: 'The appointment request' }) id: string,
    @Arg('reason', () => String, { nullable: true, description: 'Why, shown to the patient' }) reason: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reject(ctx, id, reason);
  }

  @FieldResolver(() => Appointment, { nullable: true, description: 'The appointment booked on approval' })
  appointment(@Root() request: AppointmentRequest, @Ctx() ctx: SubgraphContext) {
    return request.appointmentId ? this.appointments.load(ctx, request.appointmentId) : null;
  }

  @FieldResolver(() => SchedulableResource, { nullable: true, description: 'The resource asked for, when one was' })
  resource(@Root() request: AppointmentRequest, @Ctx() ctx: SubgraphContext) {
    return request.resourceId ? this.resources.load(ctx, request.resourceId) : null;
  }

  @FieldResolver(() => DoctorProfile, { nullable: true, description: 'The doctor asked for, under the rule of doctor(id)' })
  doctor(@Root() request: AppointmentRequest, @Ctx() ctx: SubgraphContext) {
    return request.doctorId ? new DoctorService().reference(ctx, request.doctorId) : null;
  }

  @FieldResolver(() => OrgPatient, { nullable: true, description: 'The clinical patient, for callers who may see them' })
  patient(@Root() request: AppointmentRequest) {
    return ref(request.patientId);
  }
}

/** `organization { appointments }`: the rule of `appointments(organizationId)`, one organization per call. */
@Resolver(() => Organization)
export class OrganizationAppointmentsResolver {
  private readonly service = new AppointmentService();

  @FieldResolver(() => AppointmentPage, {
    nullable: true,
    description: "The organization's appointments the caller may see, by start time; as appointments(organizationId)",
  })
  appointments(@Root() org: Organization, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, Object.assign(new AppointmentListArgs(), args, { organizationId: org.id }));
  }
}

/** `patient { appointments }`: the rule of `appointments` (the ones the caller may see), batched across patients. */
@Resolver(() => OrgPatient)
export class PatientAppointmentsResolver {
  private readonly service = new AppointmentService();

  @FieldResolver(() => AppointmentConnection, {
    nullable: true,
    description:
      "The patient's appointments the caller may see (staff: their organizations'; the patient and their doctor: their own), latest start first, by cursor",
  })
  appointments(@Root() patient: OrgPatient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.forPatient(ctx, patient.id, args);
  }
}
