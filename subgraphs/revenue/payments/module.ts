import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { MobileMoneyPayment, Payment } from './payment.entity';
import { PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_INITIATED, PAYMENT_RECEIVED } from './payment.events';
import { mobileMoneyACallbacks, mobileMoneyBCallbacks, mobileMoneyRequests, supplyOrderPayments } from './payment.consumers';
import { mobileMoneyStatusJob } from './payment.jobs';
import { InvoicePaymentsResolver, MobileMoneyPaymentResolver, PaymentResolver, PolicyPremiumResolver } from './payment.resolver';

export default defineModule({
  name: 'payments',
  description:
    'Payments organizations receive, and mobile money for three providers (shaped after M-Pesa STK push, MTN MoMo request-to-pay, Airtel Money collections): pending → completed | failed | timeout, by signed callbacks confirmed with the provider and a status job',
  entities: [Payment, MobileMoneyPayment],
  resolvers: [
    referenceFields(Payment, { recordedByUser: { id: 'recordedBy', type: 'User' } }),
    referenceFields(MobileMoneyPayment, { initiatedByUser: { id: 'initiatedBy', type: 'User' } }),
    PaymentResolver,
    MobileMoneyPaymentResolver,
    InvoicePaymentsResolver,
    PolicyPremiumResolver,
  ],
  topics: [PAYMENT_INITIATED, PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_RECEIVED],
  consumers: [mobileMoneyRequests, mobileMoneyACallbacks, mobileMoneyBCallbacks, supplyOrderPayments],
  jobs: [mobileMoneyStatusJob],
});
