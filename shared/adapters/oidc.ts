import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { clock } from '../clock';
import { config } from '../config';
import { errors } from '../errors';

/**
 * Social login: an OpenID Connect ID token is accepted only when it is signed by one of the configured provider's
 * keys (fetched from its JWKS and cached), was issued by that provider for our client id, and has not expired.
 */
export interface VerifiedIdentity {
  provider: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

export function configuredProviders(): string[] {
  return config().OIDC_PROVIDERS.map((p) => p.name);
}

export async function verifyIdToken(providerName: string, idToken: string): Promise<VerifiedIdentity> {
  const provider = config().OIDC_PROVIDERS.find((p) => p.name === providerName);
  if (!provider) {
    const known = configuredProviders();
    throw errors.invalidField('provider', known.length ? `must be one of: ${known.join(', ')}` : 'is not configured');
  }
  let keys = keySets.get(provider.jwks_uri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(provider.jwks_uri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    keySets.set(provider.jwks_uri, keys);
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: provider.issuer,
      audience: provider.client_id,
      currentDate: clock.now(),
      clockTolerance: 30,
    }));
  } catch {
    throw errors.unauthorized('The ID token could not be verified');
  }
  if (!payload.sub) throw errors.unauthorized('The ID token names no subject');
  const claim = (name: string) => (typeof payload[name] === 'string' ? (payload[name] as string) : undefined);
  return {
    provider: provider.name,
    subject: payload.sub,
    email: claim('email')?.toLowerCase(),
    emailVerified: payload.email_verified === true || payload.email_verified === 'true',
    givenName: claim('given_name'),
    familyName: claim('family_name'),
  };
}
