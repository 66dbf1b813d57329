import { defineRoutes, hyphenated } from '../route';

export default defineRoutes('Payments', [
  {
    method: 'GET',
    path: '/api/organizations/:org_id/payments',
    operation: 'OrganizationPayments',
    summary: "List an organization's payments received, newest first (`method`, `invoice_id`, `claim_id`); payments:read",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/payments',
    operation: 'RecordOrganizationPayment',
    summary:
      'Record a payment received (`amount`, `currency`, `method`, `invoice_id` or `claim_id`, `patient_id`, `reference`, `payer_name`, `received_at`, `notes`); payments:write',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/payments/mobile-money/initiate',
    operation: 'InitiateMobileMoneyPayment',
    summary:
      'Start a mobile money payment (`provider`: mobile-money-a, mobile-money-b or mobile-money-c, also written mobile_money_a ...; `phone`, `amount`, `currency`, `order_id`, `description`): `pending` until the provider answers; an `order_id` naming an invoice or a policy pays it; a second initiate for an order in flight answers the first',
    status: 201,
    synonyms: { provider: hyphenated('provider') },
  },
  {
    method: 'GET',
    path: '/api/payments/mobile-money/status/:order_id',
    operation: 'MobileMoneyPaymentStatus',
    summary: 'The newest payment of an order and its `state`: pending, completed, failed or timeout',
  },
]);
