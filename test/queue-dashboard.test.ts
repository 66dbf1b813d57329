import * as OTPAuth from 'otpauth';
import { clock } from '../shared/clock';
import { logger } from '../shared/logger';
import { forgetUser } from '../subgraphs/org/users/identity';
import { User } from '../subgraphs/org/users/user.entity';
import { PASSWORD, signInAdmin, signUp, startApp, type ApiResponse, type SignedUp, type TestApp } from './support/app';
import { browserIt, withPage } from './support/browser';
import { eventually } from './support/wait';

let app: TestApp;
let adminToken: string;
let user: SignedUp;

beforeAll(async () => {
  app = await startApp({ workers: false });
  adminToken = (await signInAdmin(app.api)).token!;
  user = await signUp(app.api);
});
afterEach(() => clock.reset());
afterAll(async () => {
  clock.reset();
  await app.close();
});

const ADMIN = { email: process.env.BOOTSTRAP_ADMIN_EMAIL!, password: process.env.BOOTSTRAP_ADMIN_PASSWORD! };
const browserAccept = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The sign-in form as a browser posts it. */
const signIn = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  app.api.request('POST', '/admin/queues/sign-in', undefined, {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers },
    token: null,
    redirect: 'manual',
  });

const cookieOf = (res: ApiResponse) => res.headers.get('set-cookie');

function expectSignedIn(res: ApiResponse) {
  expect({ status: res.status, location: res.headers.get('location') }).toEqual({ status: 303, location: '/admin/queues' });
  expect(cookieOf(res)).toMatch(/^ccp_admin_token=[^;]+; Path=\/admin\/queues; HttpOnly; SameSite=Strict/);
  return cookieOf(res)!.split(';')[0];
}

function expectSignInPage(res: ApiResponse, status: number, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.text).toMatch(/<form method="post" action="\/admin\/queues\/sign-in">/);
  if (message) expect(res.text).toMatch(message);
  expect(cookieOf(res) ?? '').not.toMatch(/ccp_admin_token=[^;]/);
}

