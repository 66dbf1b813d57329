import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const CRITICAL_CARD = defineTopic(
  'svc.cds.critical_card',
  'a CDS Hooks service answers a critical card about a patient of the platform (once per finding)',
  z.object({
    alert_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    service_id: z.string(),
    hook: z.string(),
    hook_instance: z.string(),
    summary: z.string(),
    raised_by: z.uuid().nullable(),
  }),
);

export const CRITICAL_SCORE = defineTopic(
  'svc.cds.critical_score',
  'a score computed for a patient reaches its urgent threshold: NEWS2 medium or high, qSOFA 2 or more (once per score)',
  z.object({
    alert_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    score: z.enum(['news2', 'qsofa']),
    value: z.number(),
    risk: z.string(),
    summary: z.string(),
    raised_by: z.uuid().nullable(),
  }),
);

export const ADVERSE_EVENT_REPORTED = defineTopic(
  'svc.cds.adverse_event_reported',
  'a suspected adverse drug reaction is reported for a patient',
  z.object({
    adverse_event_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    suspected_drug: z.string(),
    reaction: z.string(),
    serious: z.boolean(),
    seriousness_criteria: z.array(z.string()),
    outcome: z.string(),
  }),
);
