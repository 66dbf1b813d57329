import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const PRESCRIPTION_CREATED = defineTopic(
  'svc.clinical.prescription_created',
  'a prescription is created',
  z.object({
    prescription_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    prescriber_id: z.uuid(),
    medication: z.string(),
  }),
);
