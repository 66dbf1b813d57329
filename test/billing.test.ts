import { randomUUID } from 'node:crypto';
import { OutboxEvent, ProcessedEvent } from '../shared/outbox';
import { WebhookDelivery } from '../workers/store';
import { Subscription, SubscriptionInvoice } from '../subgraphs/revenue/billing/subscription.entity';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { createOrganization } from './support/org';
import { eventually } from './support/wait';
import { deliver, sign } from './support/webhooks';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const now = Math.floor(Date.now() / 1000);
const stripeEvent = (type: string, created: number, object: Record<string, unknown>) =>
  JSON.stringify({ id: `evt_${randomUUID()}`, type, created, data: { object } });
const send = (body: string) => deliver(app.api, '/api/webhooks/billing', body, sign.billing(body));

/** The billing consumer has applied these deliveries (each travels in an event of the webhook inbox). */
async function applied(bodies: string[]): Promise<void> {
  for (const body of bodies) {
    const providerEventId = JSON.parse(body).id as string;
    const delivery = await eventually(
      () => app.em('platform').findOne(WebhookDelivery, { provider: 'billing', providerEventId }),
      'delivery',
    );
    const event = await eventually(
      () => app.em('platform').findOne(OutboxEvent, { topic: 'svc.webhook.billing_received', payload: { delivery_id: delivery.id } }),
      'event',
    );
    await eventually(() => app.em('revenue').findOne(ProcessedEvent, { consumer: 'billing-webhooks', eventId: event.id }), 'applied');
  }
}

async function subscribedOrg(): Promise<{ owner: SignedUp; id: string; customer: string; subscription: string }> {
  const owner = await signUp(app.api);
  const { id } = await createOrganization(owner.api);
  const customer = `cus_${randomUUID().slice(0, 8)}`;
  const subscription = `sub_${randomUUID().slice(0, 8)}`;
  await send(
    stripeEvent('checkout.session.completed', now - 3600, { client_reference_id: id, customer, subscription, payment_status: 'paid' }),
  );
  await eventually(async () => (await app.em('revenue').findOne(Subscription, { organizationId: id }))?.status === 'active', 'checkout');
  return { owner, id, customer, subscription };
}

describe('billing webhooks out of order', () => {
  it('keeps the newest subscription state when an older update arrives after a newer one', async () => {
    const { id, customer, subscription } = await subscribedOrg();
    const newer = stripeEvent('customer.subscription.updated', now - 60, {
      id: subscription,
      customer,
      status: 'past_due',
      items: { data: [{ price: { id: 'price_b' } }] },
    });
    const older = stripeEvent('customer.subscription.updated', now - 600, {
      id: subscription,
      customer,
      status: 'active',
      items: { data: [{ price: { id: 'price_a' } }] },
    });
    await send(newer);
    await eventually(
      async () => (await app.em('revenue').findOne(Subscription, { organizationId: id }))?.plan === 'price_b',
      'newer update',
    );
    await send(older);
    await applied([older]);
    expect(await app.em('revenue').findOneOrFail(Subscription, { organizationId: id })).toMatchObject({
      status: 'past_due',
      plan: 'price_b',
    });
  });

  it('does not bring back a cancelled subscription with an update older than the cancellation', async () => {
    const { id, customer, subscription } = await subscribedOrg();
    const deleted = stripeEvent('customer.subscription.deleted', now - 30, { id: subscription, customer, status: 'canceled' });
    const update = stripeEvent('customer.subscription.updated', now - 120, { id: subscription, customer, status: 'active' });
    const failed = stripeEvent('invoice.payment_failed', now - 90, { customer, subscription });
    await send(deleted);
    await eventually(
      async () => (await app.em('revenue').findOne(Subscription, { organizationId: id }))?.status === 'canceled',
      'cancellation',
    );
    await Promise.all([send(update), send(failed)]);
    await applied([update, failed]);
    const sub = await app.em('revenue').findOneOrFail(Subscription, { organizationId: id });
    expect(sub.status).toBe('canceled');
    expect(sub.lastPaymentStatus).toBe('failed');
  });

  it('keeps invoices in order: a failed attempt delivered after the payment leaves the invoice paid', async () => {
    const { owner, id, customer, subscription } = await subscribedOrg();
    const invoice = {
      id: `in_${randomUUID().slice(0, 10)}`,
      customer,
      subscription,
      number: 'CLINIC-0001',
      currency: 'kes',
      amount_due: 250000,
      period_start: now - 86400 * 30,
      period_end: now,
      hosted_invoice_url: 'https://billing.example/i/1',
    };
    const failed = stripeEvent('invoice.payment_failed', now - 300, { ...invoice, status: 'open', amount_paid: 0, attempt_count: 1 });
    const succeeded = stripeEvent('invoice.payment_succeeded', now - 100, {
      ...invoice,
      status: 'paid',
      amount_paid: 250000,
      attempt_count: 2,
    });
    await send(succeeded);
    await eventually(
      () => app.em('revenue').findOne(SubscriptionInvoice, { providerInvoiceId: invoice.id, status: 'paid' }),
      'paid invoice',
    );
    await send(failed);
    await applied([failed]);
    const kept = await app.em('revenue').findOneOrFail(SubscriptionInvoice, { providerInvoiceId: invoice.id });
    expect(kept).toMatchObject({
      status: 'paid',
      amountDue: '2500.00',
      amountPaid: '2500.00',
      currency: 'KES',
      attemptCount: 2,
      number: 'CLINIC-0001',
    });
    const sub = await app.em('revenue').findOneOrFail(Subscription, { organizationId: id });
    expect(sub).toMatchObject({ lastPaymentStatus: 'succeeded', status: 'active' });

    // The organization's administrator reads them through the graph; a member who is not one does not.
    const res = await owner.api.graphql(
      'query($id: ID!) { organization(id: $id) { subscriptionInvoices { providerInvoiceId status amountPaid { amount currencyCode } paidAt } } }',
      { id },
    );
    expect(res.body.data.organization.subscriptionInvoices).toEqual([
      { providerInvoiceId: invoice.id, status: 'paid', amountPaid: { amount: '2500.00', currencyCode: 'KES' }, paidAt: expect.any(String) },
    ]);
  });

  it('applies a newer failure after an older success, and marks the subscription past due', async () => {
    const { id, customer, subscription } = await subscribedOrg();
    const invoice = { id: `in_${randomUUID().slice(0, 10)}`, customer, subscription, currency: 'usd', amount_due: 4900 };
    const first = stripeEvent('invoice.payment_succeeded', now - 400, {
      ...invoice,
      id: `in_${randomUUID().slice(0, 10)}`,
      amount_paid: 4900,
    });
    const second = stripeEvent('invoice.payment_failed', now - 200, { ...invoice, amount_paid: 0, attempt_count: 1 });
    await send(second);
    await eventually(async () => (await app.em('revenue').findOne(Subscription, { organizationId: id }))?.status === 'past_due', 'failure');
    await send(first);
    await applied([first]);
    const sub = await app.em('revenue').findOneOrFail(Subscription, { organizationId: id });
    expect(sub).toMatchObject({ status: 'past_due', lastPaymentStatus: 'failed' });
    expect(await app.em('revenue').count(SubscriptionInvoice, { organizationId: id })).toBe(2);
    expect((await app.em('revenue').findOneOrFail(SubscriptionInvoice, { providerInvoiceId: invoice.id })).status).toBe('open');
  });
});
