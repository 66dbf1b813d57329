import { createHmac, timingSafeEqual } from 'node:crypto';
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
