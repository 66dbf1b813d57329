import { randomUUID } from 'node:crypto';
import { OutboxEvent } from '../shared/outbox';
import { DeadLetter, WebhookDelivery } from '../workers/store';
import { MessagingMessage, MessagingReceipt } from '../subgraphs/org/conversations/messaging.entity';
import { Lead } from '../subgraphs/org/leads/lead.entity';
import { MailEvent, SentMail } from '../subgraphs/org/mail/mail.entity';
import { Subscription } from '../subgraphs/revenue/billing/subscription.entity';
import { signUp, startApp, type TestApp } from './support/app';
import { lastMail } from './support/mail';
import { createOrganization } from './support/org';
import { eventually } from './support/wait';
import { deliver, sign, signForms, signMailer } from './support/webhooks';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const stored = (body: string) => app.em('platform').count(WebhookDelivery, { provider: 'billing', providerEventId: JSON.parse(body).id });
const subscriptionOf = (organizationId: string) => app.em('revenue').findOne(Subscription, { organizationId });
const org = (id: string) => eventually(() => subscriptionOf(id), 'subscription');
const stripeEvent = (type: string, object: Record<string, unknown>) =>
  JSON.stringify({ id: `evt_${randomUUID()}`, type, created: Math.floor(Date.now() / 1000), data: { object } });

describe('billing webhook (Stripe scheme)', () => {
  it('applies checkout, payments and subscription changes to the organization', async () => {
    const { api } = await signUp(app.api);
    const { id } = await createOrganization(api);
    const customer = `cus_${randomUUID().slice(0, 8)}`;
    const subscription = `sub_${randomUUID().slice(0, 8)}`;
    const send = (body: string) => deliver(app.api, '/api/webhooks/billing', body, sign.billing(body));

    const checkout = await send(
      stripeEvent('checkout.session.completed', { client_reference_id: id, customer, subscription, payment_status: 'paid' }),
    );
    expect(checkout.status).toBe(200);
    expect(checkout.body.data).toMatchObject({ received: true, duplicate: false });
    await eventually(async () => (await subscriptionOf(id))?.status === 'active', 'checkout applied');

    await send(stripeEvent('invoice.payment_failed', { customer, subscription }));
    await eventually(async () => (await subscriptionOf(id))?.lastPaymentStatus === 'failed', 'payment failure');
    expect((await org(id)).status).toBe('past_due');

    await send(stripeEvent('invoice.payment_succeeded', { customer, subscription }));
    await send(
      stripeEvent('customer.subscription.updated', {
        id: subscription,
        customer,
        status: 'active',
        items: { data: [{ price: { id: 'price_clinic_pro' } }] },
        current_period_end: 1893456000,
      }),
    );
    // The two events are consumed concurrently, in either order: wait for both.
    await eventually(async () => {
      const current = await subscriptionOf(id);
      return current?.plan === 'price_clinic_pro' && current.lastPaymentStatus === 'succeeded';
    }, 'plan and payment');
    const updated = await org(id);
    expect(updated).toMatchObject({ status: 'active', lastPaymentStatus: 'succeeded' });
    expect(updated.currentPeriodEnd?.toISOString()).toBe('2030-01-01T00:00:00.000Z');

    const sub = await api.graphql('query($id: ID!) { organization(id: $id) { subscription { status plan lastPaymentStatus } } }', { id });
    expect(sub.body.data.organization.subscription).toEqual({ status: 'active', plan: 'price_clinic_pro', lastPaymentStatus: 'succeeded' });

    await send(stripeEvent('customer.subscription.deleted', { id: subscription, customer, status: 'canceled' }));
    await eventually(async () => (await subscriptionOf(id))?.status === 'canceled', 'cancellation');
  });

  it('acknowledges a repeated delivery and applies it once', async () => {
    const body = stripeEvent('invoice.created', { customer: 'cus_x' });
    const first = await deliver(app.api, '/api/webhooks/billing', body, sign.billing(body));
    const again = await deliver(app.api, '/api/webhooks/billing', body, sign.billing(body));
    expect(first.body.data.duplicate).toBe(false);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ duplicate: true, delivery_id: first.body.data.delivery_id });
    const eventId = JSON.parse(body).id;
    expect(await app.em('platform').count(WebhookDelivery, { provider: 'billing', providerEventId: eventId })).toBe(1);
    expect(
      await app.em('platform').count(OutboxEvent, { topic: 'svc.webhook.billing_received', payload: { provider_event_id: eventId } }),
    ).toBe(1);
  });

  it('rejects a bad, missing or stale signature with 401 and stores nothing', async () => {
    const body = stripeEvent('invoice.created', {});
    const bad = await deliver(app.api, '/api/webhooks/billing', body, sign.billing(body, undefined, 'whsec_wrong'));
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHORIZED');
    expect((await deliver(app.api, '/api/webhooks/billing', body, {})).status).toBe(401);
    const stale = await deliver(app.api, '/api/webhooks/billing', body, sign.billing(body, Math.floor(Date.now() / 1000) - 600));
    expect(stale.status).toBe(401);
    expect(stale.body.error.message).toMatch(/tolerance/);
    const tampered = await deliver(app.api, '/api/webhooks/billing', body.replace('invoice.created', 'invoice.paid'), sign.billing(body));
    expect(tampered.status).toBe(401);
    // Counted by the event's id: other suites may store billing deliveries meanwhile.
    expect(await stored(body)).toBe(0);
  });

  it('rejects plain HTTP with 403 and processes nothing', async () => {
    const body = stripeEvent('invoice.created', {});
    const res = await deliver(app.api, '/api/webhooks/billing', body, sign.billing(body), false);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(await stored(body)).toBe(0);
  });

  it('acknowledges a signed body that is not JSON and dead-letters it with the raw payload', async () => {
    const body = '{"id": "evt_broken", "type": '; // truncated by the sender
    const res = await deliver(app.api, '/api/webhooks/billing', body, sign.billing(body));
    expect(res.status).toBe(200);
    const entry = await eventually(
      () => app.em('platform').findOne(DeadLetter, { topic: 'svc.webhook.billing_received', originalPayload: body }),
      'dead letter with the raw body',
    );
    expect(entry.attempts).toBe(1);
    expect(entry.error).toMatch(/not JSON/);
  });
});

