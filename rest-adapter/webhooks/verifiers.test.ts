import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignJWT } from 'jose';
import { mobileMoneyCallbackSecret } from '../../shared/adapters/mobile-money';
import { clock } from '../../shared/clock';
import { loadConfig, resetConfig } from '../../shared/config';
import {
  billing,
  forms,
  mailer,
  messaging,
  mobileMoneyA,
  mobileMoneyB,
  TOLERANCE_SECONDS,
  video,
  WebhookRejected,
  type Verifier,
} from './verifiers';

const STANDARD_KEY = Buffer.from('standard-webhooks-key-bytes');
const cfg = loadConfig({
  BILLING_WEBHOOK_SECRET: 'whsec_billing_unit',
  MESSAGING_APP_SECRET: 'messaging-unit-secret',
  MAILER_WEBHOOK_SECRET: `whsec_${STANDARD_KEY.toString('base64')}`,
  INBOUND_FORMS_SECRET: `whsec_${STANDARD_KEY.toString('base64')}`,
  MOBILE_MONEY_A_SECRET: 'mobile-money-a-unit',
  MOBILE_MONEY_B_SECRET: 'mobile-money-b-unit',
});
/** No secrets at all: every provider is unconfigured. */
const bare = loadConfig({});

const VIDEO_KEY = 'video-unit-key';
const VIDEO_SECRET = 'video-unit-secret-long-enough-for-hs256';
// The video verifier reads the process configuration (it shares the credentials with the video adapter).
const savedEnv = { ...process.env };
beforeAll(() => {
  Object.assign(process.env, { VIDEO_API_KEY: VIDEO_KEY, VIDEO_API_SECRET: VIDEO_SECRET, VIDEO_PROVIDER: 'sandbox' });
  resetConfig();
});
afterAll(() => {
  process.env = savedEnv;
  resetConfig();
});
afterEach(() => clock.reset());

const body = JSON.stringify({ id: 'evt_123', type: 'invoice.paid', event: 'room_finished', status: 'SUCCESSFUL', data: { amount: 1250 } });
const raw = Buffer.from(body);
const tampered = Buffer.from(body.replace('1250', '9250'));
const nowSeconds = () => Math.floor(clock.nowMs() / 1000);
const hmacHex = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest('hex');
const hmacB64 = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest('base64');

/** What the verifier threw: it must be a WebhookRejected. */
async function rejection(verifier: Verifier, payload: Buffer, headers: IncomingHttpHeaders, config = cfg): Promise<string> {
  const err = await verifier(payload, headers, config).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookRejected);
  return (err as Error).message;
}

describe('billing (Stripe-Signature)', () => {
  const sign = (t = nowSeconds(), secret = cfg.BILLING_WEBHOOK_SECRET!, payload = body) => ({
    'stripe-signature': `t=${t},v1=${hmacHex(secret, `${t}.${payload}`)}`,
  });

  it('accepts a valid signature, and finds the event id and type in the body', async () => {
    await expect(billing(raw, sign(), cfg)).resolves.toEqual({ eventId: 'evt_123', eventType: 'invoice.paid' });
  });

  it('accepts any of several v1 signatures (secret rotation), and one within the tolerance', async () => {
    const t = nowSeconds() - (TOLERANCE_SECONDS - 5);
    const header = `t=${t}, v1=${hmacHex('old-secret', `${t}.${body}`)}, v1=${hmacHex(cfg.BILLING_WEBHOOK_SECRET!, `${t}.${body}`)}`;
    await expect(billing(raw, { 'stripe-signature': header }, cfg)).resolves.toMatchObject({ eventId: 'evt_123' });
  });

  it('rejects a tampered body, a wrong secret, a stale or future timestamp, and a missing or empty header', async () => {
    expect(await rejection(billing, tampered, sign())).toBe('bad signature');
    expect(await rejection(billing, raw, sign(nowSeconds(), 'whsec_other'))).toBe('bad signature');
    expect(await rejection(billing, raw, sign(nowSeconds() - TOLERANCE_SECONDS - 5))).toMatch(/tolerance/);
    expect(await rejection(billing, raw, sign(nowSeconds() + TOLERANCE_SECONDS + 5))).toMatch(/tolerance/);
    expect(await rejection(billing, raw, {})).toMatch(/missing Stripe-Signature/);
    expect(await rejection(billing, raw, { 'stripe-signature': `t=${nowSeconds()}` })).toMatch(/missing/);
    expect(
      await rejection(billing, raw, { 'stripe-signature': `t=soon,v1=${hmacHex(cfg.BILLING_WEBHOOK_SECRET!, `soon.${body}`)}` }),
    ).toMatch(/tolerance/);
  });

  it('rejects a delivery replayed after the tolerance window', async () => {
    const headers = sign();
    clock.advance((TOLERANCE_SECONDS + 1) * 1000);
    expect(await rejection(billing, raw, headers)).toMatch(/tolerance/);
  });

  it('rejects everything when no secret is configured', async () => {
    expect(await rejection(billing, raw, sign(), bare)).toMatch(/BILLING_WEBHOOK_SECRET is not configured/);
  });

  it('identifies a body without an id by its digest', async () => {
    const other = Buffer.from('not json');
    const t = nowSeconds();
    const verified = await billing(
      other,
      { 'stripe-signature': `t=${t},v1=${hmacHex(cfg.BILLING_WEBHOOK_SECRET!, `${t}.not json`)}` },
      cfg,
    );
    expect(verified).toEqual({ eventId: `sha256:${createHash('sha256').update(other).digest('hex')}`, eventType: null });
  });
});

