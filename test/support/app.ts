import { randomUUID } from 'node:crypto';
import { startPlatform, type Platform, type PlatformOptions } from '../../bin/platform';
import { config } from '../../shared/config';
import type { EntityManager } from '../../shared/db';

/** The platform running in this test process on a free port, against the run's database and Redis. */
export interface TestApp {
  url: string;
  platform: Platform;
  api: Api;
  /** A fresh EntityManager of a subgraph, for arranging state no endpoint creates yet and for checking storage. */
  /** A subgraph's schema, or `platform` (dead letters, webhook deliveries). */
  em(schema: 'org' | 'clinical' | 'revenue' | 'platform'): EntityManager;
  close(): Promise<void>;
}

/**
 * The platform for a suite. Run alone, each suite boots its own and closes it. Within a shard (test/support/shard.ts)
 * the suites share one, booted by the first that asks: `close()` leaves it to the shard, which closes it at the end.
 */
export async function startApp(options: PlatformOptions = {}): Promise<TestApp> {
  if (!sharing) return bootApp(options);
  if (Object.keys(options).length || JSON.stringify(config()) !== sharing.config) {
    const then = JSON.parse(sharing.config) as Record<string, unknown>;
    const now = config() as unknown as Record<string, unknown>;
    const changed = Object.keys({ ...then, ...now }).filter((k) => JSON.stringify(then[k]) !== JSON.stringify(now[k]));
    throw new Error(
      `A suite that starts the platform with options or its own configuration (${[...Object.keys(options), ...changed].join(', ')}) ` +
        'runs alone: list it in test/setup/shards.js',
    );
  }
  sharing.app ??= bootApp({});
  return { ...(await sharing.app), close: async () => undefined };
}

let sharing: { config: string; app?: Promise<TestApp> } | undefined;

/** From now on startApp() hands out one platform, in the configuration of this moment. */
export function shareApp(): void {
  sharing = { config: JSON.stringify(config()) };
}

export async function closeSharedApp(): Promise<void> {
  const app = sharing?.app;
  sharing = undefined;
  await (await app?.catch(() => undefined))?.close();
}

async function bootApp(options: PlatformOptions): Promise<TestApp> {
  const platform = await startPlatform({ port: 0, host: '127.0.0.1', ...options });
  return {
    url: platform.url,
    platform,
    api: new Api(platform.url),
    em: (name) => (name === 'platform' ? platform.store.orm : platform.runtimes.get(name)!.orm).em.fork() as EntityManager,
    close: () => platform.close(),
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as is, with no JSON encoding (malformed bodies, other content types). */
  raw?: string | Buffer;
  token?: string | null;
  /** `manual` to see a redirect instead of following it. */
  redirect?: RequestRedirect;
}

/** A REST and GraphQL client for one caller. */
export class Api {
  constructor(
    readonly url: string,
    readonly token?: string,
  ) {}

  as(token: string | undefined): Api {
    return new Api(this.url, token);
  }

  async request<T = any>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.url + path, { method, headers, body: payload as BodyInit | undefined, redirect: opts.redirect });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, undefined, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, body, opts);
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, body, opts);
  }
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, body, opts);
  }
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, undefined, opts);
  }

  graphql<T = any>(query: string, variables?: Record<string, unknown>, opts?: RequestOptions) {
    return this.request<T>('POST', '/graphql', { query, variables }, opts);
  }
}

export const uniqueEmail = (prefix = 'user') => `${prefix}.${randomUUID().slice(0, 8)}@example.test`;

export const PASSWORD = 'Str0ng-passw0rd';

export interface SignedUp {
  api: Api;
  token: string;
  user: { id: string; email: string; first_name: string; last_name: string; registration_role: string };
}

/** Registers a new user through the API and returns a client signed in as them. */
export async function signUp(api: Api, fields: Record<string, unknown> = {}): Promise<SignedUp> {
  const res = await api.post('/api/auth/register', {
    email: uniqueEmail(String(fields.registration_role ?? 'user').toLowerCase()),
    password: PASSWORD,
    first_name: 'Test',
    last_name: 'User',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { api: api.as(res.body.data.token), token: res.body.data.token, user: res.body.data.user };
}

export async function signInAdmin(api: Api): Promise<Api> {
  const res = await api.post('/api/auth/login', {
    email: process.env.BOOTSTRAP_ADMIN_EMAIL,
    password: process.env.BOOTSTRAP_ADMIN_PASSWORD,
  });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status} ${res.text}`);
  return api.as(res.body.data.token);
}

export const SAMPLE_PATIENT = {
  first_name: 'Amina',
  last_name: 'Odhiambo',
  date_of_birth: '1988-06-15',
  gender: 'female',
  phone: '+254712345678',
  email: 'amina.odhiambo@example.test',
};
