import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { callbackUrl, setSandboxMobileMoneyBaseUrl } from '../shared/adapters/mobile-money';
import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { EVENTS_QUEUE, openQueue } from '../shared/queues';
import { DeadLetter, WebhookDelivery } from '../workers/store';
import { Invoice } from '../subgraphs/revenue/invoices/invoice.entity';
import { mobileMoneyStatusJob } from '../subgraphs/revenue/payments/payment.jobs';
import { MobileMoneyPayment, Payment } from '../subgraphs/revenue/payments/payment.entity';
import { sandboxCallbacksSettled } from '../subgraphs/revenue/payments/providers/sandbox';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { eventually } from './support/wait';
import { deliver, sign } from './support/webhooks';

// The sandbox provider calls back a moment after a request, as a customer approving on the phone would.
process.env.MOBILE_MONEY_SANDBOX_DELAY_MS = '300';
resetConfig();

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };
let connection: Redis;
let events: Queue;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  events = openQueue(EVENTS_QUEUE, connection);
});
afterAll(async () => {
  await sandboxCallbacksSettled();
  await events.close();
  await connection.quit();
  await app.close();
});

const KENYA = '+254712345678';

async function invoice(total = '1500.00', currency = 'KES'): Promise<{ id: string; number: string }> {
  const res = await c.billing.api.post(`/api/organizations/${c.orgId}/invoices`, {
    patient_id: c.patientId,
    currency,
    items: [{ description: 'Consultation', quantity: 1, unit_price: total }],
  });
  if (res.status !== 201) throw new Error(`invoice: ${res.status} ${res.text}`);
  return res.body.data;
}

const initiate = (api: SignedUp['api'], body: Record<string, unknown>) =>
  api.post('/api/payments/mobile-money/initiate', {
    provider: 'mobile_money_a',
    phone: KENYA,
    currency: 'KES',
    description: 'Clinic visit',
    ...body,
  });

const stored = (id: string) => app.em('revenue').findOneOrFail(MobileMoneyPayment, { id });
const requested = (id: string) =>
  eventually(async () => {
    const p = await stored(id);
    return p.providerReference ? p : null;
  }, 'the request to reach the provider');
const stateOf = async (api: SignedUp['api'], orderId: string) =>
  (await api.get(`/api/payments/mobile-money/status/${orderId}`)).body.data?.state;

/** An M-Pesa STK callback for a payment, as the provider sends it (each with its own MerchantRequestID). */
function stkCallback(reference: string, resultCode = 0, amount = 1500): string {
  return JSON.stringify({
    Body: {
      stkCallback: {
        MerchantRequestID: `${Math.floor(Math.random() * 1e5)}-${randomUUID().slice(0, 8)}-1`,
        CheckoutRequestID: reference,
        ResultCode: resultCode,
        ResultDesc: resultCode === 0 ? 'The service request is processed successfully.' : 'Request cancelled by user',
        ...(resultCode === 0
          ? {
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: amount },
                  { Name: 'MpesaReceiptNumber', Value: 'NLJ7RT61SV' },
                  { Name: 'PhoneNumber', Value: 254712345678 },
                ],
              },
            }
          : {}),
      },
    },
  });
}

