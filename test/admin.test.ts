import { User } from '../subgraphs/org/users/user.entity';
import { forgetUser } from '../subgraphs/org/users/identity';
import { PASSWORD, signInAdmin, signUp, startApp, type Api, type TestApp } from './support/app';
import { createOrganization } from './support/org';

let app: TestApp;
let admin: Api;

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
});
afterAll(() => app.close());

describe('GET /api/admin/users', () => {
  it('lists users with pagination and filters (Super Admin)', async () => {
    const doctor = await signUp(app.api, { registration_role: 'DOCTOR', last_name: 'Filterable' });
    await signUp(app.api);
    const res = await admin.get('/api/admin/users?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.meta).toMatchObject({ page: 1, limit: 2 });
    expect(res.body.meta.total).toBeGreaterThan(2);
    expect(res.text).not.toMatch(/password|mfa_secret/);

    const doctors = await admin.get(`/api/admin/users?role=DOCTOR&status=active&search=${doctor.user.email}`);
    expect(doctors.body.data.map((u: { id: string }) => u.id)).toEqual([doctor.user.id]);
    const supers = await admin.get('/api/admin/users?role=SUPER:ADMIN');
    expect(supers.body.data.every((u: { roles: string[] }) => u.roles.includes('SUPER:ADMIN'))).toBe(true);
    expect((await admin.get('/api/admin/users?status=sleeping')).status).toBe(400);
  });

  it('answers 403 to other roles (APP:ADMIN included) and 401 without credentials', async () => {
    const user = await signUp(app.api);
    expect((await user.api.get('/api/admin/users')).status).toBe(403);
    const appAdmin = await signUp(app.api);
    await app.em('org').nativeUpdate(User, { id: appAdmin.user.id }, { roles: ['APP:ADMIN'] });
    await forgetUser(appAdmin.user.id);
    const res = await appAdmin.api.get('/api/admin/users');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await app.api.get('/api/admin/users')).status).toBe(401);
    expect((await app.api.get('/api/admin/health')).status).toBe(401);
    expect((await user.api.get('/api/admin/health')).status).toBe(403);
  });
});

