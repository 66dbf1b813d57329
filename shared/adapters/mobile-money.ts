import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../config';
import { tokenKeys } from '../tokens';

/**
 * What the webhook edge and the payments module share about mobile money callbacks (the providers themselves live
 * in subgraphs/revenue/payments). Two callback channels exist, `/api/payments/webhooks/mobile-money-a` and `-b`.
 *
 * Real mobile money callbacks carry no signature (M-Pesa, MTN MoMo): each payment's callback URL carries a secret of
 * its own (`?payment=<id>&token=<HMAC of the id>`), and the payments module asks the provider for the payment's
 * status before believing a callback. The sandbox provider also signs its callbacks (`X-Signature`, HMAC-SHA256 of
 * the body). The key is MOBILE_MONEY_A_SECRET / MOBILE_MONEY_B_SECRET, or, when unset, one derived from the
 * deployment's internal secret (random per deployment), so the sandbox works on a fresh machine and nobody else can
 * forge its callbacks.
 */
export type MobileMoneyChannel = 'mobile_money_a' | 'mobile_money_b';

export const CALLBACK_PATHS: Record<MobileMoneyChannel, string> = {
  mobile_money_a: '/api/payments/webhooks/mobile-money-a',
  mobile_money_b: '/api/payments/webhooks/mobile-money-b',
};

export async function mobileMoneyCallbackSecret(channel: MobileMoneyChannel): Promise<string> {
  const cfg = config();
  const configured = channel === 'mobile_money_a' ? cfg.MOBILE_MONEY_A_SECRET : cfg.MOBILE_MONEY_B_SECRET;
  if (configured) return configured;
  const { internalSecret } = await tokenKeys();
  return createHmac('sha256', internalSecret).update(`ccp-${channel}-callbacks`).digest('base64url');
}

const tokenFor = (secret: string, paymentId: string) => createHmac('sha256', secret).update(`callback:${paymentId}`).digest('base64url');

/** Whether `token` is the callback secret of `paymentId` on this channel. */
export async function callbackTokenMatches(channel: MobileMoneyChannel, paymentId: string, token: string): Promise<boolean> {
  const expected = Buffer.from(tokenFor(await mobileMoneyCallbackSecret(channel), paymentId));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Where the sandbox calls back; the platform points it at itself once it listens (as for the video sandbox). */
let sandboxBaseUrl: string | undefined;
export function setSandboxMobileMoneyBaseUrl(url: string | undefined): void {
  sandboxBaseUrl = url;
}

/** The callback URL a payment gives its provider: the channel's path on the platform, with the payment's own secret. */
export async function callbackUrl(channel: MobileMoneyChannel, paymentId: string, opts: { sandbox: boolean }): Promise<string> {
  const base = (opts.sandbox ? sandboxBaseUrl : undefined) ?? config().PUBLIC_URL;
  const url = new URL(CALLBACK_PATHS[channel], base);
  url.searchParams.set('payment', paymentId);
  url.searchParams.set('token', tokenFor(await mobileMoneyCallbackSecret(channel), paymentId));
  return url.toString();
}

/** The sandbox's signature header value for a callback body. */
export async function signMobileMoneyCallback(channel: MobileMoneyChannel, body: string): Promise<string> {
  return `sha256=${createHmac('sha256', await mobileMoneyCallbackSecret(channel))
    .update(body)
    .digest('hex')}`;
}
