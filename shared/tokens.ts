import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { PublicProtocol, type Claims } from 'paseto';
import {
  ExportSecretKeyFactory,
  GenerateKeyPairFactory,
  GetPublicKeyFactory,
  ImportSecretKeyFactory,
  SignFactory,
  VerifyFactory,
  type PublicKey,
  type SecretKey,
} from 'paseto/v4/public';
import { clock } from './clock';
import { config } from './config';
import { errors } from './errors';

/**
 * PASETO v4.public (Ed25519) tokens. The signing key comes from TOKEN_SECRET_KEY, or for development from a key
 * file created on first start (mode 0600). The same file holds the internal secret used in split mode.
 */
const v4 = new PublicProtocol(
  GenerateKeyPairFactory,
  SignFactory,
  VerifyFactory,
  ExportSecretKeyFactory,
  ImportSecretKeyFactory,
  GetPublicKeyFactory,
);

interface KeyMaterial {
  secretKey: SecretKey;
  publicKey: PublicKey;
  internalSecret: string;
}

let keys: Promise<KeyMaterial> | undefined;

async function loadKeyMaterial(): Promise<KeyMaterial> {
  const cfg = config();
  let paserk = cfg.TOKEN_SECRET_KEY;
  let internalSecret = cfg.INTERNAL_SECRET;
  if (!paserk || !internalSecret) {
    const file = cfg.TOKEN_KEY_FILE;
    let stored: { secretKey?: string; internalSecret?: string } = {};
    if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
    if (!stored.secretKey || !stored.internalSecret) {
      const pair = await v4.GenerateKeyPair({ extractable: true });
      stored = {
        secretKey: stored.secretKey ?? (await v4.ExportSecretKey(pair.secretKey)),
        internalSecret: stored.internalSecret ?? randomBytes(32).toString('base64url'),
      };
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
    paserk ??= stored.secretKey;
    internalSecret ??= stored.internalSecret;
  }
  const secretKey = await v4.ImportSecretKey(paserk as `k4.secret.${string}`, { extractable: false });
  const publicKey = await v4.GetPublicKey(secretKey);
  return { secretKey, publicKey, internalSecret: internalSecret! };
}

export function tokenKeys(): Promise<KeyMaterial> {
  keys ??= loadKeyMaterial();
  return keys;
}

/** Forgets loaded keys (tests that change the key configuration). */
export function resetTokenKeys(): void {
  keys = undefined;
  verified.clear();
}

export type TokenType = 'access' | 'refresh' | 'mfa' | 'internal';

export interface TokenClaims {
  sub: string;
  typ: TokenType;
  sid?: string;
  jti?: string;
  [key: string]: string | number | boolean | string[] | undefined;
}

export async function signToken(claims: TokenClaims, expiresInSeconds: number): Promise<string> {
  const { secretKey } = await tokenKeys();
  const clean = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)) as Claims;
  return v4.Sign(secretKey, clean, { expiresIn: expiresInSeconds, now: clock.now() });
}

/**
 * Verified tokens are remembered until they expire: a signature check is a pure function of the token, so a
 * repeat costs a map lookup instead of an Ed25519 verification. Revocation is checked separately, per request.
 */
const verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();
const VERIFIED_CACHE_MAX = 50_000;

export async function verifyToken(token: string, expected: TokenType): Promise<TokenClaims> {
  const hit = verified.get(token);
  if (hit && hit.expiresAt > clock.nowMs()) {
    if (hit.claims.typ !== expected) throw errors.unauthorized('Invalid token');
    return hit.claims;
  }
  if (!token.startsWith('v4.public.')) throw errors.unauthorized('Invalid token');
  const { publicKey } = await tokenKeys();
  let claims: Claims;
  try {
    ({ claims } = await v4.Verify(publicKey, token, { now: clock.now() }));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_PASETO_CLAIM_VALIDATION' && /expired/i.test((err as Error).message)) {
      throw errors.unauthorized('Token expired');
    }
    throw errors.unauthorized('Invalid token');
  }
  const typed = claims as unknown as TokenClaims;
  if (typeof typed.sub !== 'string' || typed.typ !== expected) throw errors.unauthorized('Invalid token');
  const expiresAt = claims.exp ? Date.parse(claims.exp) : 0;
  if (verified.size >= VERIFIED_CACHE_MAX) verified.clear();
  verified.set(token, { claims: typed, expiresAt });
  return typed;
}

/** Opaque secrets (API keys, reset tokens) are stored as SHA-256 digests; they are long and random. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
