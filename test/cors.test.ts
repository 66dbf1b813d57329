import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, resetConfig } from '../shared/config';
import { SAMPLE_PATIENT, signUp, startApp, uniqueEmail, type SignedUp, type TestApp } from './support/app';
import { browserIt, withPage } from './support/browser';
import { clinic, type Clinic } from './support/clinic';

/**
 * A browser app on another origin calling REST and GraphQL: the platform allows the origins of CORS_ORIGINS and no
 * other. Checked by preflights and requests carrying `Origin`, and in headless Chromium with a page served from an
 * allowed origin and one from a refused origin.
 */

/** A page server on its own origin: it serves one HTML page that runs the script it is given. */
async function pageServer(): Promise<{ origin: string; server: Server; script: { text: string } }> {
  const script = { text: '' };
  const server = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return void res.end(script.text);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><head><title>clinician app</title><script src="/app.js"></script></head><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, script };
}

let app: TestApp;
let allowedPage: Awaited<ReturnType<typeof pageServer>>;
let refusedPage: Awaited<ReturnType<typeof pageServer>>;
let user: SignedUp;
let c: Clinic;
const OTHER_ALLOWED = 'https://clinician.example.org';

beforeAll(async () => {
  allowedPage = await pageServer();
  refusedPage = await pageServer();
  process.env.CORS_ORIGINS = `${allowedPage.origin}, ${OTHER_ALLOWED}`;
  resetConfig();
  try {
    app = await startApp({ workers: false });
  } finally {
    delete process.env.CORS_ORIGINS;
    resetConfig();
  }
  user = await signUp(app.api);
  c = await clinic(app);
});
afterAll(async () => {
  await app.close();
  for (const p of [allowedPage, refusedPage]) await new Promise((resolve) => p.server.close(resolve));
});

const preflight = (path: string, origin: string, method: string, headers: string) =>
  app.api.request('OPTIONS', path, undefined, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const list = (value: string | null) => (value ?? '').split(',').map((s) => s.trim().toLowerCase());

describe('preflight', () => {
  it.each(['/api/patients', '/graphql'])('answers an allowed origin on %s with what it may send and read', async (path) => {
    const res = await preflight(path, OTHER_ALLOWED, 'POST', 'authorization,content-type,idempotency-key');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(list(res.headers.get('access-control-allow-methods'))).toEqual(
      expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']),
    );
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-apollo-operation-name', 'apollo-require-preflight']),
    );
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(list(res.headers.get('vary'))).toContain('origin');
  });

  it('answers a preflight of a path with parameters before authentication and routing', async () => {
    const res = await preflight(`/api/patients/${randomUUID()}`, OTHER_ALLOWED, 'PATCH', 'authorization,content-type');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
  });

  it.each(['/api/patients', '/graphql'])('gives a refused origin on %s no CORS header at all', async (path) => {
    for (const origin of ['https://evil.example.com', 'http://127.0.0.1:1', `${OTHER_ALLOWED}.evil.example.com`, 'null']) {
      const res = await preflight(path, origin, 'POST', 'authorization,content-type');
      expect([origin, res.headers.get('access-control-allow-origin')]).toEqual([origin, null]);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-allow-headers')).toBeNull();
    }
  });

  it('leaves an OPTIONS without Origin as it was: not a CORS request', async () => {
    const res = await app.api.request('OPTIONS', '/graphql');
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('requests from another origin', () => {
  it('REST: the allowed origin gets the answer, its rate-limit and request-id headers readable', async () => {
    const res = await app.api.get('/api/auth/me', { token: user.token, headers: { origin: OTHER_ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const exposed = list(res.headers.get('access-control-expose-headers'));
    for (const header of [
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'ratelimit-policy',
      'idempotent-replayed',
      'x-request-id',
    ]) {
      expect(exposed).toContain(header);
    }
    // What is exposed is what the platform sends.
    expect(res.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('REST: errors carry the CORS headers too, so the page can read why (401, 404)', async () => {
    const anonymous = await app.api.get('/api/auth/me', { token: null, headers: { origin: OTHER_ALLOWED } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
    const missing = await app.api.get('/api/nothing-here', { headers: { origin: OTHER_ALLOWED } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
  });

  it('REST: an idempotent replay is marked in a header the page may read', async () => {
    const headers = { origin: OTHER_ALLOWED, 'idempotency-key': randomUUID() };
    const body = { ...SAMPLE_PATIENT, email: uniqueEmail('cors') };
    const path = `/api/organizations/${c.orgId}/patients`;
    const first = await c.doctor.api.post(path, body, { headers });
    expect(first.status).toBe(201);
    const again = await c.doctor.api.post(path, body, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
  });

  it('GraphQL: the allowed origin gets the answer; a refused one gets it without any CORS header', async () => {
    const query = '{ me { email } }';
    const allowed = await app.api.graphql(query, undefined, { token: user.token, headers: { origin: OTHER_ALLOWED } });
    expect(allowed.body.data.me.email).toBe(user.user.email);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    const refused = await app.api.graphql(query, undefined, { token: user.token, headers: { origin: 'https://evil.example.com' } });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-credentials')).toBeNull();
    expect(list(refused.headers.get('vary'))).toContain('origin');
  });

  it('REST: a refused origin gets no CORS header on the answer', async () => {
    const res = await app.api.get('/api/auth/me', { token: user.token, headers: { origin: 'https://evil.example.com' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
  });
});

describe('CORS_ORIGINS', () => {
  it('allows no origin by default', () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
  });

  it.each(['*', 'https://app.example.org/', 'https://app.example.org/path', 'ftp://app.example.org', 'app.example.org'])(
    'refuses %s at start, naming the variable',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
    },
  );
});

/** What the page's script does: GET /api/auth/me and POST a GraphQL query with the token, and report what it read. */
const appScript = (api: string, token: string) => `
  window.result = (async () => {
    const out = {};
    try {
      const me = await fetch(${JSON.stringify(api)} + '/api/auth/me', { headers: { Authorization: 'Bearer ${token}' }, credentials: 'include' });
      out.rest = { status: me.status, email: (await me.json()).data.email, rateLimit: me.headers.get('RateLimit-Remaining') };
    } catch (e) { out.rest = { refused: String(e) }; }
    try {
      const gql = await fetch(${JSON.stringify(api)} + '/graphql', {
        method: 'POST',
        headers: { Authorization: 'Bearer ${token}', 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ me { email } }' }),
      });
      out.graphql = { status: gql.status, email: (await gql.json()).data.me.email };
    } catch (e) { out.graphql = { refused: String(e) }; }
    return out;
  })();
`;

describe('in a browser', () => {
  browserIt('a page on an allowed origin calls REST and GraphQL; a page on another origin is refused', async () => {
    for (const p of [allowedPage, refusedPage]) p.script.text = appScript(app.url, user.token);
    await withPage([allowedPage.origin, refusedPage.origin, app.url], async ({ page }) => {
      await page.goto(`${allowedPage.origin}/`);
      const allowed = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
      expect(allowed).toEqual({
        rest: { status: 200, email: user.user.email, rateLimit: expect.stringMatching(/^\d+$/) },
        graphql: { status: 200, email: user.user.email },
      });

      await page.goto(`${refusedPage.origin}/`);
      const refused = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
      expect(refused).toEqual({
        rest: { refused: expect.stringMatching(/Failed to fetch/) },
        graphql: { refused: expect.stringMatching(/Failed to fetch/) },
      });
    });
  });
});
