import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const PATIENT_CREATED = defineTopic(
  'svc.patient.created',
  'a patient profile is created',
  z.object({ patient_id: z.uuid(), organization_id: z.uuid().nullable() }),
);

export const PATIENT_UPDATED = defineTopic(
  'svc.patient.updated',
  "a patient profile's fields change",
  z.object({ patient_id: z.uuid(), organization_id: z.uuid().nullable(), fields: z.array(z.string()) }),
);
