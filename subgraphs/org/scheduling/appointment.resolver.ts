import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import { byIds, PageArgs } from '../../../shared/model';
import { Organization } from '../organizations/organization.entity';
import { ref } from '../../../shared/refs';
import { OrgPatient } from '../patient';
import { Public } from '../../../shared/public';
import { transitionResolver } from '../../../shared/transitions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { DoctorProfile } from '../doctors/doctor.entity';
import { DoctorService } from '../doctors/doctor.service';
import { AppointmentRequest } from './appointment-request.entity';
import { AppointmentRequestService } from './appointment-request.service';
import { APPOINTMENT, Appointment } from './appointment.entity';
import { AppointmentService } from './appointment.service';
import {
  AppointmentConnection,
  AppointmentKanban,
  AppointmentListArgs,
  AppointmentPage,
  AppointmentRequestListArgs,
  AppointmentRequestPage,
  BookAppointmentInput,
  BookAppointmentPayload,
  CreateAppointmentRequestInput,
  KanbanArgs,
  RescheduleAppointmentInput,
  RescheduleAppointmentPayload,
} from './appointment.types';
import { SchedulableResource } from './resource.entity';
import { ResourceService } from './resource.service';

@Resolver(() => Appointment)
export class AppointmentResolver {
  private readonly service = new AppointmentService();
  private readonly resources = new ResourceService();

  @Public()
  @PayloadMutation(BookAppointmentPayload, { description: 'Book an appointment (public); a time taken or a bad field is a user error' })
  bookAppointment(@Arg('input', { description: 'The appointment to book' }) input: BookAppointmentInput, @Ctx() ctx: SubgraphContext) {
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

  @Mutation(() => Appointment, { description: 'Cancel an appointment (staff, or its patient)' })
  cancelAppointment(
    @Arg('id', () => ID, { description: 'The appointment' }) id: string,
    @Arg('reason', () => String, { nullable: true, description: 'Why; optional' }) reason: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.cancel(ctx, id, reason);
  }

  @PayloadMutation(RescheduleAppointmentPayload, {
    description: 'Move a booked or confirmed appointment to another time (staff, or its patient); a time taken is a user error',
  })
  rescheduleAppointment(
    @Arg('id', () => ID, { description: 'The appointment' }) id: string,
    @Arg('input', { description: 'The new start and end time, and optionally another resource' }) input: RescheduleAppointmentInput,
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
    @Arg('startTime', () => Date, {
      nullable: true,
      description: 'When the appointment starts; the preferred start asked for when omitted',
    })
    startTime: Date | null,
    @Arg('endTime', () => Date, { nullable: true, description: 'When the appointment ends; the preferred end asked for when omitted' })
    endTime: Date | null,
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

/** One mutation per move of an appointment's day (staff); cancelling is `cancelAppointment`, open to its patient too. */
export const AppointmentTransitionResolver = transitionResolver({
  type: () => Appointment,
  machine: APPOINTMENT,
  run: (ctx, args, action) => new AppointmentService().transition(ctx, args, action),
  mutations: {
    confirm: { name: 'confirmAppointment', description: 'Confirm a booked appointment (staff); 409 from any other status' },
    check_in: { name: 'checkInAppointment', description: 'Check the patient in for a booked or confirmed appointment (staff)' },
    start: { name: 'startAppointment', description: 'Start the visit of a checked-in appointment (staff)' },
    complete: { name: 'completeAppointment', description: 'Complete an appointment in progress (staff)' },
    no_show: {
      name: 'markAppointmentNoShow',
      description: 'Mark a booked or confirmed appointment a no-show: the patient never came (staff)',
    },
  },
});

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
