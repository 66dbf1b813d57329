import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { AppointmentRequest } from './appointment-request.entity';
import { appointmentNotifications } from './appointment.consumers';
import { Appointment } from './appointment.entity';
import { APPOINTMENT_BOOKED, APPOINTMENT_CANCELLED, APPOINTMENT_RESCHEDULED } from './appointment.events';
import {
  AppointmentRequestResolver,
  AppointmentResolver,
  AppointmentTransitionResolver,
  OrganizationAppointmentsResolver,
  PatientAppointmentsResolver,
} from './appointment.resolver';
import { ResourceResolver, ScheduleResolver } from './resource.resolver';
import { SchedulableResource, Schedule } from './resource.entity';

export default defineModule({
  name: 'scheduling',
  description:
    'Schedulable resources and their schedules, availability, appointments (public booking included), requests, the kanban board',
  entities: [SchedulableResource, Schedule, Appointment, AppointmentRequest],
  resolvers: [
    organizationField(Appointment),
    organizationField(AppointmentRequest),
    organizationField(SchedulableResource),
    organizationField(Schedule),
    userFields(Appointment, {
      bookedByUser: { id: 'bookedBy' },
      cancelledByUser: { id: 'cancelledBy' },
      doctorUser: { id: 'doctorUserId' },
      patientUser: { id: 'patientUserId' },
    }),
    userFields(AppointmentRequest, { requestedByUser: { id: 'requestedBy' }, decidedByUser: { id: 'decidedBy' } }),
    ResourceResolver,
    ScheduleResolver,
    AppointmentResolver,
    AppointmentTransitionResolver,
    AppointmentRequestResolver,
    OrganizationAppointmentsResolver,
    PatientAppointmentsResolver,
  ],
  references: { Appointment: AppointmentResolver.resolveReference },
  consumers: [appointmentNotifications],
  topics: [APPOINTMENT_BOOKED, APPOINTMENT_CANCELLED, APPOINTMENT_RESCHEDULED],
});
