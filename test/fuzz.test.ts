import { randomUUID } from 'node:crypto';
import { ORG_ROLES, PERMISSIONS, PLATFORM_PERMISSIONS, type Permission, type PlatformPermission } from '../shared/permissions';
import { forgetUser } from '../subgraphs/org/users/identity';
import { User } from '../subgraphs/org/users/user.entity';
import { signInAdmin, signUp, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

/**
 * Walks every route of the OpenAPI document with inputs a careless or hostile client sends — text with a NUL byte or
 * a lone UTF-16 surrogate, nulls, wrong types, numbers beyond 32 bits, ids that are not UUIDs, malformed bodies — as
 * an anonymous caller, a clinic's doctor and a platform administrator. Whatever the answer, it is never a 5xx.
 */

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; items?: Schema; enum?: string[]; format?: string };
interface Operation {
  method: string;
  path: string;
  params: { name: string; in: 'path' | 'query' }[];
  body: Record<string, Schema> | null;
  required: string[];
}

let app: TestApp;
let c: Clinic;
let admin: Api;
let operations: Operation[];
/** Sign-in routes (logout, MFA, password changes) end or change sessions: they are probed as a user of their own. */
let accountHolder: Api;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  admin = await signInAdmin(app.api);
  accountHolder = (await signUp(app.api)).api;
  const doc = (await app.api.get('/api/openapi.json')).body;
  const resolve = (s: Schema | undefined): Schema => {
    if (!s?.$ref) return s ?? {};
    return resolve(
      s.$ref
        .split('/')
        .slice(1)
        .reduce((node: any, key) => node[key], doc),
    );
  };
  operations = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = (op.parameters ?? [])
        .map((p: any) => (p.$ref ? resolve(p) : p))
        .filter((p: any) => p.in === 'path' || p.in === 'query');
      const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
      operations.push({
        method: method.toUpperCase(),
        path,
        params,
        body: bodySchema.properties ?? (op.requestBody ? {} : null),
        required: (bodySchema as { required?: string[] }).required ?? [],
      });
    }
  }
});
afterAll(() => app.close());

const NUL = 'a\u0000b';
const SURROGATE = '\ud800';
const BAD_TEXT = [NUL, SURROGATE, 'x'.repeat(5000)];
const BAD_VALUES: unknown[] = [...BAD_TEXT, null, 2 ** 31, -1, 1e308, 1.5, true, {}, [], '', 'not-a-uuid', [NUL], { a: NUL }];
const BAD_PATH = ['not-a-uuid', encodeURIComponent(NUL), '%ED%A0%80', '%E0%A4%A', 'x'.repeat(3000), randomUUID()];
const BAD_QUERY = [encodeURIComponent(NUL), '%ED%A0%80', '-1', '99999999999', 'abc', '%'];

function fill(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name));
}

/** A valid-looking request for the route: real ids where the clinic has them, so inputs reach the services. */
function basePath(op: Operation): string {
  return fill(op.path, (name) => (name.includes('org') ? c.orgId : name.includes('patient') ? c.patientId : randomUUID()));
}

/** A plausible value for a body field, from its schema and name, so that a body passes the checks before the one under test. */
function plausible(name: string, schema: Schema | undefined, depth = 0): unknown {
  const s = schema ?? {};
  if (s.enum?.length) return s.enum[0];
  if (s.type === 'array') return depth > 2 ? [] : [plausible(name, s.items, depth + 1)];
  if (s.type === 'object' && s.properties && depth <= 2) {
    return Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, plausible(k, v, depth + 1)]));
  }
  if (s.type === 'integer') return 1;
  if (s.type === 'number') return 1;
  if (s.type === 'boolean') return true;
  if (name === 'country') return 'KE';
  if (name === 'gender') return 'female';
  if (s.format === 'uuid' || name.endsWith('_id'))
    return name.includes('org') || name.includes('pharmacy') ? c.orgId : name.includes('patient') ? c.patientId : randomUUID();
  if (s.format === 'date-time' || name.endsWith('_at') || name.endsWith('_time')) return new Date(Date.now() + 86_400_000).toISOString();
  if (name.includes('date') || name.endsWith('_on') || name.includes('birth')) return '2020-01-01';
  if (name.includes('email')) return 'someone@example.test';
  if (name.includes('phone')) return '+254712345678';
  if (name.includes('currency')) return 'KES';
  if (name.includes('amount') || name.includes('price') || name.includes('fee')) return '10.00';
  return 'Test';
}

interface Probe {
  api: Api;
  method: string;
  url: string;
  body?: unknown;
  raw?: string;
}

