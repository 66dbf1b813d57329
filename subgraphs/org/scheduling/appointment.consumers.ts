import { DateTime } from 'luxon';
import { PermanentEventError, type ConsumerDefinition } from '../../../shared/events';
import { APPOINTMENT_BOOKED, APPOINTMENT_CANCELLED, APPOINTMENT_RESCHEDULED } from './appointment.events';
import { isUuid } from '../../../shared/model';
import { DoctorProfile } from '../doctors/doctor.entity';
import { queueMail } from '../mail/queue-mail';
import { Appointment } from './appointment.entity';
import { SchedulableResource } from './resource.entity';

const MAILS: Record<string, { template: string; subject: string; says: string }> = {
  [APPOINTMENT_BOOKED.name]: { template: 'appointment_booked', subject: 'Appointment booked', says: 'is booked' },
  [APPOINTMENT_CANCELLED.name]: { template: 'appointment_cancelled', subject: 'Appointment cancelled', says: 'has been cancelled' },
  [APPOINTMENT_RESCHEDULED.name]: { template: 'appointment_rescheduled', subject: 'Appointment moved', says: 'has moved to this time' },
};

/**
 * Booked, cancelled and rescheduled appointments are mailed to the patient and to the doctor: queued under the event
 * and the recipient, so however often the event is applied each mail is sent once (the mail module's sender).
 */
export const appointmentNotifications: ConsumerDefinition = {
  name: 'appointment-notifications',
  description: 'mails the patient and the doctor',
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
      (appointment.cancellationReason && event.topic === APPOINTMENT_CANCELLED.name ? `\nReason: ${appointment.cancellationReason}` : '');
    const recipients = [...new Set([appointment.patientEmail, doctor?.email].filter((e): e is string => !!e).map((e) => e.toLowerCase()))];
    for (const to of recipients) {
      await queueMail(em, `${event.id}:${to}`, {
        to,
        subject: mail.subject,
        text,
        template: mail.template,
        data: { appointment_id: appointment.id, start_time: startTime },
      });
    }
  },
};
