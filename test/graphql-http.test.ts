import { ERROR_STATUS } from '../shared/errors';
import { logger } from '../shared/logger';
import { signUp, startApp, type ApiResponse, type SignedUp, type TestApp } from './support/app';

let app: TestApp;
let user: SignedUp;

beforeAll(async () => {
  app = await startApp();
  user = await signUp(app.api);
});
afterAll(() => app.close());

/** What no answer may show: a crash, or text from inside the server. */
const INTERNAL_TEXT = /Internal server error|Maximum call stack|RangeError|TypeError|node_modules|\.[jt]s:\d+|req\.body/i;

/** A GraphQL error answer: the status, codes from the closed list (never INTERNAL_ERROR), nothing internal. */
function expectGraphQLError(res: ApiResponse, status: number, code: string, message?: RegExp) {
  expect({ status: res.status, text: res.text }).toEqual({ status, text: expect.any(String) });
  expect(res.headers.get('content-type')).toMatch(/json/);
  expect(res.body.errors.length).toBeGreaterThan(0);
  for (const e of res.body.errors) {
    expect(Object.keys(ERROR_STATUS)).toContain(e.extensions.code);
    expect(e.extensions.code).not.toBe('INTERNAL_ERROR');
  }
  expect(res.body.errors[0].extensions.code).toBe(code);
  if (message) expect(res.body.errors[0].message).toMatch(message);
  expect(res.text).not.toMatch(INTERNAL_TEXT);
}

const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  user.api.get(`/graphql?${new URLSearchParams(params)}`, { headers });