describe('messaging webhook (WhatsApp Cloud API scheme)', () => {
  it('answers the verification challenge only with the right token', async () => {
    const ok = await app.api.get('/webhook?hub.mode=subscribe&hub.verify_token=messaging-verify-token&hub.challenge=1158201444', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    const wrong = await app.api.get('/webhook?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(wrong.status).toBe(403);
  });

  it('stores incoming messages and receipts once', async () => {
    const messageId = `wamid.${randomUUID()}`;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { display_phone_number: '254700000000' },
                messages: [
                  { id: messageId, from: '254712345678', timestamp: '1795300000', type: 'text', text: { body: 'My test results?' } },
                ],
                statuses: [{ id: `wamid.out-${messageId}`, status: 'read', timestamp: '1795300005', recipient_id: '254712345678' }],
              },
            },
          ],
        },
      ],
    });
    const res = await deliver(app.api, '/webhook', body, sign.messaging(body));
    expect(res.status).toBe(200);
    const message = await eventually(() => app.em('org').findOne(MessagingMessage, { providerMessageId: messageId }), 'message');
    expect(message).toMatchObject({ fromPhone: '+254712345678', toPhone: '+254700000000', body: 'My test results?', kind: 'text' });
    await eventually(
      () => app.em('org').findOne(MessagingReceipt, { providerMessageId: `wamid.out-${messageId}`, status: 'read' }),
      'receipt',
    );
    expect((await deliver(app.api, '/webhook', body, sign.messaging(body))).body.data.duplicate).toBe(true);
    expect((await deliver(app.api, '/webhook', body, sign.messaging(body, 'wrong'))).status).toBe(401);
  });
});

