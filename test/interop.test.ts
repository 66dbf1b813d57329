import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { resetConfig } from '../shared/config';
import { fhirIssues } from '../subgraphs/clinical/interop/fhir';
import { startApp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

/** A loopback listener that records every request it gets. */
interface Listener {
  url: string;
  port: number;
  hits: IncomingMessage[];
  close(): Promise<void>;
}

async function listen(answer: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.end('{}')): Promise<Listener> {
  const hits: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req);
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function freePort(): Promise<number> {
  const l = await listen();
  await l.close();
  return l.port;
}

let app: TestApp;
let c: Clinic;
let trap: Listener;
let hie: Listener;
let slow: Listener;
let redirector: Listener;
const APP = {
  client_id: 'growth-chart',
  name: 'Growth chart',
  launch_url: 'https://apps.example.test/launch',
  redirect_uris: ['https://apps.example.test/callback'],
};

const bundleOf = (patients: object[]) =>
  JSON.stringify({ resourceType: 'Bundle', type: 'searchset', total: patients.length, entry: patients.map((resource) => ({ resource })) });

beforeAll(async () => {
  trap = await listen();
  hie = await listen((req, res) => {
    res.setHeader('content-type', 'application/fhir+json');
    res.end(
      bundleOf([
        { resourceType: 'Patient', id: 'ng-1', name: [{ family: 'Okafor', given: ['Chidi'] }], birthDate: '1990-01-20' },
        { resourceType: 'Patient', id: 'broken', birthDate: 'last tuesday' },
        { resourceType: 'Observation', id: 'not-a-patient', status: 'final', code: { text: 'x' } },
      ]),
    );
  });
  slow = await listen((_req, res) => setTimeout(() => res.end(bundleOf([])), 1500).unref());
  redirector = await listen((_req, res) => {
    res.statusCode = 302;
    res.setHeader('location', `${trap.url}/fhir/Patient`);
    res.end();
  });
  const port = await freePort();
  Object.assign(process.env, {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMART_CLIENTS: JSON.stringify([APP]),
    HIE_ENDPOINT_ALLOWLIST: [
      `${hie.url}/fhir`,
      `http://localhost:${hie.port}/fhir`,
      `${redirector.url}/fhir`,
      'https://hie.example.test/fhir',
    ].join(','),
    HIE_EXCHANGES: JSON.stringify({ NG: { adapter: 'fhir', base_url: `${slow.url}/fhir`, timeout_ms: 200 } }),
    HIE_BREAKER_FAILURES: '2',
    HIE_BREAKER_OPEN_MS: '60000',
  });
  resetConfig();
  app = await startApp({ port });
  c = await clinic(app);
}, 180_000);
afterAll(async () => {
  await app.close();
  for (const l of [trap, hie, slow, redirector]) await l.close();
});

const lookup = (path: string, as = c.doctor.api) => as.get(`/api/fhir/cross-border/Patient/${path}`);

describe('cross-border lookup', () => {
  it('answers a searchset Bundle of the sandbox exchange, with meta.source, that validates', async () => {
    const res = await lookup('8001015009087?country=ZA&purpose_of_use=PUBHLTH');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const bundle = res.body.data;
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 2 });
    for (const e of bundle.entry) expect(e.resource.meta.source).toBe('urn:ccp:hie-sandbox:ZA');
    expect(fhirIssues(bundle)).toEqual([]);
    const none = await lookup('99999999?country=KE');
    expect(none.body.data).toMatchObject({ resourceType: 'Bundle', total: 0 });
    expect(none.body.data.entry).toBeUndefined();
    expect(fhirIssues(none.body.data)).toEqual([]);
    // Every lookup is audited with its purpose of use.
    const audit = await app
      .em('clinical')
      .find(AuditEvent, { resourceType: 'cross_border_patient', actorId: c.doctor.user.id }, { orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ country: 'ZA', purpose_of_use: 'PUBHLTH', outcome: 'found', results: 2, national_id: '*********9087' }),
        expect.objectContaining({ country: 'KE', purpose_of_use: 'TREAT', outcome: 'not_found' }),
      ]),
    );
  });

  it.each([
    ['8001015009088?country=ZA', 'national_id'], // Luhn check digit
    ['8013015009087?country=ZA', 'national_id'], // month 13
    ['1234?country=KE', 'national_id'],
    ['GHA-12345678-0?country=GH', 'national_id'],
    ['1234567890?country=NG', 'national_id'],
    ['XM12345678ABCD?country=UG', 'national_id'],
    ['1199050012345678?country=RW', 'national_id'], // sex digit
    ['12345?country=ET', 'national_id'],
    ['19801301-12345-00001-23?country=TZ', 'national_id'],
    ['8001015009087?country=US', 'country'],
    ['8001015009087?country=za', 'country'],
    ['8001015009087', 'country'],
    ['8001015009087?country=ZA&purpose_of_use=CURIOSITY', 'purpose_of_use'],
  ])('refuses %s with a 400 naming %s', async (path, field) => {
    const res = await lookup(path);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe(field);
  });

  it("accepts each country's format", async () => {
    for (const path of [
      '23456789?country=KE',
      'GHA-712345678-1?country=GH',
      'CF12345678ABCD?country=UG',
      '1199080012345678?country=RW',
      '123456789012?country=ET',
      '19800101-12345-00001-23?country=TZ',
    ]) {
      const res = await lookup(path);
      expect({ path, status: res.status, total: res.body.data?.total }).toEqual({ path, status: 200, total: 1 });
    }
  });

  it('refuses any endpoint not on the allowlist before a request leaves (loopback, link-local, private, tricks)', async () => {
    const forged = [
      `${trap.url}/fhir`,
      `http://localhost:${trap.port}/fhir`,
      `http://[::1]:${trap.port}/fhir`,
      `http://0x7f000001:${trap.port}/fhir`,
      `http://127.1:${trap.port}/fhir`,
      `http://2130706433:${trap.port}/fhir`,
      `http://user:pw@127.0.0.1:${trap.port}/fhir`,
      `http://hie.example.test@127.0.0.1:${trap.port}/fhir`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/fhir',
      'http://192.168.1.1/fhir',
      'https://hie.example.test.evil.test/fhir',
      'https://hie.example.test/fhirx',
      `${hie.url}/other`,
      'file:///etc/passwd',
      'gopher://127.0.0.1:6379/_INFO',
      'not a url',
    ];
    for (const endpoint of forged) {
      const res = await lookup(`8001015009087?country=ZA&hie_endpoint=${encodeURIComponent(endpoint)}`);
      expect({ endpoint, status: res.status, field: res.body.error?.details?.[0]?.field }).toEqual({
        endpoint,
        status: 400,
        field: 'hie_endpoint',
      });
    }
    // An allowlisted name that resolves to a loopback address is refused too: only a literal address is trusted.
    const named = await lookup(`8001015009087?country=ZA&hie_endpoint=${encodeURIComponent(`http://localhost:${hie.port}/fhir`)}`);
    expect(named.status).toBe(400);
    expect(trap.hits).toHaveLength(0);
    expect(hie.hits).toHaveLength(0);
    const refused = await app.em('clinical').count(AuditEvent, { resourceType: 'cross_border_patient', details: { outcome: 'refused' } });
    expect(refused).toBeGreaterThanOrEqual(forged.length);
  });

  it('asks an allowlisted exchange over FHIR and passes on only valid Patients', async () => {
    const res = await lookup(`12345678901?country=NG&hie_endpoint=${encodeURIComponent(`${hie.url}/fhir`)}`);
    expect(res.status).toBe(200);
    expect(hie.hits.map((h) => h.url)).toEqual(['/fhir/Patient?identifier=12345678901']);
    expect(res.body.data.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(['ng-1']);
    expect(res.body.data.entry[0]).toMatchObject({
      fullUrl: `${hie.url}/fhir/Patient/ng-1`,
      resource: { meta: { source: `${hie.url}/fhir` } },
    });
    expect(fhirIssues(res.body.data)).toEqual([]);
  });

  it("does not follow an exchange's redirect", async () => {
    const res = await lookup(`12345678901?country=NG&hie_endpoint=${encodeURIComponent(`${redirector.url}/fhir`)}`);
    expect(res.status).toBe(503);
    expect(redirector.hits).toHaveLength(1);
    expect(trap.hits).toHaveLength(0);
  });

  it("times out, then opens the exchange's circuit so further lookups fail at once", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await lookup('12345678901?country=NG');
      expect(res.status).toBe(503);
      expect(res.body.error.message).toMatch(/did not answer within 200 ms/);
    }
    expect(slow.hits).toHaveLength(2);
    const open = await lookup('12345678901?country=NG');
    expect(open.status).toBe(503);
    expect(open.body.error.message).toMatch(/paused/);
    expect(slow.hits).toHaveLength(2);
    const outcomes = (await app.em('clinical').find(AuditEvent, { resourceType: 'cross_border_patient', details: { country: 'NG' } })).map(
      (a) => a.details.outcome,
    );
    expect(outcomes).toEqual(expect.arrayContaining(['failed', 'circuit_open']));
  });

  it('is for clinicians and administrators: 401 without a token, 403 for other roles', async () => {
    expect((await lookup('8001015009087?country=ZA', app.api)).status).toBe(401);
    expect((await lookup('8001015009087?country=ZA', c.billing.api)).status).toBe(403);
  });

  it('answers through GraphQL too', async () => {
    const res = await c.doctor.api.graphql('query($id: String!) { crossBorderPatients(nationalId: $id, country: ZA) }', {
      id: '8001015009087',
    });
    expect(res.body.data.crossBorderPatients.total).toBe(2);
  });
});

