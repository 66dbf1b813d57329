import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { tokenKeys } from './tokens';

/**
 * Secrets the platform must read back (TOTP seeds) are stored sealed with AES-256-GCM under a key derived from
 * the deployment's internal secret. Format: base64url(iv).base64url(tag).base64url(ciphertext).
 */
async function key(): Promise<Buffer> {
  const { internalSecret } = await tokenKeys();
  return createHash('sha256').update(`ccp-data-key:${internalSecret}`).digest();
}

export async function seal(plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export async function unseal(sealed: string): Promise<string> {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', await key(), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
