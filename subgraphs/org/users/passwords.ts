import { Algorithm, hash, verify } from '@node-rs/argon2';

/** Passwords are hashed with argon2id (OWASP's recommended parameters, the library defaults). */
const ARGON2 = { algorithm: Algorithm.Argon2id } as const;

/** Verified against when there is no real hash, so a wrong email costs as long as a wrong password. */
const DUMMY_HASH = hash('not-a-real-password-0', ARGON2);

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const ok = await verify(storedHash ?? (await DUMMY_HASH), password).catch(() => false);
  return ok && !!storedHash;
}
