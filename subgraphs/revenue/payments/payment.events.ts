import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

const purpose = z.enum(['invoice', 'premium', 'supply_order']).nullable();

export const PAYMENT_INITIATED = defineTopic(
  'svc.payments.payment_initiated',
  'a mobile money payment is created, pending (its request goes to the provider from the bus)',
  z.object({
    payment_id: z.uuid(),
    order_id: z.string(),
    provider: z.string(),
    /** A decimal string ("1500.00"). */
    amount: z.string(),
    currency: z.string(),
    purpose_type: purpose,
    purpose_id: z.uuid().nullable(),
    organization_id: z.uuid().nullable(),
  }),
);

export const PAYMENT_COMPLETED = defineTopic(
  'svc.payments.payment_completed',
  'a mobile money payment completes (what it paid, an invoice or a premium, is marked paid in the same transaction)',
  z.object({
    payment_id: z.uuid(),
    order_id: z.string(),
    provider: z.string(),
    /** A decimal string ("1500.00"). */
    amount: z.string(),
    currency: z.string(),
    purpose_type: purpose,
    purpose_id: z.uuid().nullable(),
    organization_id: z.uuid().nullable(),
    completed_at: z.iso.datetime(),
  }),
);

export const PAYMENT_FAILED = defineTopic(
  'svc.payments.payment_failed',
  'a mobile money payment fails or times out',
  z.object({
    payment_id: z.uuid(),
    order_id: z.string(),
    provider: z.string(),
    /** A decimal string ("1500.00"). */
    amount: z.string(),
    currency: z.string(),
    purpose_type: purpose,
    purpose_id: z.uuid().nullable(),
    organization_id: z.uuid().nullable(),
    state: z.enum(['failed', 'timeout']),
    reason: z.string(),
    completed_at: z.iso.datetime(),
  }),
);

export const PAYMENT_RECEIVED = defineTopic(
  'svc.payments.payment_received',
  "an organization receives a payment: recorded at the desk, a completed mobile money payment, or a payer's remittance for a claim",
  z.object({
    payment_id: z.uuid(),
    organization_id: z.uuid(),
    method: z.string(),
    /** A decimal string ("1500.00"). */
    amount: z.string(),
    currency: z.string(),
    invoice_id: z.uuid().nullable(),
    claim_id: z.uuid().nullable(),
    received_at: z.iso.datetime(),
  }),
);