describe('mailer webhook (Svix scheme)', () => {
  it('records delivery events against the mail the platform sent', async () => {
    const { user } = await signUp(app.api);
    const mail = await lastMail(user.email, 'verify_email');
    const sent = await eventually(() => app.em('org').findOne(SentMail, { providerMessageId: mail.id }), 'sent mail record');
    const body = JSON.stringify({
      type: 'email.delivered',
      created_at: new Date().toISOString(),
      data: { email_id: mail.id, to: [user.email] },
    });
    const headers = signMailer(body);
    expect((await deliver(app.api, '/api/gtm/webhooks/mailer', body, headers)).status).toBe(200);
    const event = await eventually(() => app.em('org').findOne(MailEvent, { providerEventId: headers['svix-id'] }), 'mail event');
    expect(event).toMatchObject({ sentMailId: sent.id, type: 'email.delivered' });
    await eventually(async () => (await app.em('org').findOne(SentMail, { id: sent.id }))?.status === 'delivered', 'mail status');
    const stale = signMailer(body, `msg_${randomUUID()}`, Math.floor(Date.now() / 1000) - 3600);
    expect((await deliver(app.api, '/api/gtm/webhooks/mailer', body, stale)).status).toBe(401);
  });
});

describe('inbound forms webhook (Standard Webhooks scheme)', () => {
  it('creates a lead per submission, once', async () => {
    const body = JSON.stringify({
      name: 'Dr. Halima Yusuf',
      email: 'Halima@Clinic.example',
      phone: '+2348012345678',
      organization: 'Kano Family Clinic',
      message: 'Demo please',
    });
    const headers = signForms(body);
    expect((await deliver(app.api, '/api/gtm/webhooks/inbound', body, headers)).status).toBe(200);
    const lead = await eventually(() => app.em('org').findOne(Lead, { externalId: headers['webhook-id'] }), 'lead');
    expect(lead).toMatchObject({
      name: 'Dr. Halima Yusuf',
      email: 'halima@clinic.example',
      organizationName: 'Kano Family Clinic',
      source: 'form',
    });
    expect((await deliver(app.api, '/api/gtm/webhooks/inbound', body, headers)).body.data.duplicate).toBe(true);
    expect((await deliver(app.api, '/api/gtm/webhooks/inbound', body, { ...headers, 'webhook-signature': 'v1,AAAA' })).status).toBe(401);
  });
});

describe('video and mobile money webhooks', () => {
  it('verifies, stores and queues video events (LiveKit scheme)', async () => {
    const body = JSON.stringify({
      id: `EV_${randomUUID()}`,
      event: 'room_started',
      room: { name: 'appt-1' },
      createdAt: Math.floor(Date.now() / 1000),
    });
    const res = await deliver(app.api, '/api/webhooks/video', body, await sign.video(body));
    expect(res.status).toBe(200);
    const delivery = await app.em('platform').findOneOrFail(WebhookDelivery, { id: res.body.data.delivery_id });
    expect(delivery).toMatchObject({ provider: 'video', eventType: 'room_started', rawBody: body });
    await eventually(
      async () =>
        (await app.em('platform').findOne(OutboxEvent, { topic: 'svc.webhook.video_received', payload: { delivery_id: delivery.id } }))
          ?.publishedAt,
      'video event queued',
    );
    expect((await deliver(app.api, '/api/webhooks/video', body, await sign.video(body, 'another-secret-of-some-length'))).status).toBe(401);
    expect(
      (await deliver(app.api, '/api/webhooks/video', body.replace('room_started', 'room_finished'), await sign.video(body))).status,
    ).toBe(401);
  });

  it('verifies, stores and queues mobile money callbacks for both providers', async () => {
    for (const [path, secret, provider] of [
      ['/api/payments/webhooks/mobile-money-a', 'mobile-money-a-secret', 'mobile_money_a'],
      ['/api/payments/webhooks/mobile-money-b', 'mobile-money-b-secret', 'mobile_money_b'],
    ]) {
      const body = JSON.stringify({ transaction_id: `tx-${randomUUID()}`, status: 'SUCCESSFUL', amount: '150.00', currency: 'KES' });
      const res = await deliver(app.api, path, body, sign.mobileMoney(body, secret));
      expect(res.status).toBe(200);
      expect(await app.em('platform').count(WebhookDelivery, { id: res.body.data.delivery_id, provider })).toBe(1);
      expect((await deliver(app.api, path, body, sign.mobileMoney(body, secret))).body.data.duplicate).toBe(true);
      expect((await deliver(app.api, path, body, sign.mobileMoney(body, 'nope'))).status).toBe(401);
    }
  });
});
