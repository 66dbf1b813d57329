import { DateTime } from 'luxon';
import { PermanentEventError, TOPICS, type ConsumerDefinition } from '../../../shared/events';
import { isUuid } from '../../../shared/model';
import { DoctorProfile } from '../doctors/doctor.entity';
import { sendMail } from '../mail/send-mail';
import { Appointment } from './appointment.entity';
import { SchedulableResource } from './resource.entity';

const MAILS: Record<string, { template: string; subject: string; says: string }> = {
  [TOPICS.appointmentBooked]: { template: 'appointment_booked', subject: 'Appointment booked', says: 'is booked' },
  [TOPICS.appointmentCancelled]: { template: 'appointment_cancelled', subject: 'Appointment cancelled', says: 'has been cancelled' },
  [TOPICS.appointmentRescheduled]: { template: 'appointment_rescheduled', subject: 'Appointment moved', says: 'has moved to this time' },
};

/** Booked, cancelled and rescheduled appointments are mailed to the patient and to the doctor. */
export const appointmentNotifications: ConsumerDefinition = {
  name: 'appointment-notifications',
  topics: Object.keys(MAILS),
  async handle(event, { em }) {
    const mail = MAILS[event.topic];
    const id = event.payload.appointment_id;
    if (!mail || !isUuid(id)) throw new PermanentEventError(`${event.topic} carries no appointment_id`);
    const appointment = await em.findOne(Appointment, { id });
    if (!appointment) throw new PermanentEventError(`appointment ${id} does not exist`);
    const resource = await em.findOneOrFail(SchedulableResource, { id: appointment.resource.id });
    const doctor = appointment.doctorId ? await em.findOne(DoctorProfile, { id: appointment.doctorId }) : null;
    const startTime = typeof event.payload.start_time === 'string' ? event.payload.start_time : appointment.startTime.toISOString();
    const local = DateTime.fromISO(startTime, { zone: resource.timeZone }).toFormat("cccc d LLLL yyyy 'at' HH:mm");
    const text =
      `The appointment of ${appointment.patientName} with ${resource.name} on ${local} (${resource.timeZone}) ${mail.says}.` +
      (appointment.cancellationReason && event.topic === TOPICS.appointmentCancelled ? `\nReason: ${appointment.cancellationReason}` : '');
    const recipients = [...new Set([appointment.patientEmail, doctor?.email].filter((e): e is string => !!e).map((e) => e.toLowerCase()))];
    for (const to of recipients) {
      await sendMail(em, { to, subject: mail.subject, text, template: mail.template, data: { appointment_id: appointment.id, start_time: startTime } }, { rethrow: true });
    }
  },
};
