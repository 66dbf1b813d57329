import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

const caseFields = {
  case_id: z.uuid(),
  patient_id: z.uuid(),
  organization_id: z.uuid(),
  disease_code: z.string(),
  icd10_code: z.string(),
  onset_date: z.iso.date(),
  classification: z.enum(['suspected', 'probable', 'confirmed']),
  outcome: z.string(),
  reported_by: z.uuid(),
};

export const CASE_REPORTED = defineTopic(
  'svc.public_health.case_reported',
  'a notifiable case is reported (also a repeat report, linked to the first by `primary_case_id`)',
  z.object({
    ...caseFields,
    /** The first report of the same case when this one repeats it; null for a new case. */
    primary_case_id: z.uuid().nullable(),
  }),
);

export type CaseReportedPayload = z.infer<typeof CASE_REPORTED.payload>;

export const IMMEDIATE_NOTIFICATION = defineTopic(
  'svc.public_health.immediate_notification',
  'a new case of an immediately notifiable disease (IHR Annex 2, IDSR immediate: cholera, Ebola, measles, ...) is reported',
  z.object({
    ...caseFields,
    disease_name: z.string(),
    reported_at: z.iso.datetime(),
  }),
);
