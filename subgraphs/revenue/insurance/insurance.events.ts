import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const POLICY_ENROLLED = defineTopic(
  'svc.insurance.policy_enrolled',
  'a patient is enrolled in a plan (the policy waits for its first premium)',
  z.object({
    policy_id: z.uuid(),
    plan_id: z.uuid(),
    payer_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    /** A decimal string ("1500.00"). */
    premium_amount: z.string(),
    currency: z.string(),
  }),
);

export const POLICY_ACTIVATED = defineTopic(
  'svc.insurance.policy_activated',
  "a policy's first premium is paid and its cover starts",
  z.object({
    policy_id: z.uuid(),
    plan_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    start_date: z.iso.date(),
    end_date: z.iso.date(),
    payment_id: z.uuid().nullable(),
  }),
);