describe('mobile money for an invoice', () => {
  it("goes pending → completed by the provider's callback, and pays the invoice exactly once after 20 duplicate callbacks", async () => {
    const inv = await invoice('1500.00');
    const res = await initiate(c.billing.api, { amount: 1500, order_id: inv.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      order_id: inv.id,
      provider: 'mobile-money-a',
      phone: KENYA,
      country: 'KE',
      amount: { amount: '1500.00', currency_code: 'KES' },
      currency: 'KES',
      state: 'pending',
      purpose_type: 'invoice',
      purpose_id: inv.id,
      organization_id: c.orgId,
      patient_id: c.patientId,
      initiated_by: c.billing.user.id,
    });
    expect(await stateOf(c.billing.api, inv.id)).toBe('pending');
    // The request reached the provider before the answer: it carries the provider's reference.
    expect(res.body.data.provider_reference).toMatch(/^ws_CO_/);
    const payment = await requested(res.body.data.id);
    expect(payment.providerReference).toMatch(/^ws_CO_\d{14}\d{6}$/);

    // Once the customer approved (the sandbox's delay), 20 more callbacks for the payment arrive at once, each a
    // different delivery, beside the sandbox's own and 20 copies of one delivery.
    await new Promise((r) => setTimeout(r, 350));
    const copy = stkCallback(payment.providerReference!);
    const deliveries = await Promise.all([
      ...Array.from({ length: 20 }, () => {
        const body = stkCallback(payment.providerReference!);
        return deliver(app.api, '/api/payments/webhooks/mobile-money-a', body, sign.mobileMoney(body));
      }),
      ...Array.from({ length: 20 }, () => deliver(app.api, '/api/payments/webhooks/mobile-money-a', copy, sign.mobileMoney(copy))),
    ]);
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect(deliveries.filter((d) => d.body.data.duplicate).length).toBeGreaterThanOrEqual(19);
    await sandboxCallbacksSettled();
    await eventually(async () => (await stateOf(c.billing.api, inv.id)) === 'completed', 'the payment to complete');
    // Every delivery has been handled (none waits in a queue) before counting the effects.
    const ids = [...new Set(deliveries.map((d) => d.body.data.delivery_id))];
    await eventually(
      async () =>
        (await app.em('revenue').count(OutboxEvent, { topic: 'svc.payments.payment_completed', payload: { payment_id: payment.id } })) ===
          1 && (await app.em('platform').count(WebhookDelivery, { id: { $in: ids } })) === ids.length,
      'deliveries stored',
    );
    await new Promise((r) => setTimeout(r, 500));

    const paid = await app.em('revenue').findOneOrFail(Invoice, { id: inv.id });
    expect(paid).toMatchObject({ status: 'paid', amountPaid: '1500.00', totalAmount: '1500.00' });
    expect(await app.em('revenue').count(Payment, { invoiceId: inv.id })).toBe(1);
    expect(await app.em('revenue').count(OutboxEvent, { topic: 'svc.billing.invoice_paid', payload: { invoice_id: inv.id } })).toBe(1);
    expect(
      await app.em('revenue').count(OutboxEvent, { topic: 'svc.payments.payment_completed', payload: { payment_id: payment.id } }),
    ).toBe(1);
    const done = await stored(payment.id);
    expect(done).toMatchObject({ state: 'completed', receipt: expect.stringMatching(/^[A-Z0-9]{10}$/) });

    // The organization sees it in its payments and on the invoice; the invoice cannot be paid again.
    const list = await c.billing.api.get(`/api/organizations/${c.orgId}/payments?invoice_id=${inv.id}`);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        method: 'mobile_money',
        invoice_id: inv.id,
        amount: { amount: '1500.00', currency_code: 'KES' },
        mobile_money_payment_id: payment.id,
      }),
    ]);
    const detail = await c.billing.api.get(`/api/rcm/invoices/${inv.id}`);
    expect(detail.body.data).toMatchObject({
      status: 'paid',
      amount_paid: '1500.00',
      amount_due: '0.00',
      payments: [expect.objectContaining({ method: 'mobile_money' })],
    });
    const again = await initiate(c.billing.api, { amount: 1500, order_id: inv.id });
    expect(again.status).toBe(409);
  });

  it('answers the first payment when an order in flight is initiated again, and 409 when the second asks something else', async () => {
    const inv = await invoice('200.00');
    const first = await initiate(c.billing.api, { amount: '200', order_id: inv.id });
    const second = await initiate(c.billing.api, { amount: '200.00', order_id: inv.id });
    expect(second.status).toBe(201);
    expect(second.body.data.id).toBe(first.body.data.id);
    const other = await initiate(c.billing.api, { amount: '150', order_id: inv.id });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('CONFLICT');
    await eventually(async () => (await stateOf(c.billing.api, inv.id)) === 'completed', 'completion');
  });

  it('pays part of an invoice, then the rest', async () => {
    const inv = await invoice('1000.00');
    const part = await initiate(c.billing.api, { amount: 400, order_id: inv.id });
    await eventually(async () => (await stored(part.body.data.id)).state === 'completed', 'first part');
    expect(await app.em('revenue').findOneOrFail(Invoice, { id: inv.id })).toMatchObject({
      status: 'partially_paid',
      amountPaid: '400.00',
    });
    const tooMuch = await initiate(c.billing.api, { amount: 700, order_id: inv.id });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.details[0]).toEqual({ field: 'amount', message: 'must not exceed the amount due (600.00 KES)' });
    const rest = await initiate(c.billing.api, { amount: 600, order_id: inv.id });
    expect(rest.body.data.id).not.toBe(part.body.data.id);
    await eventually(async () => (await app.em('revenue').findOneOrFail(Invoice, { id: inv.id })).status === 'paid', 'invoice paid');
  });
});

