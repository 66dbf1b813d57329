import * as OTPAuth from 'otpauth';
import { clock } from '../shared/clock';
import { User } from '../subgraphs/org/users/user.entity';
import { PASSWORD, signUp, startApp, type Api, type TestApp } from './support/app';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterEach(() => clock.reset());
afterAll(async () => {
  clock.reset();
  await app.close();
});

const codeFor = (secret: string, at = clock.nowMs()) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

/** The start of the next 30 s step, so each code in a test belongs to a step of its own. */
function nextStep() {
  const now = clock.nowMs();
  clock.advance(30_000 - (now % 30_000) + 1);
}

async function enrolled(): Promise<{ api: Api; email: string; secret: string; recoveryCodes: string[] }> {
  const { api, user } = await signUp(app.api);
  const enroll = await api.post('/api/auth/mfa/enroll');
  const secret = enroll.body.data.secret;
  const verify = await api.post('/api/auth/mfa/verify', { code: codeFor(secret) });
  nextStep();
  return { api, email: user.email, secret, recoveryCodes: verify.body.data.recovery_codes };
}

const login = (email: string) => app.api.post('/api/auth/login', { email, password: PASSWORD });
const challenge = (challengeToken: string, code: string) =>
  app.api.post('/api/auth/mfa/challenge', { challenge_token: challengeToken, code });

describe('MFA enrollment', () => {
  it('answers a secret, an otpauth URI and a QR code, and turns on only after a correct code', async () => {
    const { api, user } = await signUp(app.api);
    const res = await api.post('/api/auth/mfa/enroll');
    expect(res.status).toBe(200);
    const { secret, otpauth_uri, qr_code } = res.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    expect((await api.get('/api/auth/me')).body.data.mfa_enabled).toBe(false);

    const wrong = await api.post('/api/auth/mfa/verify', { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].field).toBe('code');
    const malformed = await api.post('/api/auth/mfa/verify', { code: '12ab' });
    expect(malformed.status).toBe(400);

    const ok = await api.post('/api/auth/mfa/verify', { code: codeFor(secret) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.enabled).toBe(true);
    expect(ok.body.data.recovery_codes).toHaveLength(10);
    expect((await api.get('/api/auth/me')).body.data.mfa_enabled).toBe(true);
    const stored = await app.em('org').findOneOrFail(User, { id: user.id }, { populate: ['mfaSecret'] });
    expect(stored.mfaSecret).not.toContain(secret);
    expect((await api.post('/api/auth/mfa/enroll')).status).toBe(409);
  });

  it('needs a signed-in user and a started enrollment', async () => {
    expect((await app.api.post('/api/auth/mfa/enroll')).status).toBe(401);
    const { api } = await signUp(app.api);
    expect((await api.post('/api/auth/mfa/verify', { code: '123456' })).status).toBe(409);
  });
});

describe('MFA sign-in', () => {
  it('answers a challenge instead of tokens, and the challenge with a code completes login', async () => {
    const { email, secret } = await enrolled();
    const res = await login(email);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ mfa_required: true, token: null, refresh_token: null, user: null });
    expect(res.body.data.challenge_token).toMatch(/^v4\.public\./);
    const done = await challenge(res.body.data.challenge_token, codeFor(secret));
    expect(done.status).toBe(200);
    expect(done.body.data.mfa_required).toBe(false);
    expect((await app.api.get('/api/auth/me', { token: done.body.data.token })).status).toBe(200);
  });

  it('rejects a wrong code and lets the same challenge try again', async () => {
    const { email, secret } = await enrolled();
    const { challenge_token } = (await login(email)).body.data;
    const wrong = await challenge(challenge_token, '111111' === codeFor(secret) ? '222222' : '111111');
    expect(wrong.status).toBe(401);
    expect((await challenge(challenge_token, codeFor(secret))).status).toBe(200);
  });

  it('refuses a code replayed within its window, and accepts the next one', async () => {
    const { email, secret } = await enrolled();
    const code = codeFor(secret);
    expect((await challenge((await login(email)).body.data.challenge_token, code)).status).toBe(200);
    const replay = await challenge((await login(email)).body.data.challenge_token, code);
    expect(replay.status).toBe(401);
    nextStep();
    expect((await challenge((await login(email)).body.data.challenge_token, codeFor(secret))).status).toBe(200);
  });

  it('refuses a used challenge and an expired one', async () => {
    const { email, secret } = await enrolled();
    const { challenge_token } = (await login(email)).body.data;
    expect((await challenge(challenge_token, codeFor(secret))).status).toBe(200);
    nextStep();
    const reused = await challenge(challenge_token, codeFor(secret));
    expect(reused.status).toBe(401);
    expect(reused.body.error.message).toMatch(/already used/);

    const late = (await login(email)).body.data.challenge_token;
    clock.advance(6 * 60 * 1000);
    const expired = await challenge(late, codeFor(secret));
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('accepts each recovery code once', async () => {
    const { email, recoveryCodes } = await enrolled();
    const first = await challenge((await login(email)).body.data.challenge_token, recoveryCodes[0].toLowerCase());
    expect(first.status).toBe(200);
    const again = await challenge((await login(email)).body.data.challenge_token, recoveryCodes[0]);
    expect(again.status).toBe(401);
  });

  it('gives GraphQL the same flow', async () => {
    const { email, secret } = await enrolled();
    const res = await app.api.graphql('mutation($i: LoginInput!) { login(input: $i) { mfaRequired challengeToken token } }', {
      i: { email, password: PASSWORD },
    });
    expect(res.body.data.login).toMatchObject({ mfaRequired: true, token: null });
    const done = await app.api.graphql(
      'mutation($t: String!, $c: String!) { completeMfaChallenge(challengeToken: $t, code: $c) { token } }',
      {
        t: res.body.data.login.challengeToken,
        c: codeFor(secret),
      },
    );
    expect(done.body.data.completeMfaChallenge.token).toMatch(/^v4\.public\./);
  });
});

describe('MFA disable', () => {
  it('needs a current code, then logins need no second factor', async () => {
    const { api, email, secret } = await enrolled();
    expect((await api.post('/api/auth/mfa/disable', { code: '000000' === codeFor(secret) ? '999999' : '000000' })).status).toBe(400);
    const res = await api.post('/api/auth/mfa/disable', { code: codeFor(secret) });
    expect(res.status).toBe(200);
    const next = await login(email);
    expect(next.body.data.mfa_required).toBe(false);
    expect(next.body.data.token).toMatch(/^v4\.public\./);
    expect((await api.post('/api/auth/mfa/disable', { code: codeFor(secret) })).status).toBe(409);
  });
});
