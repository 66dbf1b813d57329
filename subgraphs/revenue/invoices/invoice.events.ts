import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const INVOICE_CREATED = defineTopic(
  'svc.billing.invoice_created',
  'an organization invoice is created',
  z.object({
    invoice_id: z.uuid(),
    organization_id: z.uuid(),
    patient_id: z.uuid().nullable(),
    /** A decimal string ("125.50"). */
    total_amount: z.string(),
    currency: z.string(),
  }),
);

export const INVOICE_PAID = defineTopic(
  'svc.billing.invoice_paid',
  "an organization invoice's amount due reaches zero (once per invoice)",
  z.object({
    invoice_id: z.uuid(),
    organization_id: z.uuid(),
    patient_id: z.uuid().nullable(),
    /** A decimal string ("125.50"). */
    total_amount: z.string(),
    currency: z.string(),
    paid_at: z.iso.datetime(),
  }),
);