/**
 * A body the route accepts as far as can be found: plausible values for every field, then the optional fields the
 * route names as invalid left out, so that probes of one field reach the service rather than stop at another.
 */
async function baseBody(op: Operation): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = Object.fromEntries(Object.entries(op.body ?? {}).map(([k, v]) => [k, plausible(k, v)]));
  const member = op.path.startsWith('/api/auth/') ? accountHolder : c.doctor.api;
  for (let i = 0; i < 5; i++) {
    const res = await member.request(op.method, basePath(op), body);
    const bad = ((res.body?.error?.details ?? []) as { field: string }[])
      .map((d) => d.field.split(/[.[]/)[0])
      .filter((f) => f in body && !op.required.includes(f));
    if (res.status !== 400 || !bad.length) break;
    for (const f of bad) delete body[f];
  }
  return body;
}

function probesFor(op: Operation, whole: Record<string, unknown>): Probe[] {
  const probes: Probe[] = [];
  const member = op.path.startsWith('/api/auth/') ? accountHolder : c.doctor.api;
  const callers = [app.api.as(undefined), member, admin];
  const pathParams = op.params.filter((p) => p.in === 'path');
  const query = op.params.filter((p) => p.in === 'query');
  for (const api of callers) {
    probes.push({ api, method: op.method, url: basePath(op), body: op.body ? {} : undefined });
    for (const p of pathParams) {
      for (const bad of BAD_PATH) {
        probes.push({
          api,
          method: op.method,
          url: fill(op.path, (name) => (name === p.name ? bad : name.includes('org') ? c.orgId : randomUUID())),
          body: op.body ? {} : undefined,
        });
      }
    }
  }
  const api = member;
  for (const p of query) for (const bad of BAD_QUERY) probes.push({ api, method: op.method, url: `${basePath(op)}?${p.name}=${bad}` });
  if (op.body) {
    const body = op.body;
    probes.push({ api, method: op.method, url: basePath(op), body: whole });
    for (const name of Object.keys(body)) {
      for (const bad of BAD_VALUES) {
        probes.push({ api, method: op.method, url: basePath(op), body: { ...whole, [name]: bad } });
        probes.push({ api: admin, method: op.method, url: basePath(op), body: { [name]: bad } });
      }
    }
    for (const raw of ['[]', 'null', '"text"', '{', '{"a":1}x', '{"__proto__":{"x":1}}', '\u0000'])
      probes.push({ api, method: op.method, url: basePath(op), raw });
  }
  return probes;
}

async function send(p: Probe): Promise<{ status: number; text: string }> {
  const res =
    p.raw !== undefined
      ? await p.api.request(p.method, p.url, undefined, { raw: p.raw, headers: { 'content-type': 'application/json' } })
      : await p.api.request(p.method, p.url, p.body);
  return { status: res.status, text: res.text };
}

