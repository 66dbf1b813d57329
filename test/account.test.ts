import { clock } from '../shared/clock';
import { UserToken } from '../subgraphs/org/users/user-token.entity';
import { User } from '../subgraphs/org/users/user.entity';
import { PASSWORD, signUp, startApp, uniqueEmail, type TestApp } from './support/app';
import { lastMail } from './support/mail';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  clock.reset();
  await app.close();
});
afterEach(() => clock.reset());

describe('email verification', () => {
  it('mails a token at registration; verifying it marks the address verified, once', async () => {
    const { api, user } = await signUp(app.api);
    expect((await api.get('/api/auth/me')).body.data.email_verified).toBe(false);
    const mail = await lastMail(user.email, 'verify_email');
    expect(mail.text).toContain(mail.data!.token);
    const res = await app.api.post('/api/auth/verify-email', { token: mail.data!.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true, message: 'Email address verified' });
    expect((await api.get('/api/auth/me')).body.data.email_verified).toBe(true);
    const again = await app.api.post('/api/auth/verify-email', { token: mail.data!.token });
    expect(again.status).toBe(400);
    expect(again.body.error.details[0].field).toBe('token');
  });

  it('also accepts the mailed link (GET ?token=)', async () => {
    const { api, user } = await signUp(app.api);
    const mail = await lastMail(user.email, 'verify_email');
    expect((await app.api.get(`/api/auth/verify-email?token=${mail.data!.token}`)).status).toBe(200);
    expect((await api.get('/api/auth/me')).body.data.email_verified).toBe(true);
  });

  it('stores only a hash of the token and refuses unknown or expired ones', async () => {
    const { user } = await signUp(app.api);
    const mail = await lastMail(user.email, 'verify_email');
    const stored = await app.em('org').find(UserToken, { userId: user.id });
    expect(stored.map((t) => t.tokenHash)).not.toContain(mail.data!.token);
    expect((await app.api.post('/api/auth/verify-email', { token: 'made-up' })).status).toBe(400);
    clock.advance(25 * 3600 * 1000);
    expect((await app.api.post('/api/auth/verify-email', { token: mail.data!.token })).status).toBe(400);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the email exists, and mails only real accounts', async () => {
    const { user } = await signUp(app.api);
    const known = await app.api.post('/api/auth/forgot-password', { email: user.email });
    const unknown = await app.api.post('/api/auth/forgot-password', { email: uniqueEmail('nobody') });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect((await lastMail(user.email, 'reset_password')).data!.token).toBeTruthy();
  });

  it('sets a new password, ends every session, and works once', async () => {
    const { token, user } = await signUp(app.api);
    await app.api.post('/api/auth/forgot-password', { email: user.email });
    const reset = (await lastMail(user.email, 'reset_password')).data!.token;
    const weak = await app.api.post('/api/auth/reset-password', { token: reset, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.details[0].field).toBe('password');
    const res = await app.api.post('/api/auth/reset-password', { token: reset, password: 'Brand-new-pass9' });
    expect(res.status).toBe(200);
    expect((await app.api.get('/api/auth/me', { token })).status).toBe(401);
    expect((await app.api.post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(401);
    expect((await app.api.post('/api/auth/login', { email: user.email, password: 'Brand-new-pass9' })).status).toBe(200);
    const again = await app.api.post('/api/auth/reset-password', { token: reset, password: 'Another-pass9' });
    expect(again.status).toBe(400);
  });

  it('refuses a reset token after an hour', async () => {
    const { user } = await signUp(app.api);
    await app.api.post('/api/auth/forgot-password', { email: user.email });
    const reset = (await lastMail(user.email, 'reset_password')).data!.token;
    clock.advance(61 * 60 * 1000);
    expect((await app.api.post('/api/auth/reset-password', { token: reset, password: 'Brand-new-pass9' })).status).toBe(400);
    clock.reset();
    expect((await app.api.post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(200);
  });
});

describe('referral codes', () => {
  it('gives every user a code that tells who referred, by name only', async () => {
    const { api } = await signUp(app.api, { first_name: 'Zawadi', last_name: 'Mwangi' });
    const code = (await api.get('/api/auth/me')).body.data.referral_code;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const res = await app.api.get(`/api/auth/referral/${code.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ code, valid: true, referrer: { first_name: 'Zawadi', last_name: 'Mwangi' } });
    expect(res.text).not.toContain('@');
  });

  it('says an unknown code is not valid', async () => {
    const res = await app.api.get('/api/auth/referral/NOPE1234');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ code: 'NOPE1234', valid: false, referrer: null });
  });

  it('records the referrer at registration and rejects an unknown code', async () => {
    const referrer = await signUp(app.api);
    const code = (await referrer.api.get('/api/auth/me')).body.data.referral_code;
    const referred = await signUp(app.api, { referral_code: code });
    const stored = await app.em('org').findOneOrFail(User, { id: referred.user.id });
    expect(stored.referredBy).toBe(referrer.user.id);
    const bad = await app.api.post('/api/auth/register', {
      email: uniqueEmail(),
      password: PASSWORD,
      first_name: 'A',
      last_name: 'B',
      referral_code: 'ZZZZZZZZ',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('referral_code');
  });
});