describe('GraphQL over HTTP', () => {
  it('runs queries sent as GET, with JSON-encoded variables', async () => {
    const res = await get({ query: '{ me { email } }' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { email: user.user.email } } });
    const paged = await get({
      query: 'query Orgs($limit: Int!) { organizations(limit: $limit) { total } }',
      variables: JSON.stringify({ limit: 5 }),
      operationName: 'Orgs',
    });
    expect(paged.status).toBe(200);
    expect(paged.body.data.organizations.total).toEqual(expect.any(Number));
  });

  it('refuses a mutation over GET with 405', async () => {
    const res = await get({ query: 'mutation { __typename }' });
    expectGraphQLError(res, 405, 'METHOD_NOT_ALLOWED', /mutation/);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers a GET without a query with a 400 GraphQL error, for a browser too when the explorer is off', async () => {
    expectGraphQLError(await app.api.get('/graphql'), 400, 'VALIDATION_ERROR', /query/);
    expectGraphQLError(await app.api.get('/graphql', { headers: { accept: 'text/html' } }), 400, 'VALIDATION_ERROR');
    expectGraphQLError(await get({ query: '' }), 400, 'VALIDATION_ERROR');
    expectGraphQLError(await get({ variables: '{}' }), 400, 'VALIDATION_ERROR');
    expectGraphQLError(await get({ query: '{ __typename }', variables: '{not json' }), 400, 'VALIDATION_ERROR', /variables/);
  });

  it('answers other methods with 405 and Allow', async () => {
    for (const method of ['OPTIONS', 'DELETE', 'PUT', 'PATCH']) {
      const res = await app.api.request(method, '/graphql');
      expectGraphQLError(res, 405, 'METHOD_NOT_ALLOWED', new RegExp(method));
      expect(res.headers.get('allow')).toBe('GET, POST');
    }
  });

  it('answers an empty, malformed or non-JSON POST with a 4xx GraphQL error', async () => {
    expectGraphQLError(await app.api.post('/graphql'), 400, 'VALIDATION_ERROR', /POST body missing/);
    expectGraphQLError(await app.api.post('/graphql', {}), 400, 'VALIDATION_ERROR');
    expectGraphQLError(await app.api.post('/graphql', { query: 42 }), 400, 'VALIDATION_ERROR');
    const json = { 'content-type': 'application/json' };
    expectGraphQLError(
      await app.api.post('/graphql', undefined, { raw: '{"query": ', headers: json }),
      400,
      'VALIDATION_ERROR',
      /Malformed JSON/,
    );
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expectGraphQLError(
      await app.api.post('/graphql', undefined, { raw: 'query=%7B__typename%7D', headers: form }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
});

describe('operations the request gets wrong', () => {
  it('answers a missing or wrongly typed variable with 400', async () => {
    const patient = 'query($id: ID!) { patient(id: $id) { id } }';
    expectGraphQLError(await user.api.graphql(patient), 400, 'VALIDATION_ERROR', /\$id/);
    const orgs = 'query($limit: Int!) { organizations(limit: $limit) { total } }';
    expectGraphQLError(await user.api.graphql(orgs, { limit: 'ten' }), 400, 'VALIDATION_ERROR', /\$limit/);
    expectGraphQLError(await user.api.graphql(orgs, { limit: { n: 1 } }), 400, 'VALIDATION_ERROR', /\$limit/);
  });

  it('answers an Int beyond 32 bits with 400, as a variable or written in the query', async () => {
    const orgs = 'query($limit: Int!) { organizations(limit: $limit) { total } }';
    expectGraphQLError(await user.api.graphql(orgs, { limit: 2 ** 31 }), 400, 'VALIDATION_ERROR', /32-bit/);
    expectGraphQLError(await user.api.graphql('{ organizations(limit: 9999999999) { total } }'), 400, 'VALIDATION_ERROR', /32-bit/);
  });

  it('answers an operationName that matches nothing with 400', async () => {
    const named = await user.api.post('/graphql', { query: 'query A { __typename }', operationName: 'B' });
    expectGraphQLError(named, 400, 'VALIDATION_ERROR', /Unknown operation named "B"/);
    const anonymous = await user.api.post('/graphql', { query: '{ __typename }', operationName: 'B' });
    expectGraphQLError(anonymous, 400, 'VALIDATION_ERROR', /Unknown operation named "B"/);
  });

  it('answers several operations without a way to choose one with 400', async () => {
    expectGraphQLError(await user.api.graphql('{ __typename } { __typename }'), 400, 'VALIDATION_ERROR', /anonymous operation/);
    expectGraphQLError(await user.api.graphql('query A { __typename } query B { __typename }'), 400, 'VALIDATION_ERROR', /operation name/);
  });

  it('answers a fragment cycle and an unknown fragment with 400', async () => {
    const cycle = 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }';
    expectGraphQLError(await user.api.graphql(cycle), 400, 'VALIDATION_ERROR', /Cannot spread fragment "A" within itself/);
    const self = 'query { ...A } fragment A on Query { __typename ...A }';
    expectGraphQLError(await user.api.graphql(self), 400, 'VALIDATION_ERROR', /within itself/);
    expectGraphQLError(await user.api.graphql('{ ...Missing }'), 400, 'VALIDATION_ERROR', /Unknown fragment "Missing"/);
  });

  it('refuses 50,000 aliases quickly', async () => {
    const aliases = Array.from({ length: 50_000 }, (_, i) => `a${i}: __typename`).join(' ');
    const started = Date.now();
    const res = await user.api.graphql(`{ ${aliases} }`);
    expect(Date.now() - started).toBeLessThan(2000);
    expectGraphQLError(res, 400, 'QUERY_TOO_COMPLEX', /more than 10000 tokens/);
    expect(res.body.errors[0].extensions).toMatchObject({ measure: 'tokens', limit: 10000, actual: 10001 });
  });

  it('answers a query 2,000 levels deep with the depth limit, as it does one 100 deep', async () => {
    const nested = (depth: number) => `{ ${'me { organizations { '.repeat(depth / 2)}id${' }'.repeat(depth)} }`;
    for (const depth of [100, 2000]) {
      const res = await user.api.graphql(nested(depth));
      expectGraphQLError(res, 400, 'QUERY_TOO_DEEP', /exceeds maximum operation depth of 10/);
      expect(res.body.errors[0].extensions).toMatchObject({ limit: 10, actual: expect.any(Number) });
      expect(res.body.errors[0].extensions.actual).toBeGreaterThan(10);
    }
    const eleven = await user.api.graphql(`{ ${'me { organizations { '.repeat(5)}me { id }${' }'.repeat(10)} }`);
    expectGraphQLError(eleven, 400, 'QUERY_TOO_DEEP');
    expect(eleven.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_DEEP', limit: 10, actual: 11 });
    const lists = `query { organizations(search: ${'['.repeat(2000)}"x"${']'.repeat(2000)}) { total } }`;
    expectGraphQLError(await user.api.graphql(lists), 400, 'QUERY_TOO_DEEP', /exceeds maximum operation depth/);
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { organizations { user { ...F${i + 1} } } }`);
    const spread = `{ me { ...F0 } } ${fragments.join(' ')} fragment F20 on User { id }`;
    const deepSpread = await user.api.graphql(spread);
    expectGraphQLError(deepSpread, 400, 'QUERY_TOO_DEEP', /exceeds maximum operation depth of 10/);
    expect(deepSpread.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_DEEP', limit: 10, actual: 41 });
  });
});

describe('every kind of operation', () => {
  const SUBSCRIPTIONS = /Subscriptions are not supported: the graph has no subscription type/;
  /** A document, the operation picked, and the answer a signed-in caller gets: a status, or an error code and message. */
  const CASES: [string, string | undefined, number | [number, string, RegExp]][] = [
    ['query Q { me { id } }', undefined, 200],
    ['query Q { me { id } }', 'Q', 200],
    ['{ __typename }', undefined, 200],
    ['mutation M { __typename }', undefined, 200],
    ['subscription { __typename }', undefined, [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['subscription S { me { id } }', 'S', [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['subscription S($id: ID!) { onAnything(id: $id) { id } }', undefined, [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['subscription { ...F } fragment F on Subscription { x }', undefined, [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['query A { __typename } mutation B { __typename }', 'A', 200],
    ['query A { __typename } mutation B { __typename }', 'B', 200],
    ['query A { __typename } mutation B { __typename }', undefined, [400, 'VALIDATION_ERROR', /operation name/]],
    // A document holding a subscription is refused whole, whichever operation is picked (as graphql-js 17 does).
    ['query A { __typename } subscription C { __typename }', 'A', [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['query A { __typename } subscription C { __typename }', 'C', [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['query A { __typename } subscription C { __typename }', undefined, [400, 'VALIDATION_ERROR', SUBSCRIPTIONS]],
    ['{ __typename } subscription { __typename }', undefined, [400, 'VALIDATION_ERROR', /anonymous operation/]],
  ];

  it.each(CASES)('answers %s (operation %s) without a 5xx, as expected', async (query, operationName, expected) => {
    const res = await user.api.post('/graphql', { query, operationName });
    if (typeof expected === 'number') {
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: expected, errors: undefined });
    } else {
      expectGraphQLError(res, ...expected);
    }
  });

  it('refuses a subscription with 400 whoever sends it and however, and logs no error', async () => {
    const errors: unknown[] = [];
    const spy = jest.spyOn(logger, 'error').mockImplementation(((...args: unknown[]) => void errors.push(args)) as never);
    try {
      const query = 'subscription OnVitals { __typename }';
      for (const api of [app.api.as(undefined), user.api]) {
        expectGraphQLError(await api.graphql(query), 400, 'VALIDATION_ERROR', SUBSCRIPTIONS);
        expectGraphQLError(await api.get(`/graphql?${new URLSearchParams({ query })}`), 400, 'VALIDATION_ERROR', SUBSCRIPTIONS);
        const persisted = await api.post('/graphql', { query: 'subscription { me { id } }', extensions: {} });
        expectGraphQLError(persisted, 400, 'VALIDATION_ERROR', SUBSCRIPTIONS);
      }
    } finally {
      spy.mockRestore();
    }
    expect(errors).toEqual([]);
  });
});

describe('limits that bound work, not only size', () => {
  it('prices every root field as the fetch it is: 2,400 aliases of me { id } are refused at once', async () => {
    const res = await user.api.graphql(`{ ${Array.from({ length: 2400 }, (_, i) => `a${i}: me { id }`).join(' ')} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBeDefined();
    expect(res.body.data).toBeUndefined();
  });

  it('caps aliases: 101 are refused, 100 answer', async () => {
    const query = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const over = await user.api.graphql(query(101));
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toMatch(/more than 100 aliases/);
    expect(over.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', measure: 'aliases', limit: 100, actual: 101 });
    const at = await user.api.graphql(query(100));
    expect(at.status).toBe(200);
  });

  it('lets a handful of root fields through: ten of me { id } answer', async () => {
    const res = await user.api.graphql(`{ ${Array.from({ length: 10 }, (_, i) => `a${i}: me { id }`).join(' ')} }`);
    expect(res.body.errors).toBeUndefined();
    expect(Object.keys(res.body.data)).toHaveLength(10);
  });
});