it('answers every route of the OpenAPI document without a 5xx, whatever the input', async () => {
  expect(operations.length).toBeGreaterThan(100);
  const failures: string[] = [];
  const probes: Probe[] = [];
  for (const op of operations) probes.push(...probesFor(op, op.body ? await baseBody(op) : {}));
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const p = probes[next++];
      const { status, text } = await send(p);
      if (status >= 500) failures.push(`${p.method} ${p.url} ${p.raw ?? JSON.stringify(p.body) ?? ''} -> ${status} ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect(failures).toEqual([]);
  // The probes ran as the people they were meant to: nobody's session was ended on the way.
  expect((await c.doctor.api.get('/api/auth/me')).status).toBe(200);
}, 600_000);

describe('GraphQL input meets the same text and id rules', () => {
  const create = 'mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }';

  it.each([
    ['a NUL byte', NUL, 'must not contain NUL characters'],
    ['a lone surrogate', SURROGATE, 'must be valid Unicode text (it holds an unpaired surrogate)'],
  ])('refuses %s in a variable with a 400 naming it, and stores nothing', async (_what, bad, message) => {
    const res = await c.doctor.api.graphql(create, { i: { name: bad } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: [{ field: 'i.name', message }] });
  });

  it('refuses a NUL byte in a literal argument, naming it', async () => {
    const res = await c.doctor.api.graphql('mutation { createOrganization(input: { name: "a\\u0000b" }) { id } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.details).toEqual([{ field: 'input.name', message: 'must not contain NUL characters' }]);
  });

  it('refuses an id that is no UUID before any query, in a variable or a literal', async () => {
    const byVariable = await c.doctor.api.graphql('query($id: ID!) { organization(id: $id) { id } }', { id: 'not-a-uuid' });
    expect(byVariable.status).toBe(400);
    expect(byVariable.body.errors[0].extensions.details).toEqual([{ field: 'id', message: 'must be an id (a UUID)' }]);
    const literal = await c.doctor.api.graphql(`{ organization(id: "${'x'.repeat(300)}") { id } }`);
    expect(literal.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'id' }] });
  });

  it('answers REST the same way, with the snake_case field and 404 for a path that names no record', async () => {
    const body = await c.doctor.api.post('/api/organizations', { name: NUL, type: 'clinic' });
    expect(body.status).toBe(400);
    expect(body.body.error.details).toEqual([{ field: 'name', message: 'must not contain NUL characters' }]);
    // A null on create is as if the field were not sent: the default applies.
    const nulled = await c.doctor.api.post('/api/organizations', { name: 'x', type: null });
    expect(nulled.status).toBe(201);
    expect(nulled.body.data.type).toBe('clinic');
    expect((await c.doctor.api.get(`/api/organizations/not-a-uuid/patients`)).status).toBe(404);
    const query = await c.doctor.api.get(`/api/organizations?search=${encodeURIComponent(NUL)}`);
    expect(query.status).toBe(400);
    expect(query.body.error.details[0].field).toBe('search');
    expect((await c.doctor.api.get('/api/patients/%ED%A0%80')).status).toBe(400);
  });
});

describe('authentication before validation', () => {
  it('answers an anonymous caller 401 on every route that is not public, whatever the input', async () => {
    const doc = (await app.api.get('/api/openapi.json')).body;
    const anonymous = app.api.as(undefined);
    const wrong: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (
        !path.startsWith('/api/') ||
        path.startsWith('/api/webhooks') ||
        path.startsWith('/api/payments/webhooks') ||
        path.startsWith('/api/gtm/')
      )
        continue;
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || (op.security && op.security.length === 0)) continue;
        const url = path.replace(/\{[^}]+\}/g, 'not-an-id');
        const res = await anonymous.request(method.toUpperCase(), url, method === 'get' || method === 'delete' ? undefined : { bad: NUL });
        if (res.status !== 401) wrong.push(`${method.toUpperCase()} ${path} -> ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('does the same in GraphQL: an anonymous mutation with bad input is 401, not a list of fields', async () => {
    const res = await app.api
      .as(undefined)
      .graphql('mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }', { i: { name: ' ' } });
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });

  it('keeps the public routes and the public root fields in step', async () => {
    const { PUBLIC_ROOT_FIELDS } = await import('../shared/public.js');
    const publicOps = app.platform.routes.filter((r) => r.access === 'public').map((r) => r.rootKey);
    expect([...new Set(publicOps)].filter((f) => !PUBLIC_ROOT_FIELDS.has(f))).toEqual([]);
  });
});

describe('permission before validation', () => {
  interface Restricted {
    method: string;
    path: string;
    kind: 'platform' | 'organization';
    permission: string;
    roles: string[];
    /** For an organization permission: the path parameter naming the organization, or null (it is in the input). */
    organization: string | null;
  }

  /** Every route the OpenAPI document marks as restricted by role, as the graph declares it. */
  async function restricted(): Promise<Restricted[]> {
    const doc = (await app.api.get('/api/openapi.json')).body;
    return Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).flatMap(([method, op]) => {
        const platform = op['x-platform-permission'];
        const org = op['x-org-permission'];
        if (!platform && !org) return [];
        const { name, roles, organization = null } = platform ?? org;
        return [
          { method: method.toUpperCase(), path, kind: platform ? 'platform' : 'organization', permission: name, roles, organization },
        ];
      }),
    );
  }

  const bodiesFor = (method: string) => (method === 'GET' || method === 'DELETE' ? [undefined] : [{}, { bad: NUL }, []]);

  it('names the permission and its roles on every route restricted by role', async () => {
    const routes = await restricted();
    const named = (kind: Restricted['kind']) => routes.filter((r) => r.kind === kind).map((r) => `${r.method} ${r.path}`);
    expect(named('platform')).toEqual(
      expect.arrayContaining([
        'POST /api/mpi/matches/{id}/unlink',
        'POST /api/marketplace/catalog/sync',
        'POST /api/cds/drug-interactions',
        'GET /api/admin/health',
        'GET /admin/dlq',
      ]),
    );
    expect(named('organization')).toEqual(
      expect.arrayContaining(['POST /api/organizations/{org_id}/rooms', 'POST /api/organizations/{org_id}/invoices']),
    );
    for (const r of routes) {
      expect(r.roles).toEqual(
        r.kind === 'platform' ? PLATFORM_PERMISSIONS[r.permission as PlatformPermission] : PERMISSIONS[r.permission as Permission].roles,
      );
    }
    // Routes open to every signed-in caller carry no such mark.
    expect(named('platform')).not.toContain('GET /api/cds/drug-interactions');
    expect(named('platform')).not.toContain('POST /api/cds/drug-interactions/check');
  });

  it('answers a caller without the platform role 403 on every route that needs one, whatever the body and the path ids', async () => {
    const routes = (await restricted()).filter((r) => r.kind === 'platform');
    expect(routes.length).toBeGreaterThan(20);
    const patient = (await signUp(app.api)).api;
    // An application administrator holds most platform permissions, not those of SUPER:ADMIN alone.
    const appAdmin = await signUp(app.api);
    await app.em('org').nativeUpdate(User, { id: appAdmin.user.id }, { roles: ['APP:ADMIN'] });
    await forgetUser(appAdmin.user.id);
    const callers: [string, Api, string[]][] = [
      ['a patient', patient, []],
      ["a clinic's doctor", c.doctor.api, []],
      ['an APP:ADMIN', appAdmin.api, ['APP:ADMIN']],
    ];
    const wrong: string[] = [];
    let probes = 0;
    for (const r of routes) {
      for (const [who, api, roles] of callers) {
        if (roles.some((role) => r.roles.includes(role))) continue;
        const url = r.path.replace(/\{[^}]+\}/g, 'not-an-id');
        for (const body of bodiesFor(r.method)) {
          probes++;
          const res = await api.request(r.method, url, body);
          if (res.status !== 403 || res.body.error?.code !== 'FORBIDDEN') {
            wrong.push(`${who}: ${r.method} ${r.path} ${JSON.stringify(body) ?? ''} -> ${res.status} ${res.text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(probes).toBeGreaterThan(routes.length * 2);
  });

  it('answers a member without the role 403 and an outsider 404 where the path names the organization, whatever the body', async () => {
    const routes = (await restricted()).filter((r) => r.kind === 'organization' && r.organization);
    expect(routes.length).toBeGreaterThan(10);
    // One member of the clinic per role, made when a route needs a role its permission leaves out.
    const members = new Map<string, Promise<Api>>();
    const memberWith = (role: string) => {
      if (!members.has(role)) {
        members.set(
          role,
          signUp(app.api).then(async (m) => {
            await addMember(app, c.orgId, m.user.id, role);
            return m.api;
          }),
        );
      }
      return members.get(role)!;
    };
    const stranger = await outsider(app);
    const wrong: string[] = [];
    for (const r of routes) {
      const role = ORG_ROLES.find((x) => !r.roles.includes(x));
      const url = r.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === r.organization ? c.orgId : 'not-an-id'));
      const callers: [string, Api, number][] = [
        ...(role ? [[`an ${role}`, await memberWith(role), 403] as [string, Api, number]] : []),
        ['an outsider', stranger.api, 404],
      ];
      for (const [who, api, status] of callers) {
        for (const body of bodiesFor(r.method)) {
          const res = await api.request(r.method, url, body);
          if (res.status !== status)
            wrong.push(`${who}: ${r.method} ${r.path} ${JSON.stringify(body) ?? ''} -> ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('does the same in GraphQL: a caller without the role gets FORBIDDEN, not the rules of the input', async () => {
    const patient = (await signUp(app.api)).api;
    const unlink = 'mutation($id: ID!, $i: UnlinkPatientsInput!) { unlinkPatients(id: $id, input: $i) { id } }';
    const res = await patient.graphql(unlink, { id: randomUUID(), i: { reason: ' ' } });
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const upsert = 'mutation($i: UpsertDrugInteractionInput!) { upsertDrugInteraction(input: $i) { created } }';
    const rule = { drugA: ' ', drugB: 'x'.repeat(500), severity: 'major', description: '', recommendation: '', source: '' };
    expect((await c.doctor.api.graphql(upsert, { i: rule })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    // A nurse may not create rooms: told so, rather than which of the room's fields are wrong.
    const room =
      'mutation($o: ID!, $i: CreateRoomInput!) { createRoom(organizationId: $o, input: $i) { room { id } userErrors { field } } }';
    const refused = await c.nurse.api.graphql(room, { o: c.orgId, i: { name: ' ', capacity: -1 } });
    expect(refused.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    // Those who may get the input's rules, as before (signed in afresh: the walk above may have ended other sessions).
    const administrator = await signInAdmin(app.api);
    expect((await administrator.graphql(unlink, { id: randomUUID(), i: { reason: ' ' } })).body.errors[0].extensions.code).toBe(
      'VALIDATION_ERROR',
    );
    const allowed = await administrator.graphql(room, { o: c.orgId, i: { name: ' ', capacity: -1 } });
    expect(allowed.body.data.createRoom.userErrors.length).toBeGreaterThan(0);
  });
});
