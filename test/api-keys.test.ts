import { clock } from '../shared/clock';
import { sha256 } from '../shared/tokens';
import { ApiKeySecret } from '../subgraphs/org/api-keys/api-key.entity';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
let admin: SignedUp;
let orgId: string;

beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app.api, { registration_role: 'DOCTOR' });
  orgId = (await createOrganization(admin.api)).id;
});
afterEach(() => clock.reset());
afterAll(async () => {
  clock.reset();
  await app.close();
});

const asKey = (key: string) => ({ headers: { 'x-api-key': key } });

async function createKey(scopes: string[], api: Api = admin.api, org = orgId) {
  const res = await api.post('/api/developer/keys', { name: 'EMR sync', scopes, organization_id: org });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${res.text}`);
  return res.body.data as { id: string; key: string; scopes: string[]; prefix: string };
}

describe('POST /api/developer/keys', () => {
  it('creates a key whose secret is shown once and stored only as a hash', async () => {
    const res = await admin.api.post('/api/developer/keys', { name: 'Lab bridge', scopes: ['patients:read'], organization_id: orgId });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Lab bridge', scopes: ['patients:read'], organization_id: orgId, revoked_at: null });
    expect(res.body.data.key).toMatch(/^ccp_[A-Za-z0-9_-]{43}$/);
    expect(res.body.data.key.startsWith(res.body.data.prefix)).toBe(true);
    const secrets = await app.em('org').find(ApiKeySecret, { apiKey: res.body.data.id });
    expect(secrets.map((s) => s.secretHash)).toEqual([sha256(res.body.data.key)]);
    const list = await admin.api.get('/api/developer/keys');
    expect(list.status).toBe(200);
    expect(list.body.data.find((k: { id: string }) => k.id === res.body.data.id)).toBeDefined();
    expect(list.text).not.toContain(res.body.data.key);
    expect(list.body.meta.total).toBeGreaterThanOrEqual(1);
  });

  it('takes the only organization the caller administers when none is named', async () => {
    const solo = await signUp(app.api);
    const org = await createOrganization(solo.api);
    const res = await solo.api.post('/api/developer/keys', { name: 'k', scopes: ['patients:read'] });
    expect(res.status).toBe(201);
    expect(res.body.data.organization_id).toBe(org.id);
  });

  it('validates scopes against the real resource list', async () => {
    const res = await admin.api.post('/api/developer/keys', {
      name: 'k',
      scopes: ['patients:read', 'spaceships:write'],
      organization_id: orgId,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'scopes', message: expect.stringMatching(/^must only contain: .*patients:read/) }]);
    expect((await admin.api.post('/api/developer/keys', { name: 'k', scopes: [], organization_id: orgId })).status).toBe(400);
    expect((await admin.api.post('/api/developer/keys', { name: 'k', scopes: 'patients:read', organization_id: orgId })).status).toBe(201);
  });

  it('is for organization administrators only', async () => {
    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, orgId, nurse.user.id, 'ORG:NURSE');
    expect((await nurse.api.post('/api/developer/keys', { name: 'k', scopes: ['patients:read'], organization_id: orgId })).status).toBe(
      403,
    );
    const stranger = await signUp(app.api);
    expect((await stranger.api.post('/api/developer/keys', { name: 'k', scopes: ['patients:read'], organization_id: orgId })).status).toBe(
      404,
    );
    expect((await app.api.post('/api/developer/keys', { name: 'k', scopes: ['patients:read'] })).status).toBe(401);
  });
});

describe('X-API-Key', () => {
  it('acts for its organization with only its scopes', async () => {
    const patient = await admin.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT);
    const { key } = await createKey(['patients:read']);
    const read = await app.api.get(`/api/organizations/${orgId}/patients`, asKey(key));
    expect(read.status).toBe(200);
    expect(read.body.data.length).toBeGreaterThan(0);
    expect((await app.api.get(`/api/patients/${patient.body.data.id}`, asKey(key))).status).toBe(200);
    const write = await app.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT, asKey(key));
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
    expect((await app.api.post('/api/patients', SAMPLE_PATIENT, asKey(key))).status).toBe(403);
  });

  it('registers patients into its own organization with patients:write', async () => {
    const { key } = await createKey(['patients:read', 'patients:write']);
    const res = await app.api.post('/api/patients', SAMPLE_PATIENT, asKey(key));
    expect(res.status).toBe(201);
    expect(res.body.data.organization_id).toBe(orgId);
    expect(res.body.data.mrn).toMatch(/^MRN-\d{6}$/);
  });

  it('sees nothing of another organization, and cannot manage keys or act as a person', async () => {
    const { key } = await createKey(['patients:read', 'organizations:read']);
    const other = await signUp(app.api);
    const otherOrg = await createOrganization(other.api);
    const theirs = await other.api.post(`/api/organizations/${otherOrg.id}/patients`, SAMPLE_PATIENT);
    expect((await app.api.get(`/api/organizations/${otherOrg.id}/patients`, asKey(key))).status).toBe(404);
    expect((await app.api.get(`/api/patients/${theirs.body.data.id}`, asKey(key))).status).toBe(404);
    expect((await app.api.post('/api/developer/keys', { name: 'x', scopes: ['patients:read'] }, asKey(key))).status).toBe(403);
    expect((await app.api.get('/api/auth/me', asKey(key))).status).toBe(403);
  });

  it('works through GraphQL with the same rules', async () => {
    const { key } = await createKey(['patients:read']);
    const q = 'query($o: ID!) { organizationPatients(organizationId: $o) { total } }';
    const res = await app.api.graphql(q, { o: orgId }, asKey(key));
    expect(res.body.data.organizationPatients.total).toBeGreaterThanOrEqual(0);
    const m = await app.api.graphql(
      'mutation($o: ID!, $i: PatientInput!) { createOrganizationPatient(organizationId: $o, input: $i) { patient { id } } }',
      { o: orgId, i: { firstName: 'A', lastName: 'B', dateOfBirth: '1990-01-01' } },
      asKey(key),
    );
    expect(m.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('rejects unknown keys and requests carrying both a token and a key', async () => {
    expect((await app.api.get(`/api/organizations/${orgId}/patients`, asKey('ccp_not-a-key'))).status).toBe(401);
    const { key } = await createKey(['patients:read']);
    const both = await admin.api.get(`/api/organizations/${orgId}/patients`, asKey(key));
    expect(both.status).toBe(401);
  });
});

describe('rotation and revocation', () => {
  it('keeps the previous secret working for exactly 24 hours after a rotation', async () => {
    const created = await createKey(['patients:read']);
    const rotated = await admin.api.post(`/api/developer/keys/${created.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.key).not.toBe(created.key);
    const graceEnd = Date.parse(rotated.body.data.previous_valid_until);
    expect(graceEnd - clock.nowMs()).toBeGreaterThan(24 * 3600 * 1000 - 5000);
    const read = (key: string) => app.api.get(`/api/organizations/${orgId}/patients`, asKey(key));
    expect((await read(created.key)).status).toBe(200);
    expect((await read(rotated.body.data.key)).status).toBe(200);

    clock.advance(graceEnd - clock.nowMs() - 1000);
    expect((await read(created.key)).status).toBe(200);
    clock.advance(2000);
    const late = await read(created.key);
    expect(late.status).toBe(401);
    expect(late.body.error.message).toMatch(/grace period/);
    expect((await read(rotated.body.data.key)).status).toBe(200);
  });

  it('rejects a revoked key at once, old secrets included', async () => {
    const created = await createKey(['patients:read']);
    const read = (key: string) => app.api.get(`/api/organizations/${orgId}/patients`, asKey(key));
    expect((await read(created.key)).status).toBe(200); // now cached at the edge
    const rotated = await admin.api.post(`/api/developer/keys/${created.id}/rotate`);
    const res = await admin.api.delete(`/api/developer/keys/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.revoked_at).toBeTruthy();
    expect((await read(created.key)).status).toBe(401);
    expect((await read(rotated.body.data.key)).status).toBe(401);
    expect((await admin.api.post(`/api/developer/keys/${created.id}/rotate`)).status).toBe(409);
  });

  it("hides other organizations' keys (404)", async () => {
    const created = await createKey(['patients:read']);
    const stranger = await signUp(app.api);
    expect((await stranger.api.post(`/api/developer/keys/${created.id}/rotate`)).status).toBe(404);
    expect((await stranger.api.delete(`/api/developer/keys/${created.id}`)).status).toBe(404);
    expect((await admin.api.delete('/api/developer/keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('lets platform administrators list every key', async () => {
    await createKey(['patients:read']);
    const platform = await signInAdmin(app.api);
    const res = await platform.get('/api/developer/keys?limit=100');
    expect(res.body.meta.total).toBeGreaterThanOrEqual(1);
  });
});
