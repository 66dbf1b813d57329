import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { createHttpApp } from '../gateway/app';
import type { Gateway } from '../gateway/server';
import { idempotencySlot } from '../rest-adapter/idempotency';
import { config } from '../shared/config';
import { appRedis } from '../shared/redis';
import { Api, SAMPLE_PATIENT, signUp, startApp, type TestApp } from './support/app';
import { eventually } from './support/wait';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const envelope = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });

describe('health', () => {
  it('GET /health answers while the process is up', async () => {
    const res = await app.api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ok' } });
  });

  it('GET /ready checks PostgreSQL and Redis, with latencies', async () => {
    const res = await app.api.get('/ready');
    expect(res.status).toBe(200);
    expect(res.body.data.checks.postgres).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
    expect(res.body.data.checks.redis).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
  });
});

describe('the REST envelope on every failure', () => {
  it('answers an unknown path with a 404 envelope', async () => {
    for (const path of ['/api/nothing-here', '/nope']) {
      const res = await app.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(envelope('NOT_FOUND'));
    }
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await app.api.delete('/api/auth/login');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body).toEqual(envelope('METHOD_NOT_ALLOWED'));
    const patients = await app.api.request('POST', '/api/patients/00000000-0000-4000-8000-000000000000', {});
    expect(patients.status).toBe(405);
    expect(patients.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'PATCH', 'PUT']);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.api.post('/api/auth/login', undefined, {
      raw: '{"email": "a@b.c", "password": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: 'Malformed JSON in request body' } });
  });

  it('answers a body that is JSON but not an object with 400', async () => {
    const res = await app.api.post('/api/auth/login', [1, 2]);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });

  it('answers a body over the limit with 413', async () => {
    const big = JSON.stringify({ email: 'x'.repeat(config().BODY_LIMIT_BYTES), password: 'y' });
    const res = await app.api.post('/api/auth/login', undefined, { raw: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelope('PAYLOAD_TOO_LARGE'));
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await app.api.post('/api/auth/login', undefined, {
      raw: 'email=a@b.c&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('answers an unexpected failure with 500 and no internals', async () => {
    // The real gateway, except that executing an operation fails the way a lost database table would.
    const failing: Gateway = {
      ...app.platform.gateway,
      execute: async () => {
        throw new Error('relation "org"."users" does not exist at character 15');
      },
    };
    const http = createHttpApp({
      gateway: failing,
      identity: {
        viewerFromAccessToken: () => Promise.reject(new Error('unused')),
        viewerFromApiKey: () => Promise.reject(new Error('unused')),
      },
      routes: app.platform.routes,
      webhooks: Router(),
      ops: Router(),
      openapi: {},
      checks: {},
    }).listen(0, '127.0.0.1');
    await new Promise((r) => http.once('listening', r));
    try {
      const api = new Api(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
      const res = await api.post('/api/auth/login', { email: 'a@b.c', password: 'x' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
      expect(res.text).not.toMatch(/relation|org|users|stack/);
    } finally {
      http.close();
    }
  });

  it('echoes a request id and sets security headers', async () => {
    const res = await app.api.get('/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
    const generated = await app.api.get('/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Idempotency-Key on REST writes', () => {
  async function clinicDoctor() {
    const doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
    const org = (await doctor.api.post('/api/organizations', { name: `Idempotent ${randomUUID().slice(0, 8)}` })).body.data.id;
    const patients = async () =>
      (await doctor.api.get(`/api/organizations/${org}/patients?limit=100`)).body.data as { id: string; mrn: string }[];
    return { doctor, org, patients, path: `/api/organizations/${org}/patients` };
  }

  it('answers a retry with the first answer, once, and marks it replayed', async () => {
    const { doctor, path, patients } = await clinicDoctor();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await doctor.api.post(path, SAMPLE_PATIENT, { headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await doctor.api.post(path, SAMPLE_PATIENT, { headers });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await patients()).map((p) => p.id)).toEqual([first.body.data.id]);
    // Without a key, a second POST is a second patient.
    expect((await doctor.api.post(path, SAMPLE_PATIENT)).body.data.mrn).toBe('MRN-000002');
  });

  it('runs retries sent at the same moment once', async () => {
    const { doctor, path, patients } = await clinicDoctor();
    const headers = { 'idempotency-key': randomUUID() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => doctor.api.post(path, SAMPLE_PATIENT, { headers })));
    const created = answers.filter((a) => a.status === 201);
    // Each answer is the first one (replayed) or a 409 asking to retry while it still runs.
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(await patients()).toHaveLength(1);
  });

  it('refuses the key with another body (409) and a malformed key (400); keys are per caller', async () => {
    const { doctor, path, patients } = await clinicDoctor();
    const headers = { 'idempotency-key': `order-${randomUUID()}` };
    await doctor.api.post(path, SAMPLE_PATIENT, { headers });
    const other = await doctor.api.post(path, { ...SAMPLE_PATIENT, first_name: 'Zawadi' }, { headers });
    expect(other.status).toBe(409);
    expect(other.body.error).toEqual({ code: 'CONFLICT', message: 'This Idempotency-Key was already used for a different request' });
    const bad = await doctor.api.post(path, SAMPLE_PATIENT, { headers: { 'idempotency-key': 'x'.repeat(256) } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
    expect(await patients()).toHaveLength(1);
    // Someone else's request with the same key is their own.
    const second = await clinicDoctor();
    const theirs = await second.doctor.api.post(second.path, SAMPLE_PATIENT, { headers });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps the answer a client gave up waiting for, for its retry', async () => {
    const { doctor, path, patients } = await clinicDoctor();
    const key = randomUUID();
    const abort = new AbortController();
    const gone = fetch(app.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${doctor.api.token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(SAMPLE_PATIENT),
      signal: abort.signal,
    }).catch(() => undefined);
    // The client gives up once the platform has taken the request on.
    const slot = idempotencySlot(`user:${doctor.user.id}`, key);
    await eventually(async () => (await appRedis().exists(slot)) === 1, 'the key claimed');
    abort.abort();
    await gone;
    const retry = await eventually(async () => {
      const res = await doctor.api.post(path, SAMPLE_PATIENT, { headers: { 'idempotency-key': key } });
      return res.status === 409 ? null : res;
    }, 'the first answer');
    expect(retry.status).toBe(201);
    expect((await patients()).map((p) => p.id)).toEqual([retry.body.data.id]);
  });

  it('keeps no answer that carries credentials: sign-in paths ignore the key', async () => {
    const body = {
      email: `idem-${randomUUID()}@example.test`,
      password: 'Secret-pass-2026',
      first_name: 'Ada',
      last_name: 'Okafor',
      registration_role: 'PATIENT',
    };
    const headers = { 'idempotency-key': randomUUID() };
    expect((await app.api.post('/api/auth/register', body, { headers })).status).toBe(201);
    const retry = await app.api.post('/api/auth/register', body, { headers });
    expect(retry.status).toBe(409);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps refusals too: a 4xx is answered again, not retried', async () => {
    const { doctor, path } = await clinicDoctor();
    const headers = { 'idempotency-key': randomUUID() };
    const invalid = { ...SAMPLE_PATIENT, date_of_birth: 'yesterday' };
    const first = await doctor.api.post(path, invalid, { headers });
    expect(first.status).toBe(400);
    const again = await doctor.api.post(path, invalid, { headers });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('OpenAPI', () => {
  it('documents every route of the table, generated from it', async () => {
    const res = await app.api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    for (const route of app.platform.routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect([route.method, path, res.body.paths[path]?.[route.method.toLowerCase()]?.['x-graphql-operation']]).toEqual([
        route.method,
        path,
        route.operation,
      ]);
    }
    // The deployment's own address, from PUBLIC_URL.
    expect(res.body.servers).toEqual([{ url: config().PUBLIC_URL.replace(/\/+$/, ''), description: expect.any(String) }]);
    // Writes document Idempotency-Key, except where answers carry credentials.
    const idempotent = (op: { parameters: { $ref?: string }[] }) =>
      op.parameters.some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
    expect(idempotent(res.body.paths['/api/patients'].post)).toBe(true);
    expect(idempotent(res.body.paths['/api/auth/login'].post)).toBe(false);
    expect(idempotent(res.body.paths['/api/patients/{id}'].get)).toBe(false);
    const register = res.body.paths['/api/auth/register'].post;
    expect(register.security).toEqual([]);
    expect(register.responses['201']).toBeDefined();
    const input = res.body.components.schemas.RegisterInput;
    expect(input.required.sort()).toEqual(['email', 'first_name', 'last_name', 'password']);
    const list = res.body.paths['/api/organizations/{org_id}/patients'].get;
    expect(list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:org_id', 'query:page', 'query:limit']),
    );
    expect(list.responses['200'].content['application/json'].schema.properties.meta).toEqual({
      $ref: '#/components/schemas/PageMeta',
    });
  });

  it('documents the inbound webhooks with their signature schemes', async () => {
    const res = await app.api.get('/api/openapi.json');
    expect(res.body.paths['/api/webhooks/billing'].post.description).toMatch(/Stripe-Signature/);
    expect(res.body.paths['/webhook'].post.security).toEqual([]);
  });

  it('is browsable at /api/docs', async () => {
    const res = await app.api.get('/api/docs/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });
});
