import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const NOTE_SIGNED = defineTopic(
  'svc.clinical.note_signed',
  'a clinical note is signed (an addendum names the note it amends)',
  z.object({
    note_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    signed_by: z.uuid(),
    version: z.int(),
    format: z.enum(['soap', 'free_text']),
    addendum_to_id: z.uuid().nullable(),
  }),
);
