import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { jwtVerify } from 'jose';
import { clock } from '../../shared/clock';
import { callbackTokenMatches, mobileMoneyCallbackSecret, type MobileMoneyChannel } from '../../shared/adapters/mobile-money';
import { videoCredentials } from '../../shared/adapters/video';
import { INTERNAL_SIGNATURE_HEADER, internalWebhookMac } from '../../shared/internal-auth';
import type { Config } from '../../shared/config';

/**
 * Signature schemes of the inbound webhook providers, each as the real provider does it. A verifier sees only the
 * raw body and the headers; it throws `WebhookRejected` unless the delivery is authentic and fresh. Only then is
 * the body looked at, to find the provider's event id and type.
 */
export class WebhookRejected extends Error {}

export interface Verified {
  /** The provider's id for this event: the idempotency key of the delivery. */
  eventId: string;
  eventType: string | null;
}

/** `url` is the request's URL (path and query), for providers that authenticate callbacks through it. */
export type Verifier = (raw: Buffer, headers: IncomingHttpHeaders, cfg: Config, url?: URL) => Promise<Verified>;

/** Freshness window for timestamped signatures (replays older than this are refused). */
export const TOLERANCE_SECONDS = 300;

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const hmac = (key: string | Buffer, ...parts: (string | Buffer)[]) => {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest();
};

function secretOf(value: string | undefined, name: string): string {
  if (!value) throw new WebhookRejected(`${name} is not configured; the delivery cannot be verified`);
  return value;
}

function fresh(timestampSeconds: number): void {
  if (!Number.isFinite(timestampSeconds) || Math.abs(clock.nowMs() / 1000 - timestampSeconds) > TOLERANCE_SECONDS) {
    throw new WebhookRejected('signature timestamp is missing or outside the tolerance window');
  }
}

/** The body as JSON for picking ids, after verification; a body that is not JSON still gets a stable id. */
function peek(raw: Buffer): Record<string, any> {
  try {
    const body = JSON.parse(raw.toString('utf8'));
    return body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  } catch {
    return {};
  }
}

const digestId = (raw: Buffer) => `sha256:${createHash('sha256').update(raw).digest('hex')}`;

/** Billing, Stripe's scheme: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, 300 s tolerance. */
export const billing: Verifier = async (raw, headers, cfg) => {
  const secret = secretOf(cfg.BILLING_WEBHOOK_SECRET, 'BILLING_WEBHOOK_SECRET');
  const parts = (header(headers, 'stripe-signature') ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => Buffer.from(v ?? '', 'hex'));
  if (!t || !signatures.length) throw new WebhookRejected('missing Stripe-Signature');
  fresh(Number(t));
  const expected = hmac(secret, `${t}.`, raw);
  if (!signatures.some((s) => equal(s, expected))) throw new WebhookRejected('bad signature');
  const body = peek(raw);
  return { eventId: typeof body.id === 'string' ? body.id : digestId(raw), eventType: body.type ?? null };
};

/** Video, LiveKit's scheme: a JWT in `Authorization` (HS256, issuer = API key) whose `sha256` claim hashes the body. */
export const video: Verifier = async (raw, headers) => {
  // Configured credentials, or the sandbox provider's per-deployment ones.
  const { key, secret } = await videoCredentials().catch((err: Error) => {
    throw new WebhookRejected(err.message);
  });
  const token = (header(headers, 'authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
  if (!token) throw new WebhookRejected('missing Authorization token');
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: key, currentDate: clock.now() }));
  } catch {
    throw new WebhookRejected('bad token');
  }
  const digest = createHash('sha256').update(raw).digest();
  const claimed = typeof claims.sha256 === 'string' ? Buffer.from(claims.sha256, 'base64') : Buffer.alloc(0);
  if (!equal(claimed, digest)) throw new WebhookRejected('body does not match the token');
  const body = peek(raw);
  return { eventId: typeof body.id === 'string' ? body.id : digestId(raw), eventType: body.event ?? null };
};

/** Messaging, the WhatsApp Cloud API's scheme: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`. */
export const messaging: Verifier = async (raw, headers, cfg) => {
  const secret = secretOf(cfg.MESSAGING_APP_SECRET, 'MESSAGING_APP_SECRET');
  const given = (header(headers, 'x-hub-signature-256') ?? '').replace(/^sha256=/, '');
  if (!given) throw new WebhookRejected('missing X-Hub-Signature-256');
  if (!equal(Buffer.from(given, 'hex'), hmac(secret, raw))) throw new WebhookRejected('bad signature');
  // One delivery can batch many messages and receipts; the delivery itself is identified by its content.
  const body = peek(raw);
  return { eventId: digestId(raw), eventType: body.entry?.[0]?.changes?.[0]?.field ?? body.object ?? null };
};

