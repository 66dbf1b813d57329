import { createServer } from 'node:net';
import { config, resetConfig } from '../shared/config';
import { startApp, type TestApp } from './support/app';
import { browserIt, withPage } from './support/browser';

/**
 * A platform moved to another port, PUBLIC_URL unset: what it says of its own address (the OpenAPI document's
 * server, the SMART issuer), and the API docs page's "Try it out" whichever name the browser reaches it by.
 */
let app: TestApp;
let port: number;

/** A port nothing listens on now (the system's pick, freed again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: picked } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return picked;
}

const saved = { PORT: process.env.PORT, PUBLIC_URL: process.env.PUBLIC_URL };

beforeAll(async () => {
  port = await freePort();
  process.env.PORT = String(port);
  delete process.env.PUBLIC_URL;
  resetConfig();
  app = await startApp({ port, workers: false });
});
afterAll(async () => {
  await app.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
});

describe('the public address on another port', () => {
  it('defaults PUBLIC_URL to localhost on PORT: the OpenAPI server and the SMART issuer point at this platform', async () => {
    const here = `http://localhost:${port}`;
    expect(config().PUBLIC_URL).toBe(here);
    const openapi = await app.api.get('/api/openapi.json');
    expect(openapi.body.servers.map((s: { url: string }) => s.url)).toEqual([here]);
    const smart = await app.api.get('/fhir/R4/.well-known/smart-configuration');
    expect(smart.status).toBe(200);
    expect(smart.body.authorization_endpoint).toMatch(new RegExp(`^${here}/`));
    expect(smart.body.token_endpoint).toMatch(new RegExp(`^${here}/`));
  });

  it('lets the docs page call only its own origin', async () => {
    const res = await app.api.get('/api/docs/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/connect-src 'self'(;|$)/);
    const init = await app.api.get('/api/docs/swagger-ui-init.js');
    expect(init.text).toContain('"servers": [\n      {\n        "url": "/"');
  });

  for (const host of ['localhost', '127.0.0.1']) {
    browserIt(
      `runs "Try it out" on GET /health from the docs page opened at http://${host}:<port>`,
      async () => {
        const origin = `http://${host}:${port}`;
        await withPage(origin, async ({ page, requested, problems }) => {
          await page.goto(`${origin}/api/docs/`);
          // The page renders the operations near the part of the page shown: the Operations group is near the end.
          const operation = page.locator('#operations-Operations-GetHealth');
          await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
          for (let i = 0; i < 50 && !(await operation.count()); i++) {
            await page.mouse.wheel(0, 5000);
            await page.waitForTimeout(200);
          }
          await operation.locator('.opblock-summary').click();
          await operation.getByRole('button', { name: 'Try it out' }).click();
          await operation.getByRole('button', { name: 'Execute' }).click();
          const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
          await status.waitFor({ timeout: 15_000 });
          expect((await status.innerText()).trim()).toBe('200');
          expect(await operation.locator('.live-responses-table .microlight').first().innerText()).toMatch(/"status":\s*"ok"/);
          expect(requested).toContain(`${origin}/health`);
          expect(requested.filter((url) => !url.startsWith(origin + '/'))).toEqual([]);
          expect(problems).toEqual([]);
        });
      },
      120_000,
    );
  }
});
