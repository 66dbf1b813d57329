import type { EntityManager } from '../../../shared/db';
import { emitEvent } from '../../../shared/outbox';
import { Payment } from './payment.entity';
import { PAYMENT_RECEIVED } from './payment.events';

export type PaymentFields = Pick<Payment, 'organizationId' | 'method' | 'amount' | 'currency' | 'receivedAt'> &
  Partial<
    Pick<Payment, 'patientId' | 'invoiceId' | 'claimId' | 'mobileMoneyPaymentId' | 'reference' | 'payerName' | 'recordedBy' | 'notes'>
  >;

/** Writes a payment the organization received, with its `payment_received` event, in the caller's transaction. */
export function recordPayment(em: EntityManager, fields: PaymentFields): Payment {
  const payment = em.create(Payment, {
    patientId: null,
    invoiceId: null,
    claimId: null,
    mobileMoneyPaymentId: null,
    reference: null,
    payerName: null,
    recordedBy: null,
    notes: null,
    ...fields,
  });
  emitEvent(em, 'revenue', PAYMENT_RECEIVED, {
    payment_id: payment.id,
    organization_id: payment.organizationId,
    method: payment.method,
    amount: payment.amount,
    currency: payment.currency,
    invoice_id: payment.invoiceId ?? null,
    claim_id: payment.claimId ?? null,
    received_at: payment.receivedAt.toISOString(),
  });
  return payment;
}