describe('PATCH /api/admin/users/:id/status', () => {
  it('suspending a user rejects their live token, refresh token and API keys at once', async () => {
    const target = await signUp(app.api, { registration_role: 'DOCTOR' });
    const login = await app.api.post('/api/auth/login', { email: target.user.email, password: PASSWORD });
    const org = await createOrganization(target.api);
    const key = (await target.api.post('/api/developer/keys', { name: 'k', scopes: ['patients:read'], organization_id: org.id })).body.data
      .key;
    const keyRead = () => app.api.get(`/api/organizations/${org.id}/patients`, { headers: { 'x-api-key': key } });
    expect((await keyRead()).status).toBe(200);
    expect((await target.api.get('/api/auth/me')).status).toBe(200);

    const res = await admin.patch(`/api/admin/users/${target.user.id}/status`, { status: 'suspended', reason: 'credential sharing' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('suspended');
    expect((await target.api.get('/api/auth/me')).status).toBe(401);
    expect((await app.api.get('/api/auth/me', { token: login.body.data.token })).status).toBe(401);
    expect((await app.api.post('/api/auth/refresh', { refresh_token: login.body.data.refresh_token })).status).toBe(401);
    expect((await keyRead()).status).toBe(401);
    expect((await app.api.post('/api/auth/login', { email: target.user.email, password: PASSWORD })).status).toBe(403);

    const back = await admin.patch(`/api/admin/users/${target.user.id}/status`, { status: 'active' });
    expect(back.body.data.status).toBe('active');
    expect((await app.api.post('/api/auth/login', { email: target.user.email, password: PASSWORD })).status).toBe(200);
    expect((await keyRead()).status).toBe(200);
  });

  it('validates, finds, and refuses to change the caller itself', async () => {
    const target = await signUp(app.api);
    const bad = await admin.patch(`/api/admin/users/${target.user.id}/status`, { status: 'banished' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toEqual({ field: 'status', message: 'must be one of: active, suspended' });
    expect((await admin.patch('/api/admin/users/00000000-0000-4000-8000-000000000000/status', { status: 'suspended' })).status).toBe(404);
    const me = (await admin.get('/api/auth/me')).body.data;
    expect((await admin.patch(`/api/admin/users/${me.id}/status`, { status: 'suspended' })).status).toBe(409);
    expect((await target.api.patch(`/api/admin/users/${me.id}/status`, { status: 'suspended' })).status).toBe(403);
  });
});

describe('suspendUser and activateUser', () => {
  it('move an account by one mutation each; asking for the state it is in changes nothing', async () => {
    const target = await signUp(app.api);
    const suspend = 'mutation($id: ID!) { suspendUser(id: $id, reason: "credential sharing") { id status } }';
    const suspended = await admin.graphql(suspend, { id: target.user.id });
    expect(suspended.body.data.suspendUser).toEqual({ id: target.user.id, status: 'suspended' });
    expect((await target.api.get('/api/auth/me')).status).toBe(401);
    expect((await admin.graphql(suspend, { id: target.user.id })).body.data.suspendUser.status).toBe('suspended');
    const active = await admin.graphql('mutation($id: ID!) { activateUser(id: $id) { status } }', { id: target.user.id });
    expect(active.body.data.activateUser).toEqual({ status: 'active' });
    const me = (await admin.get('/api/auth/me')).body.data;
    expect((await admin.graphql(suspend, { id: me.id })).body.errors[0].extensions.code).toBe('CONFLICT');
  });
});

describe('GET /api/admin/health', () => {
  it('reports PostgreSQL, Redis and the queues, each with latency', async () => {
    const res = await admin.get('/api/admin/health');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('ok');
    const names = res.body.data.checks.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['postgres', 'redis', 'queue:events']));
    for (const check of res.body.data.checks) expect(check).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
    expect(res.body.data.checks.find((c: { name: string }) => c.name === 'queue:events').counts).toMatchObject({
      waiting: expect.any(Number),
    });
  });
});

describe('security audit', () => {
  const events = (api: Api, vars: Record<string, unknown>) =>
    api.graphql(
      'query($u: ID, $t: String) { securityEvents(userId: $u, type: $t, limit: 50) { total items { type actorId userId ip details } } }',
      vars,
    );

  it('records logins, failures, key changes and status changes with actor, time and address', async () => {
    const user = await signUp(app.api);
    await app.api.post(
      '/api/auth/login',
      { email: user.user.email, password: 'Wrong-passw0rd' },
      { headers: { 'x-forwarded-for': '198.51.100.7' } },
    );
    await app.api.post('/api/auth/login', { email: user.user.email, password: PASSWORD });
    await admin.patch(`/api/admin/users/${user.user.id}/status`, { status: 'suspended' });
    const res = await events(admin, { u: user.user.id });
    const types = res.body.data.securityEvents.items.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['user_registered', 'login_failed', 'login_succeeded', 'user_status_changed']));
    const failed = res.body.data.securityEvents.items.find((e: { type: string }) => e.type === 'login_failed');
    expect(failed).toMatchObject({ actorId: null, ip: '198.51.100.7' });
    const status = res.body.data.securityEvents.items.find((e: { type: string }) => e.type === 'user_status_changed');
    expect(status.details).toMatchObject({ from: 'active', to: 'suspended' });
    expect(status.actorId).toBe((await admin.get('/api/auth/me')).body.data.id);
  });

  it('shows people their own events only', async () => {
    const user = await signUp(app.api);
    const own = await events(user.api, {});
    expect(own.body.data.securityEvents.items.every((e: { userId: string }) => e.userId === user.user.id)).toBe(true);
    const other = await signUp(app.api);
    expect((await events(user.api, { u: other.user.id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('records API key creation, rotation and revocation', async () => {
    const owner = await signUp(app.api);
    const org = await createOrganization(owner.api);
    const key = (await owner.api.post('/api/developer/keys', { name: 'k', scopes: ['patients:read'], organization_id: org.id })).body.data;
    await owner.api.post(`/api/developer/keys/${key.id}/rotate`);
    await owner.api.delete(`/api/developer/keys/${key.id}`);
    const res = await admin.graphql('{ securityEvents(type: "api_key_rotated", limit: 100) { items { organizationId actorId } } }');
    expect(res.body.data.securityEvents.items).toContainEqual({ organizationId: org.id, actorId: owner.user.id });
  });
});