/**
 * Standard Webhooks (Svix): `<p>-id`, `<p>-timestamp`, `<p>-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * the key being the base64 part of a `whsec_...` secret; 300 s tolerance.
 */
function standardWebhooks(prefix: 'svix' | 'webhook', secretName: keyof Config): Verifier {
  return async (raw, headers, cfg) => {
    const secret = secretOf(cfg[secretName] as string | undefined, secretName);
    const id = header(headers, `${prefix}-id`);
    const timestamp = header(headers, `${prefix}-timestamp`);
    const signatures = (header(headers, `${prefix}-signature`) ?? '')
      .split(' ')
      .map((s) => s.split(','))
      .filter(([version]) => version === 'v1')
      .map(([, sig]) => Buffer.from(sig ?? '', 'base64'));
    if (!id || !timestamp || !signatures.length) throw new WebhookRejected(`missing ${prefix}-id, -timestamp or -signature`);
    fresh(Number(timestamp));
    const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
    const expected = hmac(key, `${id}.${timestamp}.`, raw);
    if (!signatures.some((s) => equal(s, expected))) throw new WebhookRejected('bad signature');
    return { eventId: id, eventType: peek(raw).type ?? null };
  };
}

export const mailer = standardWebhooks('svix', 'MAILER_WEBHOOK_SECRET');
export const forms = standardWebhooks('webhook', 'INBOUND_FORMS_SECRET');

/**
 * Mobile money callbacks carry no signature in real life: they are trusted through a per-payment secret in the
 * callback URL (`?payment=<id>&token=<HMAC>`, shared/adapters/mobile-money.ts) and a status query back to the
 * provider, which the payments module makes before believing one. The sandbox also signs the body:
 * `X-Signature: sha256=<hex HMAC-SHA256>`. Either one admits the delivery.
 */
function mobileMoney(channel: MobileMoneyChannel): Verifier {
  return async (raw, headers, _cfg, url) => {
    const given = (header(headers, 'x-signature') ?? '').replace(/^sha256=/, '');
    const payment = url?.searchParams.get('payment');
    const token = url?.searchParams.get('token');
    if (given) {
      if (!equal(Buffer.from(given, 'hex'), hmac(await mobileMoneyCallbackSecret(channel), raw)))
        throw new WebhookRejected('bad signature');
    } else if (payment && token) {
      if (!(await callbackTokenMatches(channel, payment, token))) throw new WebhookRejected('bad callback token');
    } else {
      throw new WebhookRejected('missing X-Signature or callback token');
    }
    const body = peek(raw);
    const id = body.id ?? body.transaction_id ?? body.reference ?? body.externalId ?? body.financialTransactionId;
    return {
      eventId: typeof id === 'string' || typeof id === 'number' ? String(id) : digestId(raw),
      eventType: body.status ?? body.event ?? null,
    };
  };
}

export const mobileMoneyA = mobileMoney('mobile_money_a');
export const mobileMoneyB = mobileMoney('mobile_money_b');

/**
 * The platform's own deliveries: an event of its bus relayed to the inbound path SPEC names for it (approved leave to
 * `/api/workforce/webhooks/leave-approved`). `X-Platform-Signature: t=<unix>,v1=<hex HMAC-SHA256>` over
 * `webhook.<t>.` and the body with the internal secret, 300 s tolerance; the event id is the delivery's id.
 */
export const platform: Verifier = async (raw, headers) => {
  const parts = (header(headers, INTERNAL_SIGNATURE_HEADER) ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => Buffer.from(v ?? '', 'hex'));
  if (!t || !/^\d+$/.test(t) || !signatures.length) throw new WebhookRejected(`missing ${INTERNAL_SIGNATURE_HEADER}`);
  fresh(Number(t));
  const expected = await internalWebhookMac(Number(t), raw);
  if (!signatures.some((s) => equal(s, expected))) throw new WebhookRejected('bad signature');
  const body = peek(raw);
  return { eventId: typeof body.id === 'string' ? body.id : digestId(raw), eventType: typeof body.topic === 'string' ? body.topic : null };
};
