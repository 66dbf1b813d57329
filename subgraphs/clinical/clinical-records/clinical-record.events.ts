import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const CLINICAL_RECORD_UPDATED = defineTopic(
  'svc.clinical.record_updated',
  'a clinical record is created, changed or deleted',
  z.object({
    record_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    changed_by: z.uuid(),
    change: z.enum(['create', 'update', 'delete']),
    version: z.int(),
    /** The fields that changed, snake_case. */
    fields: z.array(z.string()),
  }),
);
