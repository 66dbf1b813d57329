import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

const money = { currency: z.string() };

export const CLAIM_SUBMITTED = defineTopic(
  'svc.claims.claim_submitted',
  'a claim is submitted to its payer',
  z.object({
    claim_id: z.uuid(),
    organization_id: z.uuid(),
    patient_id: z.uuid(),
    payer_id: z.uuid(),
    policy_id: z.uuid(),
    /** A decimal string ("1500.00"). */
    total_amount: z.string(),
    ...money,
    submitted_at: z.iso.datetime(),
  }),
);

export const CLAIM_ADJUDICATED = defineTopic(
  'svc.claims.claim_adjudicated',
  "the payer's decision on a claim is recorded (approved, partially approved or denied)",
  z.object({
    claim_id: z.uuid(),
    organization_id: z.uuid(),
    payer_id: z.uuid(),
    outcome: z.enum(['approved', 'partially_approved', 'denied']),
    /** A decimal string: what the payer accepts to pay. */
    approved_amount: z.string(),
    ...money,
    reason: z.string().nullable(),
  }),
);

export const CLAIM_PAID = defineTopic(
  'svc.claims.claim_paid',
  "a claim is paid (the payer's remittance, or a payment the organization recorded)",
  z.object({
    claim_id: z.uuid(),
    organization_id: z.uuid(),
    payer_id: z.uuid(),
    /** A decimal string: everything paid against the claim. */
    paid_amount: z.string(),
    /** A decimal string: what the payer had approved. */
    approved_amount: z.string(),
    ...money,
    paid_at: z.iso.datetime(),
  }),
);

export const PAYER_CLAIM_RESPONSE = defineTopic(
  'svc.payer.claim_response',
  'a payer answers about a claim (the sandbox payer here; a real payer adapter turns its clearing house messages into these): acknowledged, adjudicated or paid',
  z.object({
    claim_id: z.uuid(),
    payer_id: z.uuid(),
    kind: z.enum(['acknowledged', 'adjudicated', 'paid']),
    payer_claim_id: z.string(),
    outcome: z.enum(['approved', 'partially_approved', 'denied']).optional(),
    /** Decimal strings in the claim's currency. */
    approved_amount: z.string().optional(),
    lines: z.array(z.object({ sequence: z.number().int(), approved_amount: z.string(), reason: z.string().nullable() })).optional(),
    reason: z.string().nullable().optional(),
    paid_amount: z.string().optional(),
    payment_reference: z.string().optional(),
    ...money,
    at: z.iso.datetime(),
  }),
);

export const FRAUD_FLAGGED = defineTopic(
  'svc.claims.fraud_flagged',
  'a fraud rule flags a submitted claim',
  z.object({
    flag_id: z.uuid(),
    claim_id: z.uuid(),
    organization_id: z.uuid(),
    payer_id: z.uuid(),
    rule: z.enum(['duplicate_claim', 'amount_outlier', 'service_after_policy_end', 'unbundled_codes']),
    summary: z.string(),
  }),
);