describe('mobile money outcomes', () => {
  it.each([
    ['+254712340001', 'failed', /insufficient|balance/i],
    ['+254712340002', 'failed', /cancel/i],
    ['+254712340003', 'timeout', /timeout|time/i],
  ])('a payment from %s ends %s, and emits payment_failed', async (phone, state, reason) => {
    const orderId = `order-${randomUUID()}`;
    const res = await initiate(c.billing.api, { phone, amount: 50, order_id: orderId });
    expect(res.status).toBe(201);
    const done = await eventually(async () => {
      const p = await stored(res.body.data.id);
      return p.state !== 'pending' && p;
    }, 'a final state');
    expect(done.state).toBe(state);
    expect(done.failureReason).toMatch(reason);
    const event = await app
      .em('revenue')
      .findOneOrFail(OutboxEvent, { topic: 'svc.payments.payment_failed', payload: { payment_id: done.id } });
    expect(event.payload).toMatchObject({
      order_id: orderId,
      state,
      provider: 'mobile-money-a',
      amount: '50.00',
      currency: 'KES',
      purpose_type: null,
    });
    // A later success for the same payment changes nothing: the first final answer wins.
    const late = stkCallback(done.providerReference!, 0, 50);
    expect((await deliver(app.api, '/api/payments/webhooks/mobile-money-a', late, sign.mobileMoney(late))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await stored(done.id)).state).toBe(state);
  });

  it('asks the provider about payments pending too long, and times out one that never gets an answer', async () => {
    const orderId = `order-${randomUUID()}`;
    const silent = await initiate(c.billing.api, { phone: '+254712340009', amount: 75, order_id: orderId });
    await requested(silent.body.data.id);
    await new Promise((r) => setTimeout(r, 400));
    expect((await stored(silent.body.data.id)).state).toBe('pending');
    // A run of the status job a minute later asks and waits; past the provider's expiry (120 s) it gives up.
    await app.em('revenue').transactional((em) => mobileMoneyStatusJob.run({ em, now: new Date(Date.now() + 90_000) }));
    const asked = await stored(silent.body.data.id);
    expect(asked.state).toBe('pending');
    expect(asked.lastCheckedAt).toBeTruthy();
    await app.em('revenue').transactional((em) => mobileMoneyStatusJob.run({ em, now: new Date(Date.now() + 600_000) }));
    expect(await stored(silent.body.data.id)).toMatchObject({ state: 'timeout', failureReason: expect.stringMatching(/within 120 s/) });
    expect(await stateOf(c.billing.api, orderId)).toBe('timeout');
  });

  it('settles by the status query when the callback was lost', async () => {
    // The provider answers, but its callback never reaches the platform.
    setSandboxMobileMoneyBaseUrl('http://127.0.0.1:9');
    try {
      const res = await initiate(c.billing.api, {
        provider: 'mobile_money_b',
        phone: '+256772123456',
        amount: 5000,
        currency: 'UGX',
        order_id: `o-${randomUUID()}`,
      });
      expect(res.status).toBe(201);
      await requested(res.body.data.id);
      await sandboxCallbacksSettled();
      expect((await stored(res.body.data.id)).state).toBe('pending');
      await app.em('revenue').transactional((em) => mobileMoneyStatusJob.run({ em, now: new Date(Date.now() + 90_000) }));
      expect(await stored(res.body.data.id)).toMatchObject({ state: 'completed', receipt: expect.stringMatching(/^\d{9}$/) });
    } finally {
      setSandboxMobileMoneyBaseUrl(app.url);
    }
  });

  it('reads the MoMo and Airtel callbacks that arrive on channel b', async () => {
    const momo = await initiate(c.billing.api, {
      provider: 'mobile_money_b',
      phone: '+233241230001',
      amount: '12.50',
      currency: 'GHS',
      order_id: `o-${randomUUID()}`,
    });
    const airtel = await initiate(c.billing.api, {
      provider: 'mobile_money_c',
      phone: '+256752123456',
      amount: 3000,
      currency: 'UGX',
      order_id: `o-${randomUUID()}`,
    });
    expect([momo.status, airtel.status]).toEqual([201, 201]);
    await eventually(async () => (await stored(momo.body.data.id)).state === 'failed', 'MoMo failure');
    await eventually(async () => (await stored(airtel.body.data.id)).state === 'completed', 'Airtel success');
    expect((await stored(momo.body.data.id)).failureReason).toBe('NOT_ENOUGH_FUNDS');
    expect((await stored(airtel.body.data.id)).providerReference).toBe(airtel.body.data.id);
    expect((await stored(airtel.body.data.id)).receipt).toMatch(/^MP\d{6}\.\d{4}\.L\d{5}$/);
  });

  it('dead-letters a callback for a payment it does not know, after its retries', async () => {
    const body = stkCallback(`ws_CO_${Date.now()}unknown`);
    expect((await deliver(app.api, '/api/payments/webhooks/mobile-money-a', body, sign.mobileMoney(body))).status).toBe(200);
    const entry = await eventually(
      () => app.em('platform').findOne(DeadLetter, { topic: 'svc.webhook.mobile_money_a_received', originalPayload: body }),
      'dead letter',
    );
    expect(entry.error).toMatch(/no mobile_money_a payment matches/);
  });

  it("accepts an unsigned callback carrying its payment's callback token, and refuses a forged token", async () => {
    const body = stkCallback('ws_CO_whatever');
    const paymentId = randomUUID();
    const url = new URL(await callbackUrl('mobile_money_a', paymentId, { sandbox: true }));
    expect(url.pathname).toBe('/api/payments/webhooks/mobile-money-a');
    const ok = await deliver(app.api, `${url.pathname}${url.search}`, body, {});
    expect(ok.status).toBe(200);
    expect((await deliver(app.api, `${url.pathname}${url.search.replace(paymentId, randomUUID())}`, body, {})).status).toBe(401);
    expect((await deliver(app.api, `/api/payments/webhooks/mobile-money-a?payment=${randomUUID()}&token=forged`, body, {})).status).toBe(
      401,
    );
    expect((await deliver(app.api, '/api/payments/webhooks/mobile-money-a', body, {})).status).toBe(401);
  });
});

