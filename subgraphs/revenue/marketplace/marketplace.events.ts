import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

/**
 * Asks the payments module to start a mobile money payment for a supply order (emitted by checkout, in its
 * transaction). The payments module starts it with SPEC's `order_id` = `order_id`, so the client follows it at
 * `GET /api/payments/mobile-money/status/:order_id`.
 */
export const PAYMENT_REQUESTED = defineTopic(
  'svc.marketplace.payment_requested',
  'a cart checkout asks for a mobile money payment of its supply order',
  z.object({
    /** The supply order. */
    order_id: z.uuid(),
    /** The facility selling. */
    organization_id: z.uuid(),
    patient_id: z.uuid().nullable(),
    /** A decimal string with the currency's decimals ("350.00"). */
    amount: z.string(),
    currency: z.string(),
    provider: z.string(),
    /** E.164. */
    phone: z.string(),
    description: z.string(),
  }),
);

/** The topic of the payments module this module consumes, and the fields of its payload read here. */
export const PAYMENT_COMPLETED_TOPIC = 'svc.payments.payment_completed';

export const paymentCompletedPayload = z.object({
  payment_id: z.string().min(1),
  order_id: z.string(),
  provider: z.string(),
  /** A decimal amount; a string ("350.00") or a number. */
  amount: z.union([z.string(), z.number()]),
  currency: z.string(),
  purpose_type: z.enum(['invoice', 'premium', 'supply_order']).nullable(),
  purpose_id: z.string().nullable(),
  organization_id: z.string().nullable().optional(),
  completed_at: z.string(),
});
