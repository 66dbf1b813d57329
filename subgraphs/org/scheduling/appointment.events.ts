import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

const instant = z.iso.datetime({ offset: true });

export const APPOINTMENT_BOOKED = defineTopic(
  'svc.scheduling.appointment_booked',
  'an appointment is booked (confirmed)',
  z.object({
    appointment_id: z.uuid(),
    resource_id: z.uuid(),
    organization_id: z.uuid(),
    patient_id: z.uuid().nullable(),
    start_time: instant,
    end_time: instant,
    status: z.string(),
  }),
);

export const APPOINTMENT_CANCELLED = defineTopic(
  'svc.scheduling.appointment_cancelled',
  'an appointment is cancelled',
  z.object({
    appointment_id: z.uuid(),
    organization_id: z.uuid(),
    patient_id: z.uuid().nullable(),
    reason: z.string().nullable(),
    cancelled_by: z.uuid(),
  }),
);

export const APPOINTMENT_RESCHEDULED = defineTopic(
  'svc.scheduling.appointment_rescheduled',
  "an appointment's time changes",
  z.object({
    appointment_id: z.uuid(),
    organization_id: z.uuid(),
    patient_id: z.uuid().nullable(),
    previous_start_time: instant,
    previous_end_time: instant,
    start_time: instant,
    end_time: instant,
  }),
);