/** A browser's cookies for the authorization flow. */
class Jar {
  private cookies = new Map<string, string>();
  store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Follows the authorization request's redirects as a browser would, until the app's redirect URI. */
async function authorize(params: Record<string, string>): Promise<URL> {
  const jar = new Jar();
  let url = `${app.url}/oauth2/auth?${new URLSearchParams(params)}`;
  for (let i = 0; i < 10; i++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url}: ${res.status} ${await res.text()}`);
    const next = new URL(location, url);
    if (next.origin === 'https://apps.example.test') return next;
    url = next.toString();
  }
  throw new Error('too many redirects');
}

async function launch(patientId = c.patientId, extra: Record<string, unknown> = {}, as = c.doctor.api) {
  const res = await as.post('/api/smart/launch', { client_id: APP.client_id, patient_id: patientId, ...extra });
  if (res.status !== 201) throw new Error(`launch: ${res.status} ${res.text}`);
  return res.body.data as { launch_url: string; iss: string; launch: string; context: { id: string } };
}

async function token(scope = 'launch openid patient/*.read offline_access', as = c.doctor.api) {
  const l = await launch(c.patientId, {}, as);
  const { verifier, challenge } = pkce();
  const back = await authorize({
    response_type: 'code',
    client_id: APP.client_id,
    redirect_uri: APP.redirect_uris[0],
    scope,
    state: 'xyz',
    aud: l.iss,
    launch: l.launch,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back}`);
  const res = await fetch(`${app.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: APP.redirect_uris[0],
      client_id: APP.client_id,
      code_verifier: verifier,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const fhir = (path: string, bearer?: string) => app.api.get(`/fhir/R4${path}`, { token: bearer ?? null });

describe('SMART on FHIR', () => {
  it('publishes the SMART configuration with the required fields, S256 only', async () => {
    for (const path of ['/.well-known/smart-configuration', '/fhir/R4/.well-known/smart-configuration']) {
      const res = await app.api.get(path, { token: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        authorization_endpoint: `${app.url}/oauth2/auth`,
        token_endpoint: `${app.url}/oauth2/token`,
        grant_types_supported: expect.arrayContaining(['authorization_code']),
        capabilities: expect.arrayContaining(['launch-ehr', 'context-ehr-patient', 'client-public']),
        code_challenge_methods_supported: ['S256'],
        scopes_supported: expect.arrayContaining(['launch', 'patient/*.read', 'patient/Observation.rs']),
      });
      expect(res.body.code_challenge_methods_supported).not.toContain('plain');
    }
    const meta = await fhir('/metadata');
    expect(meta.status).toBe(200);
    expect(meta.headers.get('content-type')).toMatch(/application\/fhir\+json/);
    expect(meta.body).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1' });
    expect(fhirIssues(meta.body)).toEqual([]);
  });

  it("creates an EHR launch context and answers the app's launch URL with iss and launch", async () => {
    const record = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, encounter_type: 'consultation' })).body
      .data;
    const res = await c.doctor.api.post('/api/smart/launch', {
      client_id: APP.client_id,
      patient_id: c.patientId,
      encounter_id: record.id,
    });
    expect(res.status).toBe(201);
    const url = new URL(res.body.data.launch_url);
    expect(url.origin + url.pathname).toBe(APP.launch_url);
    expect(url.searchParams.get('iss')).toBe(`${app.url}/fhir/R4`);
    expect(url.searchParams.get('launch')).toBe(res.body.data.launch);
    expect(res.body.data.context).toMatchObject({
      client_id: APP.client_id,
      patient_id: c.patientId,
      encounter_id: record.id,
      launched_by: c.doctor.user.id,
    });
    const stranger = await outsider(app);
    expect((await stranger.api.post('/api/smart/launch', { client_id: APP.client_id, patient_id: c.patientId })).status).toBe(404);
    expect((await c.billing.api.post('/api/smart/launch', { client_id: APP.client_id, patient_id: c.patientId })).status).toBe(403);
    expect((await app.api.post('/api/smart/launch', { client_id: APP.client_id, patient_id: c.patientId })).status).toBe(401);
    const unknownApp = await c.doctor.api.post('/api/smart/launch', { client_id: 'nope', patient_id: c.patientId });
    expect(unknownApp.status).toBe(400);
    expect(unknownApp.body.error.details[0].field).toBe('client_id');
    expect(
      (
        await c.doctor.api.post('/api/smart/launch', {
          client_id: APP.client_id,
          patient_id: c.patientId,
          encounter_id: '00000000-0000-4000-8000-000000000000',
        })
      ).status,
    ).toBe(404);
  });

  // The first test to reach /oauth2 also loads the OAuth library (seconds on a busy machine).
  it('runs the authorization code flow with PKCE and issues tokens the FHIR API accepts, within the patient context', async () => {
    const vitals = await c.nurse.api.post('/api/vitals', {
      patient_id: c.patientId,
      heart_rate: 72,
      blood_pressure_systolic: 120,
      blood_pressure_diastolic: 80,
      temperature: 36.8,
    });
    expect(vitals.status).toBe(201);
    await c.nurse.api.post(`/api/patients/${c.patientId}/allergies`, {
      substance: 'Penicillin',
      reaction: 'Hives',
      severity: 'moderate',
      type: 'allergy',
      category: 'medication',
      criticality: 'high',
    });
    await c.doctor.api.post('/api/prescriptions', {
      patient_id: c.patientId,
      medication: 'Amoxicillin',
      dosage: '500 mg',
      frequency: 'tid',
      duration: '7 days',
    });
    await c.nurse.api.post(`/api/patients/${c.patientId}/immunizations/generate`, {});
    await c.nurse.api.post(`/api/patients/${c.patientId}/immunizations/administer`, {
      vaccine: 'bcg',
      lot_number: 'B123',
      site: 'left_arm',
      override_reason: 'catch-up',
    });

    const t = await token();
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({
      token_type: 'Bearer',
      patient: c.patientId,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    expect(String(t.body.scope).split(' ')).toEqual(expect.arrayContaining(['launch', 'patient/*.read']));
    const bearer = t.body.access_token as string;

    const patient = await fhir(`/Patient/${c.patientId}`, bearer);
    expect(patient.status).toBe(200);
    expect(patient.body).toMatchObject({ resourceType: 'Patient', id: c.patientId });
    const checks: [string, string][] = [
      ['Observation', `/Observation?patient=${c.patientId}&category=vital-signs`],
      ['Observation', `/Observation?patient=${c.patientId}`],
      ['AllergyIntolerance', `/AllergyIntolerance?patient=${c.patientId}`],
      ['MedicationRequest', `/MedicationRequest?patient=${c.patientId}`],
      ['Immunization', `/Immunization?patient=${c.patientId}`],
      ['Patient', `/Patient?_id=${c.patientId}`],
    ];
    for (const [type, path] of checks) {
      const res = await fhir(path, bearer);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body.resourceType).toBe('Bundle');
      expect(res.body.entry.length).toBeGreaterThan(0);
      for (const e of res.body.entry) expect(e.resource.resourceType).toBe(type);
      expect({ path, issues: fhirIssues(res.body) }).toEqual({ path, issues: [] });
    }
    const vitalsBundle = (await fhir(`/Observation?patient=${c.patientId}&category=vital-signs`, bearer)).body;
    const bp = vitalsBundle.entry.find(
      (e: { resource: { code: { coding: { code: string }[] } } }) => e.resource.code.coding[0].code === '85354-9',
    );
    expect(bp.resource.component).toHaveLength(2);
    const one = await fhir(`/Observation/${bp.resource.id}`, bearer);
    expect(one.body.id).toBe(bp.resource.id);
    // Searching without a patient uses the token's patient context.
    expect((await fhir('/AllergyIntolerance', bearer)).body.total).toBeGreaterThan(0);

    // Another patient is outside the app's context, even one the launching doctor may read.
    const other = (
      await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
        first_name: 'Other',
        last_name: 'Person',
        date_of_birth: '2000-01-01',
      })
    ).body.data.id;
    expect((await fhir(`/Patient/${other}`, bearer)).status).toBe(404);
    expect((await fhir(`/Observation?patient=${other}`, bearer)).status).toBe(404);
    // The reads are audited like REST reads.
    const audited = await app
      .em('clinical')
      .count(AuditEvent, { actorId: c.doctor.user.id, patientId: c.patientId, details: { format: 'fhir' } });
    expect(audited).toBeGreaterThan(0);
  }, 180_000);

  it('refuses a reused launch, plain PKCE, a missing challenge and a foreign aud', async () => {
    const l = await launch();
    const { challenge } = pkce();
    const base = {
      response_type: 'code',
      client_id: APP.client_id,
      redirect_uri: APP.redirect_uris[0],
      scope: 'launch patient/*.read',
      state: 's',
      aud: l.iss,
      launch: l.launch,
    };
    const first = await authorize({ ...base, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(first.searchParams.get('code')).toBeTruthy();
    const reused = await authorize({ ...base, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(reused.searchParams.get('error')).toBe('access_denied');
    const plain = await authorize({
      ...base,
      launch: (await launch()).launch,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    const none = await authorize({ ...base, launch: (await launch()).launch });
    expect(none.searchParams.get('error')).toBe('invalid_request');
    const aud = await authorize({
      ...base,
      launch: (await launch()).launch,
      aud: 'https://elsewhere.test/fhir',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(aud.searchParams.get('error')).toBeTruthy();
    const noLaunch = await authorize({ ...base, launch: '', code_challenge: challenge, code_challenge_method: 'S256' });
    expect(noLaunch.searchParams.get('error')).toBeTruthy();
  });

  it("refreshes tokens, and ends the app's access when the launching user signs out", async () => {
    const t = await token('launch openid patient/*.read offline_access', c.nurse.api);
    const refreshed = await fetch(`${app.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token as string, client_id: APP.client_id }),
    });
    expect(refreshed.status).toBe(200);
    const again = (await refreshed.json()) as { access_token: string; patient: string };
    expect(again.patient).toBe(c.patientId);
    expect((await fhir(`/Patient/${c.patientId}`, again.access_token)).status).toBe(200);
    expect((await c.nurse.api.post('/api/auth/logout')).status).toBe(200);
    expect((await fhir(`/Patient/${c.patientId}`, again.access_token)).status).toBe(401);
  });

  it('limits a token to its scopes', async () => {
    const t = await token('launch patient/Patient.read');
    const bearer = t.body.access_token as string;
    expect((await fhir(`/Patient/${c.patientId}`, bearer)).status).toBe(200);
    const denied = await fhir(`/Observation?patient=${c.patientId}`, bearer);
    expect(denied.status).toBe(403);
    expect(denied.body.resourceType).toBe('OperationOutcome');
  });

  it('serves platform users with their own token, and answers OperationOutcomes for the rest', async () => {
    expect((await fhir(`/Patient/${c.patientId}`, c.doctor.token)).status).toBe(200);
    const stranger = await outsider(app);
    expect((await fhir(`/Patient/${c.patientId}`, stranger.token)).status).toBe(404);
    const anonymous = await fhir(`/Patient/${c.patientId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.resourceType).toBe('OperationOutcome');
    expect((await fhir(`/Patient/${c.patientId}`, 'not-a-token')).status).toBe(401);
    expect((await fhir('/Encounter/x', c.doctor.token)).status).toBe(404);
    expect((await fhir('/Observation', c.doctor.token)).status).toBe(400);
    expect((await fhir(`/Observation?patient=${c.patientId}&_count=1000`, c.doctor.token)).status).toBe(400);
    expect((await app.api.post(`/fhir/R4/Patient`, { resourceType: 'Patient' }, { token: c.doctor.token })).status).toBe(405);
  });
});
