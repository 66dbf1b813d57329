import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { createHttpApp } from '../gateway/app';
import type { Gateway } from '../gateway/server';
import { config } from '../shared/config';
import { Api, startApp, type TestApp } from './support/app';

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
      identity: { viewerFromAccessToken: () => Promise.reject(new Error('unused')), viewerFromApiKey: () => Promise.reject(new Error('unused')) },
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

describe('OpenAPI', () => {
  it('documents every route of the table, generated from it', async () => {
    const res = await app.api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    for (const route of app.platform.routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect([route.method, path, res.body.paths[path]?.[route.method.toLowerCase()]?.operationId]).toEqual([
        route.method,
        path,
        route.operation,
      ]);
    }
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