describe('initiate: validation and access', () => {
  const bad = async (body: Record<string, unknown>, field: string, message?: RegExp) => {
    const res = await initiate(c.billing.api, { amount: 100, order_id: `o-${randomUUID()}`, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe(field);
    if (message) expect(res.body.error.details[0].message).toMatch(message);
  };

  it("refuses amounts of 0, negative, fractions M-Pesa does not take, and beyond the provider's limit", async () => {
    await bad({ amount: 0 }, 'amount', /above zero/);
    await bad({ amount: '-5' }, 'amount');
    await bad({ amount: '10.50' }, 'amount', /whole number of KES/);
    await bad({ amount: '250001' }, 'amount', /at most 250000 KES/);
    await bad({ amount: 'lots' }, 'amount');
  });

  it('refuses an unsupported currency, a phone of another country or not E.164, an unknown provider', async () => {
    await bad({ currency: 'UGX' }, 'currency', /must be KES/);
    await bad({ currency: 'XYZ' }, 'currency');
    await bad({ phone: '+256772123456' }, 'phone', /KE/);
    await bad({ phone: '0712345678' }, 'phone');
    await bad({ phone: '+25413123456' }, 'phone');
    await bad({ provider: 'mobile-money-z' }, 'provider');
    await bad({ order_id: '' }, 'order_id');
    await bad({ order_id: 'x'.repeat(101) }, 'order_id');
  });

  it('needs a token; an invoice of another organization is not found; a member without payments:write is refused', async () => {
    const inv = await invoice('100.00');
    expect(
      (
        await app.api.post('/api/payments/mobile-money/initiate', {
          provider: 'mobile_money_a',
          phone: KENYA,
          amount: 100,
          currency: 'KES',
          order_id: inv.id,
        })
      ).status,
    ).toBe(401);
    const outside = await initiate(stranger.api, { amount: 100, order_id: inv.id });
    expect(outside.status).toBe(404);
    const nurse = await initiate(c.nurse.api, { amount: 100, order_id: inv.id });
    expect(nurse.status).toBe(403);
    expect((await initiate(c.billing.api, { amount: 100, currency: 'KES', order_id: inv.id, phone: '+254712340001' })).status).toBe(201);
    // Status of an order: its initiator and the organization's payments:read members; others learn nothing.
    await eventually(async () => (await stateOf(c.billing.api, inv.id)) === 'failed', 'failure');
    expect((await stranger.api.get(`/api/payments/mobile-money/status/${inv.id}`)).status).toBe(404);
    expect((await c.nurse.api.get(`/api/payments/mobile-money/status/${inv.id}`)).status).toBe(404);
    expect((await c.doctor.api.get(`/api/payments/mobile-money/status/${inv.id}`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/payments/mobile-money/status/${randomUUID()}`)).status).toBe(404);
    expect((await app.api.get(`/api/payments/mobile-money/status/${inv.id}`)).status).toBe(401);
  });

  it("keeps one person's own order ids apart from another's", async () => {
    const orderId = `cart-${randomUUID().slice(0, 8)}`;
    const someone = await signUp(app.api);
    const mine = await initiate(c.billing.api, { amount: 10, order_id: orderId });
    const theirs = await initiate(someone.api, { amount: 20, order_id: orderId });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect((await someone.api.get(`/api/payments/mobile-money/status/${orderId}`)).body.data.id).toBe(theirs.body.data.id);
  });

  it('takes the providers written mobile-money-a ... or with underscores, and answers with hyphens', async () => {
    const spellings: [string, Record<string, unknown>, string][] = [
      ['mobile-money-a', { phone: KENYA, amount: 10, currency: 'KES' }, 'mobile-money-a'],
      ['mobile_money_a', { phone: KENYA, amount: 10, currency: 'KES' }, 'mobile-money-a'],
      ['mobile-money-b', { phone: '+256772123456', amount: 5000, currency: 'UGX' }, 'mobile-money-b'],
      ['mobile-money-c', { phone: '+256752123456', amount: 3000, currency: 'UGX' }, 'mobile-money-c'],
    ];
    for (const [given, fields, answered] of spellings) {
      const orderId = `spelling-${randomUUID()}`;
      const res = await initiate(c.billing.api, { provider: given, order_id: orderId, ...fields });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ provider: answered, state: 'pending' });
      const status = await c.billing.api.get(`/api/payments/mobile-money/status/${orderId}`);
      expect(status.body.data.provider).toBe(answered);
      const initiated = await app
        .em('revenue')
        .findOneOrFail(OutboxEvent, { topic: 'svc.payments.payment_initiated', payload: { payment_id: res.body.data.id } });
      expect(initiated.payload.provider).toBe(answered);
    }
    // Messages name the provider the same way.
    const wrongCountry = await initiate(c.billing.api, { provider: 'mobile-money-a', phone: '+256772123456', amount: 10, order_id: 'x1' });
    expect(wrongCountry.status).toBe(400);
    expect(wrongCountry.body.error.details[0]).toMatchObject({ field: 'phone', message: expect.stringContaining('for mobile-money-a') });
    // GraphQL keeps its enum (no hyphen in an enum value) and has the hyphenated spelling beside it.
    const gql = await c.billing.api.graphql(
      `mutation($input: InitiateMobileMoneyPaymentInput!) { initiateMobileMoneyPayment(input: $input) { provider providerName } }`,
      { input: { provider: 'mobile_money_b', phone: '+256772123456', amount: '5000', currency: 'UGX', orderId: `gql-${randomUUID()}` } },
    );
    expect(gql.body.data.initiateMobileMoneyPayment).toEqual({ provider: 'mobile_money_b', providerName: 'mobile-money-b' });
  });

  it('works through GraphQL', async () => {
    const orderId = `gql-${randomUUID()}`;
    const res = await c.billing.api.graphql(
      `mutation($input: InitiateMobileMoneyPaymentInput!) { initiateMobileMoneyPayment(input: $input) { id state amount { amount currencyCode } provider } }`,
      { input: { provider: 'mobile_money_a', phone: KENYA, amount: '99', currency: 'KES', orderId } },
    );
    expect(res.body.data.initiateMobileMoneyPayment).toMatchObject({ state: 'pending', amount: { amount: '99.00', currencyCode: 'KES' } });
    const status = await c.billing.api.graphql('query($o: String!) { mobileMoneyPaymentStatus(orderId: $o) { state } }', { o: orderId });
    expect(status.body.data.mobileMoneyPaymentStatus.state).toMatch(/pending|completed/);
    const missing = await c.billing.api.graphql('query($o: String!) { mobileMoneyPaymentStatus(orderId: $o) { state } }', { o: 'nope' });
    expect(missing.body.data.mobileMoneyPaymentStatus).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('supply marketplace payments (svc.marketplace.payment_requested)', () => {
  const request = (payload: Record<string, unknown>) => {
    const event = {
      id: randomUUID(),
      topic: 'svc.marketplace.payment_requested',
      timestamp: new Date().toISOString(),
      source_service: 'revenue',
      payload,
    };
    return events.add(event.topic, event, { jobId: event.id });
  };

  it('starts the payment as initiate would, and announces its completion for the marketplace', async () => {
    const orderId = randomUUID();
    await request({
      order_id: orderId,
      organization_id: c.orgId,
      patient_id: null,
      amount: '2500.00',
      currency: 'KES',
      // As a checkout passes it on: mobile-money-a.
      provider: 'mobile-money-a',
      phone: KENYA,
      description: 'Supply order',
    });
    const payment = await eventually(() => app.em('revenue').findOne(MobileMoneyPayment, { orderId }), 'the payment');
    expect(payment).toMatchObject({
      purposeType: 'supply_order',
      purposeId: orderId,
      organizationId: c.orgId,
      initiatedBy: null,
      amount: '2500.00',
    });
    const event = await eventually(
      () => app.em('revenue').findOne(OutboxEvent, { topic: 'svc.payments.payment_completed', payload: { order_id: orderId } }),
      'payment_completed',
    );
    expect(event.payload).toMatchObject({
      payment_id: payment.id,
      order_id: orderId,
      provider: 'mobile-money-a',
      amount: '2500.00',
      currency: 'KES',
      purpose_type: 'supply_order',
      purpose_id: orderId,
      organization_id: c.orgId,
      completed_at: expect.any(String),
    });
    // The selling facility's staff can follow it by the order id, and find it among the payments received.
    expect(await stateOf(c.billing.api, orderId)).toBe('completed');
    const received = await c.billing.api.get(`/api/organizations/${c.orgId}/payments?method=mobile_money&limit=100`);
    expect(received.body.data.find((p: { mobile_money_payment_id: string }) => p.mobile_money_payment_id === payment.id)).toMatchObject({
      notes: `supply order ${orderId}`,
    });
    // Asked again for the same order, nothing new starts.
    await request({
      order_id: orderId,
      organization_id: c.orgId,
      patient_id: null,
      amount: '2500.00',
      currency: 'KES',
      provider: 'mobile_money_a',
      phone: KENYA,
      description: 'Supply order',
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await app.em('revenue').count(MobileMoneyPayment, { orderId })).toBe(1);
  });

  it('announces a request the provider rules refuse as payment_failed, with the reason', async () => {
    const orderId = randomUUID();
    await request({
      order_id: orderId,
      organization_id: c.orgId,
      patient_id: null,
      amount: '10.00',
      currency: 'KES',
      provider: 'mobile_money_a',
      phone: '+256772123456',
      description: 'Gloves',
    });
    const event = await eventually(
      () => app.em('revenue').findOne(OutboxEvent, { topic: 'svc.payments.payment_failed', payload: { order_id: orderId } }),
      'payment_failed',
    );
    expect(event.payload).toMatchObject({ state: 'failed', purpose_type: 'supply_order', reason: expect.stringMatching(/phone/) });
  });
});

describe('organization payments', () => {
  it('records a payment at the desk against an invoice and lists it for payments:read members only', async () => {
    const inv = await invoice('300.00');
    const res = await c.billing.api.post(`/api/organizations/${c.orgId}/payments`, {
      amount: '100.00',
      currency: 'KES',
      method: 'cash',
      invoice_id: inv.id,
      reference: 'RCPT-1',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      method: 'cash',
      amount: { amount: '100.00', currency_code: 'KES' },
      invoice_id: inv.id,
      patient_id: c.patientId,
      recorded_by: c.billing.user.id,
    });
    expect((await app.em('revenue').findOneOrFail(Invoice, { id: inv.id })).status).toBe('partially_paid');
    const list = await c.billing.api.get(`/api/organizations/${c.orgId}/payments?method=cash`);
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBeGreaterThanOrEqual(1);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(res.body.data.id);
    expect((await c.nurse.api.get(`/api/organizations/${c.orgId}/payments`)).status).toBe(403);
    expect((await stranger.api.get(`/api/organizations/${c.orgId}/payments`)).status).toBe(404);
    expect((await app.api.get(`/api/organizations/${c.orgId}/payments`)).status).toBe(401);
    expect(
      (await c.nurse.api.post(`/api/organizations/${c.orgId}/payments`, { amount: '1', currency: 'KES', method: 'cash' })).status,
    ).toBe(403);
  });

  it('validates what it records', async () => {
    const inv = await invoice('50.00');
    const post = (body: Record<string, unknown>) =>
      c.billing.api.post(`/api/organizations/${c.orgId}/payments`, { amount: '10', currency: 'KES', method: 'cash', ...body });
    const field = async (body: Record<string, unknown>) => (await post(body)).body.error.details[0].field;
    expect(await field({ amount: '0' })).toBe('amount');
    expect(await field({ amount: '10.001' })).toBe('amount');
    expect(await field({ currency: 'GHS', invoice_id: inv.id })).toBe('currency');
    expect(await field({ amount: '60', invoice_id: inv.id })).toBe('amount');
    expect(await field({ invoice_id: 'nope' })).toBe('invoice_id');
    expect(await field({ invoice_id: randomUUID() })).toBe('invoice_id');
    expect(await field({ method: 'barter' })).toBe('method');
    expect(await field({ received_at: new Date(Date.now() + 86_400_000).toISOString() })).toBe('received_at');
    // Another organization's invoice is not one of this organization's.
    const em = app.em('revenue');
    const other = em.create(Invoice, {
      organizationId: stranger.orgId,
      number: `INV-X${Date.now()}`,
      currency: 'KES',
      items: [],
      subtotal: '5.00',
      discountTotal: '0.00',
      taxTotal: '0.00',
      totalAmount: '5.00',
      amountPaid: '0.00',
      createdBy: stranger.user.id,
    });
    await em.flush();
    expect(await field({ invoice_id: other.id })).toBe('invoice_id');
  });
});
