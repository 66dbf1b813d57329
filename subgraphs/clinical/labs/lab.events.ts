import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const LAB_RESULT_RECEIVED = defineTopic(
  'svc.lab.result_received',
  'a lab result arrives (HL7v2 ingest)',
  z.object({
    lab_result_id: z.uuid(),
    lab_order_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    test_code: z.string(),
    abnormal: z.boolean(),
    critical: z.boolean(),
  }),
);
