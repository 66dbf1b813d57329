import { resetConfig } from '../shared/config';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { browserIt, withPage } from './support/browser';

let app: TestApp;
let user: SignedUp;

beforeAll(async () => {
  // The explorer is off outside development; this platform turns it on.
  process.env.GRAPHQL_EXPLORER = 'true';
  resetConfig();
  try {
    app = await startApp({ workers: false });
  } finally {
    delete process.env.GRAPHQL_EXPLORER;
    resetConfig();
  }
  user = await signUp(app.api);
});
afterAll(() => app.close());

const browserPage = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the GraphQL explorer', () => {
  it('is what a browser gets at GET /graphql: local files only, no inline script, a policy allowing only this origin', async () => {
    const res = await app.api.get('/graphql', { headers: browserPage });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = res.headers.get('content-security-policy')!;
    expect(policy).toMatch(/script-src 'self'(;|$)/);
    expect(policy).toMatch(/connect-src 'self'(;|$)/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/explorer\//);
      const file = await app.api.get(asset);
      expect([asset, file.status]).toEqual([asset, 200]);
      expect(file.headers.get('content-type')).toMatch(/javascript|css/);
    }
  });

  it('leaves JSON clients the GraphQL answers: a GET without a query is still a 400', async () => {
    const res = await app.api.get('/graphql', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const query = await app.api.get(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: browserPage });
    expect(query.body).toEqual({ data: { __typename: 'Query' } });
  });

  browserIt('runs { __typename } and a signed-in query in headless Chromium, with no request leaving this server', async () => {
    await withPage(app.url, async ({ page, requested, problems }) => {
      await page.goto(`${app.url}/graphql`);
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.result-window');
      await result.getByText('"Query"').waitFor({ timeout: 15_000 });
      expect(await result.innerText()).toMatch(/"__typename":\s*"Query"/);

      // The headers editor carries the caller's bearer token.
      const setEditor = (selector: string, text: string) =>
        page.evaluate(
          ([sel, value]) =>
            (document.querySelector(sel) as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(value),
          [selector, text],
        );
      await page.getByRole('button', { name: 'Headers' }).click();
      await setEditor('.graphiql-query-editor .CodeMirror', '{ me { email } }');
      await setEditor(
        '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror',
        JSON.stringify({ Authorization: `Bearer ${user.token}` }),
      );
      await page.locator('.graphiql-execute-button').click();
      await result.getByText(user.user.email).waitFor({ timeout: 15_000 });

      expect(requested.filter((url) => !url.startsWith(app.url + '/'))).toEqual([]);
      expect(requested).toContain(`${app.url}/explorer/graphiql/graphiql.min.js`);
      expect(problems).toEqual([]);
    });
  });
});
