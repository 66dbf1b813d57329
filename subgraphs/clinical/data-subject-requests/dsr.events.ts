import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const PATIENT_ERASED = defineTopic(
  'svc.patient.erased',
  "a patient's identifiers are erased (data subject request, GDPR Art. 17)",
  z.object({ patient_id: z.uuid(), organization_id: z.uuid().nullable() }),
);