describe('queue dashboard sign-in', () => {
  it('shows a browser without credentials a sign-in page: a form, no script, a policy allowing only this origin', async () => {
    const page = await app.api.get('/admin/queues', { headers: browserAccept });
    expectSignInPage(page, 401);
    expect(page.text).not.toMatch(/<script/i);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toMatch(/form-action 'self'/);
    expect(policy).not.toMatch(/unsafe-inline|https?:/);
    const css = await app.api.get('/admin/queues/sign-in.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/text\/css/);
    // API clients, and the dashboard's own calls, still get JSON.
    const api = await app.api.get('/admin/queues/api/queues');
    expect(api.status).toBe(401);
    expect(api.body.error.code).toBe('UNAUTHORIZED');
  });

  it('signs an administrator in with email and password: an HttpOnly SameSite=Strict cookie, no token in any URL', async () => {
    const res = await signIn(ADMIN);
    const cookie = expectSignedIn(res);
    expect(cookieOf(res)).not.toMatch(/Secure/);
    const dashboard = await app.api.get('/admin/queues', { token: null, headers: { ...browserAccept, cookie } });
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toMatch(/<html/i);
    expect(dashboard.text).not.toMatch(/action="\/admin\/queues\/sign-in"/);
    const queues = await app.api.get('/admin/queues/api/queues', { token: null, headers: { cookie } });
    expect(queues.status).toBe(200);
    expect(queues.body.queues.map((q: { name: string }) => q.name)).toContain('events');
  });

  it('marks the cookie Secure behind HTTPS (X-Forwarded-Proto from a trusted proxy)', async () => {
    const res = await signIn(ADMIN, { 'x-forwarded-proto': 'https' });
    expectSignedIn(res);
    expect(cookieOf(res)).toMatch(/; Secure/);
  });

  it('takes a pasted access token, and refuses wrong passwords, other people, other sites and empty forms', async () => {
    expectSignedIn(await signIn({ token: adminToken }));
    expectSignInPage(await signIn({ email: ADMIN.email, password: 'Wrong-passw0rd' }), 401, /Invalid email or password/);
    expectSignInPage(await signIn({ email: user.user.email, password: PASSWORD }), 403, /administrator role/);
    expectSignInPage(await signIn({ token: user.token }), 403);
    expectSignInPage(await signIn({ token: 'v4.public.garbage' }), 401);
    expectSignInPage(await signIn({}), 400, /email and password are required/);
    expectSignInPage(await signIn({ token: adminToken }, { 'sec-fetch-site': 'cross-site' }), 403);
    // A stale cookie leads back to the sign-in page, and is cleared.
    const stale = await app.api.get('/admin/queues', {
      token: null,
      headers: { ...browserAccept, cookie: 'ccp_admin_token=v4.public.old' },
    });
    expectSignInPage(stale, 401, /sign in again/);
    expect(cookieOf(stale)).toMatch(/^ccp_admin_token=; .*Max-Age=0/);
  });

  it('asks an account with two-factor sign-in for its code', async () => {
    const mfa = await signUp(app.api);
    await app.em('org').nativeUpdate(User, { id: mfa.user.id }, { roles: ['APP:ADMIN'] });
    await forgetUser(mfa.user.id);
    const secret = (await mfa.api.post('/api/auth/mfa/enroll')).body.data.secret;
    const codeFor = () =>
      new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: clock.nowMs() });
    expect((await mfa.api.post('/api/auth/mfa/verify', { code: codeFor() })).status).toBe(200);
    clock.advance(30_000);

    expectSignInPage(await signIn({ email: mfa.user.email, password: PASSWORD }), 401, /two-factor/);
    expectSignInPage(await signIn({ email: mfa.user.email, password: PASSWORD, code: '000000' }), 401);
    expectSignedIn(await signIn({ email: mfa.user.email, password: PASSWORD, code: codeFor() }));
  });

  it('no longer signs in through ?token=, and no token reaches the log', async () => {
    const previous = logger.level;
    logger.level = 'debug';
    const lines: string[] = [];
    const spies = (['debug', 'info', 'warn', 'error'] as const).map((level) =>
      jest.spyOn(logger, level).mockImplementation(((...args: unknown[]) => void lines.push(JSON.stringify(args))) as never),
    );
    try {
      const page = await app.api.get(`/admin/queues?token=${adminToken}`, { token: null, headers: browserAccept });
      expectSignInPage(page, 401);
      const api = await app.api.get(`/admin/queues/api/queues?token=${adminToken}`, { token: null });
      expect(api.status).toBe(401);
      const password = 'Leaky-passw0rd';
      const login = `mutation { login(input: {email: "a@b.c", password: "${password}"}) { token } }`;
      expect((await app.api.get(`/graphql?query=${encodeURIComponent(login)}`)).status).toBe(405);
      await eventually(async () => lines.filter((l) => l.includes('request completed')).length >= 3, 'three request log lines');
      expect(lines.join('\n')).toContain('/admin/queues?token=[redacted]');
      expect(lines.join('\n')).not.toContain(adminToken);
      expect(lines.join('\n')).not.toContain(password);
    } finally {
      for (const spy of spies) spy.mockRestore();
      logger.level = previous;
    }
  });

  browserIt('signs in through the form in headless Chromium and shows the dashboard', async () => {
    await withPage(app.url, async ({ page, requested }) => {
      await page.goto(`${app.url}/admin/queues`);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.url}/admin/queues`);
      await page.getByText('events', { exact: true }).first().waitFor({ timeout: 15_000 });
      expect(requested.filter((url) => !url.startsWith(app.url + '/'))).toEqual([]);
      expect(requested.filter((url) => /token=/.test(url))).toEqual([]);
    });
  });
});

describe('the dead letters on the dashboard', () => {
  /** This platform runs no workers: every consumed queue shows bull-board's outage badge, which is right for them. */
  it('reports the dead-letters queue as a store without workers, not as a queue nobody consumes', async () => {
    const res = await app.api.as(adminToken).get('/admin/queues/api/queues');
    expect(res.status).toBe(200);
    const queue = (name: string) => res.body.queues.find((q: { name: string }) => q.name === name);
    expect(queue('events').hasWorkers).toBe(false);
    expect(queue('dead-letters')).toMatchObject({
      hasWorkers: null,
      readOnlyMode: true,
      description: expect.stringMatching(/Nothing consumes this queue by design.*\/admin\/dlq/),
    });
  });

  browserIt('shows no "No workers" badge on the dead-letters queue, and says why it has none', async () => {
    await withPage(app.url, async ({ page }) => {
      await page.goto(`${app.url}/admin/queues`);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.url}/admin/queues`);
      const card = (name: string) => page.locator('main li').filter({ has: page.locator(`a[title="${name}"]`) });
      // The badge is there for a queue that should have workers and has none; the cards render together.
      await card('events').getByText('No workers', { exact: true }).waitFor({ timeout: 15_000 });
      await card('dead-letters').waitFor();
      expect(await card('dead-letters').getByText('No workers', { exact: true }).count()).toBe(0);
      await page.goto(`${app.url}/admin/queues/queue/dead-letters`);
      await page
        .getByText(/Nothing consumes this queue by design, so it has no workers/)
        .first()
        .waitFor({ timeout: 15_000 });
      expect(await page.getByText('No workers', { exact: true }).count()).toBe(0);
    });
  });
});