describe('video (LiveKit JWT with the body digest)', () => {
  const token = (opts: { payload?: string; secret?: string; issuer?: string; expiresAt?: number } = {}) =>
    new SignJWT({
      sha256: createHash('sha256')
        .update(opts.payload ?? body)
        .digest('base64'),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(opts.issuer ?? VIDEO_KEY)
      .setExpirationTime(opts.expiresAt ?? nowSeconds() + 300)
      .sign(new TextEncoder().encode(opts.secret ?? VIDEO_SECRET));

  it('accepts a valid token, with or without the Bearer prefix', async () => {
    await expect(video(raw, { authorization: await token() }, cfg)).resolves.toEqual({ eventId: 'evt_123', eventType: 'room_finished' });
    await expect(video(raw, { authorization: `Bearer ${await token()}` }, cfg)).resolves.toMatchObject({ eventId: 'evt_123' });
  });

  it('rejects a tampered body, a wrong secret or issuer, an expired token, and a missing header', async () => {
    expect(await rejection(video, tampered, { authorization: await token() })).toMatch(/body does not match/);
    expect(await rejection(video, raw, { authorization: await token({ secret: 'another-secret-long-enough-for-hs256' }) })).toBe(
      'bad token',
    );
    expect(await rejection(video, raw, { authorization: await token({ issuer: 'someone-else' }) })).toBe('bad token');
    expect(await rejection(video, raw, { authorization: await token({ expiresAt: nowSeconds() - 60 }) })).toBe('bad token');
    expect(await rejection(video, raw, { authorization: 'Bearer not.a.jwt' })).toBe('bad token');
    expect(await rejection(video, raw, {})).toMatch(/missing Authorization/);
  });

  it('rejects a token replayed after it expired', async () => {
    const headers = { authorization: await token() };
    clock.advance(301_000);
    expect(await rejection(video, raw, headers)).toBe('bad token');
  });
});

describe('messaging (X-Hub-Signature-256)', () => {
  const sign = (secret = cfg.MESSAGING_APP_SECRET!, payload = body) => ({ 'x-hub-signature-256': `sha256=${hmacHex(secret, payload)}` });

  it('accepts a valid signature; the delivery is identified by its content', async () => {
    const batch = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages' }] }] });
    await expect(messaging(Buffer.from(batch), sign(undefined, batch), cfg)).resolves.toEqual({
      eventId: `sha256:${createHash('sha256').update(batch).digest('hex')}`,
      eventType: 'messages',
    });
  });

  it('rejects a tampered body, a wrong secret, a malformed and a missing header, and an unconfigured secret', async () => {
    expect(await rejection(messaging, tampered, sign())).toBe('bad signature');
    expect(await rejection(messaging, raw, sign('other-secret'))).toBe('bad signature');
    expect(await rejection(messaging, raw, { 'x-hub-signature-256': 'sha256=zz' })).toBe('bad signature');
    expect(await rejection(messaging, raw, {})).toMatch(/missing X-Hub-Signature-256/);
    expect(await rejection(messaging, raw, sign(), bare)).toMatch(/MESSAGING_APP_SECRET is not configured/);
  });
});

describe.each([
  ['mailer (Svix)', mailer, 'svix', 'MAILER_WEBHOOK_SECRET'],
  ['forms (Standard Webhooks)', forms, 'webhook', 'INBOUND_FORMS_SECRET'],
] as const)('%s', (_name, verifier, prefix, secretName) => {
  const sign = (opts: { id?: string; t?: number; key?: Buffer; payload?: string } = {}) => {
    const id = opts.id ?? 'msg_2Lh9';
    const t = opts.t ?? nowSeconds();
    return {
      [`${prefix}-id`]: id,
      [`${prefix}-timestamp`]: String(t),
      [`${prefix}-signature`]: `v1,${hmacB64(opts.key ?? STANDARD_KEY, `${id}.${t}.${opts.payload ?? body}`)}`,
    };
  };

  it('accepts a valid signature (among others, space separated); the event id is the delivery id', async () => {
    const headers = sign();
    headers[`${prefix}-signature`] = `v1,${hmacB64('old-key', 'x')} ${headers[`${prefix}-signature`]}`;
    await expect(verifier(raw, headers, cfg)).resolves.toEqual({ eventId: 'msg_2Lh9', eventType: 'invoice.paid' });
  });

  it('rejects a tampered body or id, a wrong secret, a stale timestamp, a missing header, an unconfigured secret', async () => {
    expect(await rejection(verifier, tampered, sign())).toBe('bad signature');
    expect(await rejection(verifier, raw, { ...sign(), [`${prefix}-id`]: 'msg_other' })).toBe('bad signature');
    expect(await rejection(verifier, raw, sign({ key: Buffer.from('another-key') }))).toBe('bad signature');
    expect(await rejection(verifier, raw, sign({ t: nowSeconds() - TOLERANCE_SECONDS - 5 }))).toMatch(/tolerance/);
    for (const name of ['id', 'timestamp', 'signature']) {
      const headers: Record<string, string> = sign();
      delete headers[`${prefix}-${name}`];
      expect(await rejection(verifier, raw, headers)).toMatch(/^missing/);
    }
    expect(await rejection(verifier, raw, { ...sign(), [`${prefix}-signature`]: 'v2,abc' })).toMatch(/^missing/);
    expect(await rejection(verifier, raw, sign(), bare)).toBe(`${secretName} is not configured; the delivery cannot be verified`);
  });

  it('rejects a delivery replayed after the tolerance window', async () => {
    const headers = sign();
    clock.advance((TOLERANCE_SECONDS + 1) * 1000);
    expect(await rejection(verifier, raw, headers)).toMatch(/tolerance/);
  });
});

describe.each([
  ['mobile money A', mobileMoneyA, 'mobile_money_a'],
  ['mobile money B', mobileMoneyB, 'mobile_money_b'],
] as const)("%s (X-Signature, or the payment's callback-URL token)", (_name, verifier, channel) => {
  const sign = async (payload = body, secret?: string) => ({
    'x-signature': `sha256=${hmacHex(secret ?? (await mobileMoneyCallbackSecret(channel)), payload)}`,
  });
  const other = channel === 'mobile_money_a' ? 'mobile_money_b' : 'mobile_money_a';

  it('accepts a valid signature and takes the provider id the body carries', async () => {
    await expect(verifier(raw, await sign(), cfg)).resolves.toEqual({ eventId: 'evt_123', eventType: 'SUCCESSFUL' });
    const callback = JSON.stringify({ financialTransactionId: 123456, status: 'FAILED' });
    await expect(verifier(Buffer.from(callback), await sign(callback), cfg)).resolves.toEqual({ eventId: '123456', eventType: 'FAILED' });
  });

  it("rejects a tampered body, the other channel's secret, a missing signature", async () => {
    expect(await rejection(verifier, tampered, await sign())).toBe('bad signature');
    expect(await rejection(verifier, raw, await sign(body, await mobileMoneyCallbackSecret(other)))).toBe('bad signature');
    expect(await rejection(verifier, raw, {})).toMatch(/missing X-Signature or callback token/);
  });

  it("accepts a real provider's unsigned callback only with the payment's own callback token", async () => {
    const payment = '6f1c2a44-0b7e-4a3e-9a55-1c2d3e4f5a6b';
    const token = createHmac('sha256', await mobileMoneyCallbackSecret(channel))
      .update(`callback:${payment}`)
      .digest('base64url');
    const url = (t: string) => new URL(`https://platform.test/api/payments/webhooks/x?payment=${payment}&token=${t}`);
    await expect(verifier(raw, {}, cfg, url(token))).resolves.toEqual({ eventId: 'evt_123', eventType: 'SUCCESSFUL' });
    await expect(verifier(raw, {}, cfg, url('forged'))).rejects.toThrow('bad callback token');
  });
});
