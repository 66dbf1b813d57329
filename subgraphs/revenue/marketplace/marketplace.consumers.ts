import { AppError } from '../../../shared/errors';
import { PermanentEventError, type ConsumerDefinition } from '../../../shared/events';
import { logger } from '../../../shared/logger';
import { isUuid } from '../../../shared/model';
import { PAYMENT_COMPLETED_TOPIC, paymentCompletedPayload } from './marketplace.events';
import { applyPayment } from './order.service';

/**
 * The payments module's completed payments whose purpose is a supply order (`purpose_type` supply_order,
 * `purpose_id` the order) mark the order paid, once. Payments for other purposes are not ours. A payment that can
 * never apply (no such order, a different amount) goes to the dead letter queue for an operator.
 */
export const supplyOrderPayments: ConsumerDefinition = {
  name: 'supply-order-payments',
  description: 'marks a supply order paid when its mobile money payment completes',
  topics: [PAYMENT_COMPLETED_TOPIC],
  async handle(event, { em }) {
    const parsed = paymentCompletedPayload.safeParse(event.payload);
    if (!parsed.success) {
      throw new PermanentEventError(
        `not a completed payment: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    }
    const p = parsed.data;
    if (p.purpose_type !== 'supply_order') return;
    if (!isUuid(p.purpose_id)) throw new PermanentEventError(`payment ${p.payment_id} names no supply order (${p.purpose_id ?? 'none'})`);
    const completedAt = new Date(p.completed_at);
    try {
      const outcome = await applyPayment(em, {
        orderId: p.purpose_id,
        paymentId: p.payment_id,
        amount: String(p.amount),
        currency: p.currency,
        completedAt: Number.isNaN(completedAt.getTime()) ? new Date(event.timestamp) : completedAt,
      });
      logger.info({ order: p.purpose_id, payment: p.payment_id, outcome }, 'supply order payment applied');
    } catch (err) {
      if (err instanceof RangeError || err instanceof AppError) {
        throw new PermanentEventError((err as Error).message);
      }
      throw err;
    }
  },
};
