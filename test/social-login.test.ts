import { startOidcSandbox, type OidcSandbox } from '../shared/adapters/oidc-sandbox';
import { resetConfig } from '../shared/config';
import { UserIdentity } from '../subgraphs/org/users/user-token.entity';
import { PASSWORD, signUp, startApp, uniqueEmail, type TestApp } from './support/app';

let app: TestApp;
let idp: OidcSandbox;
let impostor: OidcSandbox;

beforeAll(async () => {
  idp = await startOidcSandbox();
  // Same issuer name, different signing key: tokens it mints must not be accepted.
  impostor = await startOidcSandbox();
  process.env.OIDC_PROVIDERS = JSON.stringify([idp.provider]);
  resetConfig();
  app = await startApp();
});
afterAll(async () => {
  await app.close();
  await idp.close();
  await impostor.close();
  delete process.env.OIDC_PROVIDERS;
  resetConfig();
});

const socialLogin = (idToken: string, extra: Record<string, unknown> = {}) =>
  app.api.post('/api/auth/social-login', { provider: 'sandbox', id_token: idToken, ...extra });

describe('POST /api/auth/social-login', () => {
  it('creates the user on first login and finds the same user later', async () => {
    const email = uniqueEmail('social');
    const claims = { sub: `google-${Date.now()}`, email, email_verified: true, given_name: 'Nia', family_name: 'Achieng' };
    const first = await socialLogin(await idp.mintIdToken(claims), { registration_role: 'DOCTOR' });
    expect(first.status).toBe(200);
    expect(first.body.data.user).toMatchObject({
      email,
      first_name: 'Nia',
      last_name: 'Achieng',
      registration_role: 'DOCTOR',
      email_verified: true,
    });
    expect(first.body.data.token).toMatch(/^v4\.public\./);
    const again = await socialLogin(await idp.mintIdToken({ ...claims, email: uniqueEmail('changed') }));
    expect(again.status).toBe(200);
    expect(again.body.data.user.id).toBe(first.body.data.user.id);
    expect(await app.em('org').count(UserIdentity, { subject: claims.sub })).toBe(1);
  });

  it('links an existing account when the provider vouches for the email, and refuses when it does not', async () => {
    const { user } = await signUp(app.api);
    const unverified = await socialLogin(await idp.mintIdToken({ sub: `x-${Date.now()}`, email: user.email, email_verified: false }));
    expect(unverified.status).toBe(409);
    const verified = await socialLogin(await idp.mintIdToken({ sub: `y-${Date.now()}`, email: user.email, email_verified: true }));
    expect(verified.status).toBe(200);
    expect(verified.body.data.user.id).toBe(user.id);
    expect((await app.api.post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it.each([
    ['signed by another key', () => impostor.mintIdToken({ sub: 'a', email: uniqueEmail(), email_verified: true })],
    ['for another client', () => idp.mintIdToken({ sub: 'b', email: uniqueEmail() }, { audience: 'someone-else' })],
    ['expired', () => idp.mintIdToken({ sub: 'c', email: uniqueEmail() }, { expiresInSeconds: -120 })],
    ['not a JWT at all', async () => 'not-a-jwt'],
  ])('rejects an ID token %s with 401', async (_name, mint) => {
    const res = await socialLogin(await mint());
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('names an unknown provider', async () => {
    const res = await app.api.post('/api/auth/social-login', { provider: 'myspace', id_token: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toEqual({ field: 'provider', message: 'must be one of: sandbox' });
  });
});
