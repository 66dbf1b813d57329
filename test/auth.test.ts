import { clock } from '../shared/clock';
import { signToken } from '../shared/tokens';
import { ensureBootstrapAdmin } from '../subgraphs/org/users/auth.service';
import { User } from '../subgraphs/org/users/user.entity';
import { PASSWORD, signUp, startApp, uniqueEmail, type Api, type TestApp } from './support/app';

let app: TestApp;
let api: Api;

beforeAll(async () => {
  app = await startApp();
  api = app.api;
});
afterAll(() => app.close());

const register = (fields: Record<string, unknown>) =>
  api.post('/api/auth/register', { email: uniqueEmail(), password: PASSWORD, first_name: 'Kofi', last_name: 'Boateng', ...fields });

describe('POST /api/auth/register', () => {
  it('creates the user and signs them in', async () => {
    const email = uniqueEmail('kofi');
    const res = await register({ email, registration_role: 'DOCTOR' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.user).toMatchObject({ email, first_name: 'Kofi', last_name: 'Boateng', registration_role: 'DOCTOR' });
    expect(res.body.data.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.data.token).toMatch(/^v4\.public\./);
    expect(res.body.data.refresh_token).toMatch(/^v4\.public\./);
    expect(res.body.data.user).not.toHaveProperty('password');
    expect(res.body.data.user).not.toHaveProperty('password_hash');
  });

  it('defaults the registration role to PATIENT and stores the email in lower case', async () => {
    const res = await register({ email: `MiXed.${Date.now()}@Example.TEST` });
    expect(res.status).toBe(201);
    expect(res.body.data.user.registration_role).toBe('PATIENT');
    expect(res.body.data.user.email).toBe(res.body.data.user.email.toLowerCase());
  });

  it('stores the password with argon2id, never in clear', async () => {
    const res = await register({});
    const user = await app.em('org').findOneOrFail(User, { id: res.body.data.user.id }, { populate: ['passwordHash'] });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('answers 409 for an email already registered, whatever its case', async () => {
    const email = uniqueEmail('dup');
    expect((await register({ email })).status).toBe(201);
    const again = await register({ email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, error: { code: 'CONFLICT', message: expect.stringMatching(/already exists/) } });
  });

  it('rejects a weak password, naming the field', async () => {
    const res = await register({ password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/password/);
    expect(res.body.error.details).toEqual([{ field: 'password', message: expect.any(String) }]);
  });

  it('names every missing field', async () => {
    const res = await api.post('/api/auth/register', { email: uniqueEmail() });
    expect(res.status).toBe(400);
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['first_name', 'last_name', 'password']);
    expect(res.body.error.message).toMatch(/first_name is required/);
  });

  it('rejects an invalid email, wrong types and self-assigned platform roles', async () => {
    expect((await register({ email: 'not-an-email' })).body.error.details[0].field).toBe('email');
    const typed = await register({ first_name: 42 });
    expect(typed.status).toBe(400);
    expect(typed.body.error.details).toEqual([{ field: 'first_name', message: 'must be a string' }]);
    const role = await register({ registration_role: 'SUPER:ADMIN' });
    expect(role.status).toBe(400);
    expect(role.body.error.details[0].field).toBe('registration_role');
  });

  it('changes nothing when the input is invalid', async () => {
    const email = uniqueEmail('nothing');
    await register({ email, password: 'weak' });
    expect(await app.em('org').count(User, { email })).toBe(0);
  });
});

describe('register in GraphQL: expected failures are userErrors', () => {
  const mutation = `mutation($input: RegisterInput!) {
    register(input: $input) { session { token user { email } } userErrors { field message code } }
  }`;
  const input = (fields: Record<string, unknown> = {}) => ({
    email: uniqueEmail(),
    password: PASSWORD,
    firstName: 'Ama',
    lastName: 'Mensah',
    ...fields,
  });

  it('answers the session and no user errors, then an email taken as DUPLICATE with the session null', async () => {
    const email = uniqueEmail('graph');
    const ok = await api.graphql(mutation, { input: input({ email }) }, { token: null });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.register.userErrors).toEqual([]);
    expect(ok.body.data.register.session).toEqual({ token: expect.stringMatching(/^v4\.public\./), user: { email } });
    const again = await api.graphql(mutation, { input: input({ email }) }, { token: null });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.register).toEqual({
      session: null,
      userErrors: [{ field: null, message: 'An account with this email already exists', code: 'DUPLICATE' }],
    });
  });

  it('names the input field of a weak password and a bad email as INVALID', async () => {
    const res = await api.graphql(mutation, { input: input({ password: 'short', email: 'not-an-email' }) }, { token: null });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.register.session).toBeNull();
    const fields = res.body.data.register.userErrors.map((e: { field: string[]; code: string }) => [e.field.join('.'), e.code]);
    expect(fields.sort()).toEqual([
      ['input.email', 'INVALID'],
      ['input.password', 'INVALID'],
    ]);
  });

  it('keeps a malformed request top-level: a control character, a wrong type', async () => {
    const control = await api.graphql(mutation, { input: input({ firstName: 'Ama\u0000' }) }, { token: null });
    expect(control.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(control.body.data ?? null).toBeNull();
    const typed = await api.graphql(mutation, { input: input({ firstName: 42 }) }, { token: null });
    expect(typed.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/auth/login', () => {
  it('answers data.user and a v4.public data.token', async () => {
    const email = uniqueEmail('login');
    await register({ email, registration_role: 'DOCTOR' });
    const res = await api.post('/api/auth/login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data.user).sort()).toEqual(
      expect.arrayContaining(['id', 'email', 'first_name', 'last_name', 'registration_role']),
    );
    expect(res.body.data.user.registration_role).toBe('DOCTOR');
    expect(res.body.data.token).toMatch(/^v4\.public\.[A-Za-z0-9_-]+$/);
    expect(res.body.data.expires_in).toBeGreaterThan(0);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const email = uniqueEmail('wrong');
    await register({ email });
    const wrong = await api.post('/api/auth/login', { email, password: 'Wrong-passw0rd' });
    const unknown = await api.post('/api/auth/login', { email: uniqueEmail('nobody'), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
  });

  it('requires both fields', async () => {
    const res = await api.post('/api/auth/login', {});
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'password']);
  });
});

describe('GET /api/auth/me', () => {
  it('returns the signed-in user', async () => {
    const { api: me, user } = await signUp(api);
    const res = await me.get('/api/auth/me');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, email: user.email });
  });

  it.each([
    ['no token', {}],
    ['a malformed header', { headers: { authorization: 'Token abc' } }],
    ['a token that is not PASETO', { token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' }],
  ])('answers 401 for %s', async (_name, opts) => {
    const res = await api.get('/api/auth/me', opts);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });

  it('answers 401 for a tampered token', async () => {
    const { token } = await signUp(api);
    const body = token.slice('v4.public.'.length);
    const flipped = body.slice(0, 10) + (body[10] === 'A' ? 'B' : 'A') + body.slice(11);
    const res = await api.get('/api/auth/me', { token: `v4.public.${flipped}` });
    expect(res.status).toBe(401);
  });

  it('answers 401 for an expired token', async () => {
    const { user } = await signUp(api);
    const expired = await signToken({ sub: user.id, sid: '00000000-0000-4000-8000-000000000000', typ: 'access' }, 1);
    // The platform runs in this process: move its clock past the expiry instead of waiting for it.
    clock.advance(2000);
    try {
      const res = await api.get('/api/auth/me', { token: expired });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/expired/i);
    } finally {
      clock.reset();
    }
  });

  it('answers 401 for a refresh token used as an access token', async () => {
    const res = await api.post('/api/auth/register', { email: uniqueEmail(), password: PASSWORD, first_name: 'A', last_name: 'B' });
    const me = await api.get('/api/auth/me', { token: res.body.data.refresh_token });
    expect(me.status).toBe(401);
  });
});

describe('bootstrap administrator', () => {
  it('exists after start with SUPER:ADMIN and is not duplicated by another start', async () => {
    const email = process.env.BOOTSTRAP_ADMIN_EMAIL!;
    await ensureBootstrapAdmin(app.em('org'));
    await ensureBootstrapAdmin(app.em('org'));
    const users = await app.em('org').find(User, { email });
    expect(users).toHaveLength(1);
    expect(users[0].roles).toContain('SUPER:ADMIN');
    const login = await api.post('/api/auth/login', { email, password: process.env.BOOTSTRAP_ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.data.user.roles).toEqual(['SUPER:ADMIN']);
  });
});
