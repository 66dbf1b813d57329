import { PermanentEventError, webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { clock } from '../../../shared/clock';
import { logger } from '../../../shared/logger';
import { webhookBody } from '../../../shared/webhook-body';
import { MobileMoneyPayment, MobileMoneyState } from './payment.entity';
import { PAYMENT_INITIATED } from './payment.events';
import { initiateForSupplyOrder, PAYMENT_REQUESTED_TOPIC, paymentRequested, sendToProvider, settle } from './mobile-money.service';
import { mobileMoneyAdapter } from './providers/sandbox';
import { readCallback } from './providers/shapes';

/** Sends a new payment's request to its provider when it was not sent yet (a supply order's, or one initiate could not send). */
export const mobileMoneyRequests: ConsumerDefinition = {
  name: 'mobile-money-requests',
  description: "sends a new mobile money payment's request to its provider (STK push, request-to-pay) unless it was sent already",
  topics: [PAYMENT_INITIATED.name],
  async handle(event, { em }) {
    await sendToProvider(em, String(event.payload.payment_id ?? ''));
  },
};

function callbackConsumer(channel: 'mobile_money_a' | 'mobile_money_b'): ConsumerDefinition {
  return {
    name: `${channel.replace(/_/g, '-')}-callbacks`,
    description:
      "settles the payment a provider's callback names, after asking the provider for its status (the first final answer wins; duplicates change nothing)",
    topics: [webhookTopic(channel)],
    async handle(event, { em }) {
      const { body } = webhookBody(event);
      const report = readCallback(channel, body);
      if (!report) throw new PermanentEventError(`not a mobile money callback of a provider on ${channel}`);
      const payment = report.paymentId
        ? await em.findOne(MobileMoneyPayment, { id: report.paymentId, provider: report.provider })
        : await em.findOne(MobileMoneyPayment, { provider: report.provider, providerReference: report.providerReference });
      // A callback may beat the commit of its payment's provider reference: retried, then dead-lettered.
      if (!payment) throw new Error(`no ${report.provider} payment matches the callback (${report.paymentId ?? report.providerReference})`);
      if (payment.state !== MobileMoneyState.pending || report.state === MobileMoneyState.pending) return;
      // Callbacks are not signed by real providers: what the provider answers about the payment is what counts.
      const answer = await mobileMoneyAdapter(payment.provider).queryStatus(payment);
      if (answer.state !== report.state) {
        logger.warn(
          { paymentId: payment.id, callback: report.state, provider: answer.state },
          'a mobile money callback the provider does not confirm; the status job asks again later',
        );
        return;
      }
      // The callback carries the provider's own words and receipt; the status query, the state.
      await settle(
        em,
        payment.id,
        { ...answer, receipt: report.receipt ?? answer.receipt, reason: report.reason ?? answer.reason },
        clock.now(),
      );
    },
  };
}

export const mobileMoneyACallbacks = callbackConsumer('mobile_money_a');
export const mobileMoneyBCallbacks = callbackConsumer('mobile_money_b');

/** The supply marketplace's checkout asks for a mobile money payment (its topic is declared in its module). */
export const supplyOrderPayments: ConsumerDefinition = {
  name: 'checkout-payment-requests',
  description: "starts the mobile money payment a supply order's checkout asks for, as `initiate` would (purpose supply_order)",
  topics: [PAYMENT_REQUESTED_TOPIC],
  async handle(event, { em }) {
    const parsed = paymentRequested.safeParse(event.payload);
    if (!parsed.success)
      throw new PermanentEventError(
        `not a payment request: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    await initiateForSupplyOrder(em, parsed.data);
  },
};
