import { Session } from '../subgraphs/org/users/session.entity';
import { PASSWORD, signUp, startApp, uniqueEmail, type TestApp } from './support/app';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

async function login() {
  const email = uniqueEmail('session');
  await app.api.post('/api/auth/register', { email, password: PASSWORD, first_name: 'Ama', last_name: 'Boateng' });
  const res = await app.api.post('/api/auth/login', { email, password: PASSWORD });
  return res.body.data as { token: string; refresh_token: string; user: { id: string } };
}

describe('POST /api/auth/refresh', () => {
  it('trades a refresh token for new tokens that work', async () => {
    const first = await login();
    const res = await app.api.post('/api/auth/refresh', { refresh_token: first.refresh_token });
    expect(res.status).toBe(200);
    expect(res.body.data.token).toMatch(/^v4\.public\./);
    expect(res.body.data.refresh_token).toMatch(/^v4\.public\./);
    expect(res.body.data.refresh_token).not.toBe(first.refresh_token);
    expect(res.body.data.user.id).toBe(first.user.id);
    expect((await app.api.get('/api/auth/me', { token: res.body.data.token })).status).toBe(200);
  });

  it('refuses the old refresh token, and its reuse ends the whole session', async () => {
    const first = await login();
    const second = (await app.api.post('/api/auth/refresh', { refresh_token: first.refresh_token })).body.data;
    const replay = await app.api.post('/api/auth/refresh', { refresh_token: first.refresh_token });
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toMatch(/already used/);
    // The legitimate holder's newer tokens die with the session: the family is revoked.
    expect((await app.api.post('/api/auth/refresh', { refresh_token: second.refresh_token })).status).toBe(401);
    expect((await app.api.get('/api/auth/me', { token: second.token })).status).toBe(401);
    // Registering signed in too; the login's session is the newer one, and only it ends.
    const [loginSession, registerSession] = await app
      .em('org')
      .find(Session, { userId: first.user.id }, { orderBy: { createdAt: 'desc' } });
    expect(loginSession.revokedAt).toBeInstanceOf(Date);
    expect(registerSession.revokedAt).toBeNull();
  });

  it('rejects an access token, garbage and a missing field', async () => {
    const first = await login();
    expect((await app.api.post('/api/auth/refresh', { refresh_token: first.token })).status).toBe(401);
    expect((await app.api.post('/api/auth/refresh', { refresh_token: 'v4.public.nope' })).status).toBe(401);
    const missing = await app.api.post('/api/auth/refresh', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('refresh_token');
  });

  it('works through GraphQL with the same rotation', async () => {
    const first = await login();
    const q = 'mutation($t: String!) { refreshSession(refreshToken: $t) { token refreshToken } }';
    const ok = await app.api.graphql(q, { t: first.refresh_token });
    expect(ok.body.data.refreshSession.token).toMatch(/^v4\.public\./);
    const again = await app.api.graphql(q, { t: first.refresh_token });
    expect(again.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session: its access and refresh tokens are rejected from then on', async () => {
    const first = await login();
    const res = await app.api.post('/api/auth/logout', undefined, { token: first.token });
    expect(res.status).toBe(200);
    expect(res.body.data.success).toBe(true);
    expect((await app.api.get('/api/auth/me', { token: first.token })).status).toBe(401);
    expect((await app.api.post('/api/auth/refresh', { refresh_token: first.refresh_token })).status).toBe(401);
  });

  it('ends only that session', async () => {
    const { api } = await signUp(app.api);
    const me = (await api.get('/api/auth/me')).body.data;
    const other = await app.api.post('/api/auth/login', { email: me.email, password: PASSWORD });
    await api.post('/api/auth/logout');
    expect((await app.api.get('/api/auth/me', { token: other.body.data.token })).status).toBe(200);
  });

  it('needs a session', async () => {
    expect((await app.api.post('/api/auth/logout')).status).toBe(401);
  });
});
