import { PASSWORD, signInAdmin, signUp, startApp, type Api, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
let owner: Api;
let ownerId: string;

beforeAll(async () => {
  app = await startApp();
  const signed = await signUp(app.api, { registration_role: 'DOCTOR' });
  owner = signed.api;
  ownerId = signed.user.id;
});
afterAll(() => app.close());

describe('organizations', () => {
  it('creates an organization whose creator becomes ORG:ADMIN', async () => {
    const res = await owner.post('/api/organizations', {
      name: 'Nairobi West Clinic',
      type: 'clinic',
      email: 'info@nwc.example.test',
      phone: '+254700000001',
      country: 'KE',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Nairobi West Clinic',
      type: 'clinic',
      status: 'active',
      country: 'KE',
      created_by: ownerId,
      viewer_role: 'ORG:ADMIN',
    });
    const mine = await owner.get('/api/organizations/me');
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((o: { id: string }) => o.id)).toContain(res.body.data.id);
    expect(mine.body.meta).toEqual({ page: 1, limit: 20, total: mine.body.data.length });
  });

  it('validates its fields and names each bad one', async () => {
    const res = await owner.post('/api/organizations', { name: ' ', email: 'nope', phone: '0700', country: 'Kenya', type: 'castle' });
    expect(res.status).toBe(400);
    // The adapter checks the enum first; a request with only a bad enum is also a 400 naming it.
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['type']);
    const fields = await owner.post('/api/organizations', { name: ' ', email: 'nope', phone: '0700', country: 'Kenya' });
    expect(fields.status).toBe(400);
    expect(fields.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['country', 'email', 'name', 'phone']);
  });

  it('lists organizations with pagination meta', async () => {
    await createOrganization(owner);
    await createOrganization(owner);
    const res = await owner.get('/api/organizations?page=1&limit=1');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.meta.page).toBe(1);
    expect(res.body.meta.limit).toBe(1);
    expect(res.body.meta.total).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['limit=1.5', 'limit'],
  ])('rejects bad pagination (%s) with a 400 naming the parameter', async (query, field) => {
    const res = await owner.get(`/api/organizations?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe(field);
  });

  it('reads one organization; unknown and malformed ids are 404', async () => {
    const org = await createOrganization(owner);
    expect((await owner.get(`/api/organizations/${org.id}`)).body.data.id).toBe(org.id);
    const unknown = await owner.get('/api/organizations/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await owner.get('/api/organizations/not-a-uuid')).status).toBe(404);
  });

  it('lets an ORG:ADMIN update it; a member without the role gets 403, an outsider 404', async () => {
    const org = await createOrganization(owner);
    const res = await owner.patch(`/api/organizations/${org.id}`, { city: 'Nairobi', phone: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ city: 'Nairobi', phone: null, name: org.name });

    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, org.id, nurse.user.id, 'ORG:NURSE');
    const forbidden = await nurse.api.patch(`/api/organizations/${org.id}`, { city: 'Mombasa' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');

    const stranger = await signUp(app.api);
    // Active organizations are a public directory to signed-in users, but only members may change them.
    const hidden = await stranger.api.patch(`/api/organizations/${org.id}`, { city: 'Kisumu' });
    expect(hidden.status).toBe(404);
    expect((await owner.get(`/api/organizations/${org.id}`)).body.data.city).toBe('Nairobi');
  });

  it('rejects clearing the name', async () => {
    const org = await createOrganization(owner);
    const res = await owner.patch(`/api/organizations/${org.id}`, { name: null });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'name', message: 'cannot be null' }]);
  });

  it('requires a token', async () => {
    expect((await app.api.get('/api/organizations')).status).toBe(401);
    expect((await app.api.post('/api/organizations', { name: 'X' })).status).toBe(401);
  });

  it('shows administrators every organization, including suspended ones, and filters by status', async () => {
    const admin = await signInAdmin(app.api);
    const res = await admin.get('/api/organizations?status=active&limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data.every((o: { status: string }) => o.status === 'active')).toBe(true);
    const bad = await admin.get('/api/organizations?status=sleeping');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('status');
  });

  it('searches by name', async () => {
    const unique = `Zeta ${Date.now()}`;
    await createOrganization(owner, { name: unique });
    const res = await owner.get(`/api/organizations?search=${encodeURIComponent(unique.toLowerCase())}`);
    expect(res.body.data.map((o: { name: string }) => o.name)).toEqual([unique]);
  });

  it('keeps sessions of different users apart', async () => {
    const other = await signUp(app.api);
    const res = await other.api.get('/api/organizations/me');
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.total).toBe(0);
    expect(PASSWORD).toBeTruthy();
  });
});
