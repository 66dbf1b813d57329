import { createHmac, timingSafeEqual } from 'node:crypto';
import { clock } from './clock';
import { config } from './config';
import { tokenKeys } from './tokens';
import type { Viewer } from './viewer';

/**
 * In split mode the gateway hands the verified viewer (and the request's id, client address and user agent) to a
 * subgraph in the `x-viewer` header, signed with the internal secret (HMAC-SHA256) and time-stamped, so a
 * subgraph never trusts a caller-supplied identity.
 */
export const VIEWER_HEADER = 'x-viewer';
const MAX_AGE_MS = 5 * 60_000;

async function mac(payload: string): Promise<Buffer> {
  const { internalSecret } = await tokenKeys();
  return createHmac('sha256', internalSecret).update(payload).digest();
}

/** Who is calling and from where, as the gateway verified it. */
export interface ForwardedCaller {
  viewer?: Viewer;
  requestId?: string;
  ip?: string;
  userAgent?: string;
}

export async function signViewer(caller: ForwardedCaller): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ ...caller, t: Date.now() })).toString('base64url');
  return `${payload}.${(await mac(payload)).toString('base64url')}`;
}

/** The caller in a header (empty when absent: an anonymous internal call); throws when forged or stale. */
export async function verifyViewer(header: string | undefined): Promise<ForwardedCaller> {
  if (!header) return {};
  const [payload, signature] = header.split('.');
  const expected = await mac(payload ?? '');
  const given = Buffer.from(signature ?? '', 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad viewer signature');
  const { t, ...caller } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ForwardedCaller & { t: number };
  if (Math.abs(Date.now() - t) > MAX_AGE_MS) throw new Error('stale viewer header');
  return caller;
}

/**
 * Webhooks the platform sends to itself (an event relayed to the inbound webhook path that SPEC names for it) carry
 * `X-Platform-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "webhook.<t>." + body>` with the internal secret.
 * The `webhook.` prefix keeps these signatures apart from the viewer header's.
 */
export const INTERNAL_SIGNATURE_HEADER = 'x-platform-signature';

export async function internalWebhookMac(timestampSeconds: number, body: string | Buffer): Promise<Buffer> {
  const { internalSecret } = await tokenKeys();
  return createHmac('sha256', internalSecret).update(`webhook.${timestampSeconds}.`).update(body).digest();
}

/** The `X-Platform-Signature` value for `body`, timestamped now. */
export async function signInternalWebhook(body: string): Promise<string> {
  const t = Math.floor(clock.nowMs() / 1000);
  return `t=${t},v1=${(await internalWebhookMac(t, body)).toString('hex')}`;
}

let platformBaseUrl: string | undefined;

/** Where the platform's own processes reach its HTTP edge; the composition root sets it once it listens in one process. */
export function setPlatformUrl(url: string | undefined): void {
  platformBaseUrl = url;
}

/** A path on the platform's own HTTP edge: the address set at start, else PUBLIC_URL. */
export function platformUrl(path: string): string {
  return new URL(path, platformBaseUrl ?? config().PUBLIC_URL).toString();
}
