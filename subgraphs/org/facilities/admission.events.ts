import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

/** An admission's moves: admitted into a room, transferred to another, discharged (with the disposition). */
const move = z.object({
  admission_id: z.uuid(),
  organization_id: z.uuid(),
  patient_id: z.uuid(),
  room_id: z.uuid(),
  /** Transfers: the room the patient left. */
  from_room_id: z.uuid().optional(),
  /** Discharges: where the patient went. */
  disposition: z.string().optional(),
  at: z.iso.datetime({ offset: true }),
  by: z.uuid(),
});

export type AdmissionEventPayload = z.infer<typeof move>;

export const PATIENT_ADMITTED = defineTopic('svc.facility.patient_admitted', 'a patient is admitted into a room', move);
export const PATIENT_TRANSFERRED = defineTopic(
  'svc.facility.patient_transferred',
  'an admitted patient moves to another room (`room_id` the new one, `from_room_id` the old)',
  move,
);
export const PATIENT_DISCHARGED = defineTopic('svc.facility.patient_discharged', 'a patient is discharged (with `disposition`)', move);
