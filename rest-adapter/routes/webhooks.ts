import type { WebhookProvider } from '../../shared/events';
import * as verify from '../webhooks/verifiers';

/** Inbound webhooks (SPEC: Events). Each path verifies its provider's signature on the raw body. */
export interface WebhookRoute {
  path: string;
  provider: WebhookProvider;
  summary: string;
  verifier: verify.Verifier;
  /** Header(s) carrying the signature, for the OpenAPI document. */
  signature: string;
}

export const WEBHOOK_ROUTES: WebhookRoute[] = [
  {
    path: '/api/webhooks/billing',
    provider: 'billing',
    summary: 'Subscription billing provider events (checkout, invoices, subscriptions)',
    verifier: verify.billing,
    signature: 'Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(BILLING_WEBHOOK_SECRET, "t.body")>',
  },
  {
    path: '/api/webhooks/video',
    provider: 'video',
    summary: 'Video provider events (rooms, participants, tracks)',
    verifier: verify.video,
    signature: 'Authorization: <JWT, HS256 with VIDEO_API_SECRET, iss=VIDEO_API_KEY, sha256=base64(SHA-256(body))>',
  },
  {
    path: '/api/payments/webhooks/mobile-money-a',
    provider: 'mobile_money_a',
    summary: 'Mobile money provider A payment status callbacks',
    verifier: verify.mobileMoneyA,
    signature: 'X-Signature: sha256=<hex HMAC-SHA256(MOBILE_MONEY_A_SECRET, body)>',
  },
  {
    path: '/api/payments/webhooks/mobile-money-b',
    provider: 'mobile_money_b',
    summary: 'Mobile money provider B payment status callbacks',
    verifier: verify.mobileMoneyB,
    signature: 'X-Signature: sha256=<hex HMAC-SHA256(MOBILE_MONEY_B_SECRET, body)>',
  },
  {
    path: '/webhook',
    provider: 'messaging',
    summary: 'Messaging provider: incoming patient messages, delivery and read receipts',
    verifier: verify.messaging,
    signature: 'X-Hub-Signature-256: sha256=<hex HMAC-SHA256(MESSAGING_APP_SECRET, body)>',
  },
  {
    path: '/api/gtm/webhooks/mailer',
    provider: 'mailer',
    summary: 'Email delivery events',
    verifier: verify.mailer,
    signature: 'svix-id, svix-timestamp, svix-signature: v1,<base64 HMAC-SHA256(MAILER_WEBHOOK_SECRET, "id.timestamp.body")>',
  },
  {
    path: '/api/gtm/webhooks/inbound',
    provider: 'forms',
    summary: 'External forms: inbound lead capture',
    verifier: verify.forms,
    signature: 'webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256(INBOUND_FORMS_SECRET, "id.timestamp.body")>',
  },
  {
    path: '/api/workforce/webhooks/leave-approved',
    provider: 'workforce_leave',
    summary:
      "Approved leave (the platform relays its svc.workforce.leave_approved event here): the member's shifts during the leave are removed",
    verifier: verify.platform,
    signature: 'X-Platform-Signature: t=<unix>,v1=<hex HMAC-SHA256(internal secret, "webhook.t.body")>',
  },
];
