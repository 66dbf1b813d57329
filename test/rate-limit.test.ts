import { resetConfig } from '../shared/config';
import { PASSWORD, startApp, uniqueEmail, type TestApp } from './support/app';

/** Low limits for this file only; each test uses its own client address (X-Forwarded-For, trusted from loopback). */
let app: TestApp;
const saved = { ...process.env };

beforeAll(async () => {
  process.env.RATE_LIMIT_AUTH_POINTS = '3';
  process.env.RATE_LIMIT_POINTS = '25';
  resetConfig();
  app = await startApp();
});
afterAll(async () => {
  await app.close();
  process.env.RATE_LIMIT_AUTH_POINTS = saved.RATE_LIMIT_AUTH_POINTS;
  process.env.RATE_LIMIT_POINTS = saved.RATE_LIMIT_POINTS;
  resetConfig();
});

let n = 0;
const address = () => `203.0.113.${++n}`;
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

describe('brute-force limits', () => {
  it('answers 429 with Retry-After and RateLimit headers after too many login attempts', async () => {
    const ip = address();
    const email = uniqueEmail('victim');
    for (let i = 0; i < 3; i++) {
      expect((await app.api.post('/api/auth/login', { email, password: `Guess-${i}x1` }, from(ip))).status).toBe(401);
    }
    const res = await app.api.post('/api/auth/login', { email, password: 'Guess-4x1' }, from(ip));
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit-limit')).toBe('3');
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    // Another address is not affected.
    expect((await app.api.post('/api/auth/login', { email: uniqueEmail(), password: 'x' }, from(address()))).status).toBe(401);
  });

  it('limits the GraphQL login mutation from the same address too', async () => {
    const ip = address();
    const q = 'mutation($i: LoginInput!) { login(input: $i) { token } }';
    for (let i = 0; i < 3; i++) await app.api.graphql(q, { i: { email: uniqueEmail(), password: 'nope' } }, from(ip));
    const res = await app.api.graphql(q, { i: { email: uniqueEmail(), password: 'nope' } }, from(ip));
    expect(res.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(res.body.errors[0].extensions.retryAfter).toBeGreaterThan(0);
  });

  it.each([
    ['register', (i: number) => ['/api/auth/register', { email: uniqueEmail(), password: PASSWORD, first_name: 'A', last_name: `B${i}` }]],
    ['refresh', () => ['/api/auth/refresh', { refresh_token: 'v4.public.x' }]],
    ['forgot-password', () => ['/api/auth/forgot-password', { email: uniqueEmail() }]],
    ['mfa challenge', () => ['/api/auth/mfa/challenge', { challenge_token: 'v4.public.x', code: '123456' }]],
  ] as [string, (i: number) => [string, object]][])('limits %s', async (_name, request) => {
    const ip = address();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [path, body] = request(i);
      statuses.push((await app.api.post(path, body, from(ip))).status);
    }
    expect(statuses[3]).toBe(429);
    expect(statuses.slice(0, 3)).not.toContain(429);
  });

  it('limits every caller in general, per user', async () => {
    // Signed up from an address of its own: 127.0.0.1 is shared with every other suite of the run.
    const ip = address();
    const register = async () =>
      (await app.api.post('/api/auth/register', { email: uniqueEmail(), password: PASSWORD, first_name: 'A', last_name: 'B' }, from(ip)))
        .body.data.token as string;
    const token = await register();
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) statuses.push((await app.api.get('/api/auth/me', { token })).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(25);
    expect(statuses.at(-1)).toBe(429);
    const other = await register();
    const res = await app.api.get('/api/auth/me', { token: other });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('25');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(25);
  });
});
