import { createHash, createHmac, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Api, ApiResponse } from './app';

/** Signs deliveries the way each provider does, so tests send what the real provider would. */
const env = (name: string) => process.env[name]!;
const hmacHex = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest('hex');
const hmacB64 = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest('base64');
const now = () => Math.floor(Date.now() / 1000);

export const sign = {
  billing: (body: string, t = now(), secret = env('BILLING_WEBHOOK_SECRET')) => ({
    'stripe-signature': `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`,
  }),
  messaging: (body: string, secret = env('MESSAGING_APP_SECRET')) => ({ 'x-hub-signature-256': `sha256=${hmacHex(secret, body)}` }),
  standard:
    (prefix: 'svix' | 'webhook', secretName: string) =>
    (body: string, id = `msg_${randomUUID()}`, t = now()) => {
      const key = Buffer.from(env(secretName).slice('whsec_'.length), 'base64');
      return {
        [`${prefix}-id`]: id,
        [`${prefix}-timestamp`]: String(t),
        [`${prefix}-signature`]: `v1,${hmacB64(key, `${id}.${t}.${body}`)}`,
      };
    },
  mobileMoney: (body: string, secret = env('MOBILE_MONEY_A_SECRET')) => ({ 'x-signature': `sha256=${hmacHex(secret, body)}` }),
  video: async (body: string, secret = env('VIDEO_API_SECRET')) => ({
    authorization: await new SignJWT({ sha256: createHash('sha256').update(body).digest('base64') })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(env('VIDEO_API_KEY'))
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret)),
  }),
};
export const signMailer = sign.standard('svix', 'MAILER_WEBHOOK_SECRET');
export const signForms = sign.standard('webhook', 'INBOUND_FORMS_SECRET');

/** POSTs a raw body as a provider would, over HTTPS as seen through a trusted proxy unless `https` is false. */
export function deliver(api: Api, path: string, body: string, headers: Record<string, string>, https = true): Promise<ApiResponse> {
  return api.request('POST', path, undefined, {
    raw: body,
    token: null,
    headers: { 'content-type': 'application/json', ...(https ? { 'x-forwarded-proto': 'https' } : {}), ...headers },
  });
}
