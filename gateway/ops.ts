import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { config } from '../shared/config';
import { AppError, ERROR_STATUS, errors, isErrorCode } from '../shared/errors';
import { requirePlatformPermission } from '../shared/permissions';
import { REPO_ROOT } from '../shared/paths';
import { DEAD_LETTER_QUEUE, openQueue } from '../shared/queues';
import { createRedis, type RedisClient } from '../shared/redis';
import { sendGraphQLError } from '../rest-adapter/envelope';
import type { Authenticator } from './authenticate';
import type { Gateway, PreparedOperation } from './server';

export const QUEUES_PATH = '/admin/queues';
const COOKIE = 'ccp_admin_token';

/** The queues ops watch: every platform queue, on one connection of their own. */
export interface OpsQueues {
  queues: Queue[];
  close(): Promise<void>;
}

export function openOpsQueues(names: string[]): OpsQueues {
  const connection: RedisClient = createRedis();
  const queues = names.map((name) => openQueue(name, connection));
  return {
    queues,
    async close() {
      await Promise.all(queues.map((q) => q.close()));
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

function cookieToken(req: Request): string | undefined {
  const match = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${COOKIE}=`));
  if (!match) return undefined;
  try {
    return decodeURIComponent(match.slice(COOKIE.length + 1)) || undefined;
  } catch {
    return undefined;
  }
}

/** The dashboard's cookie: HttpOnly, for its own path, same-site requests only, and Secure over HTTPS (per TRUST_PROXY). */
function setCookie(req: Request, res: Response, token: string, maxAge?: number) {
  const secure = req.secure ? '; Secure' : '';
  const expiry = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  res.setHeader('Set-Cookie', `${COOKIE}=${encodeURIComponent(token)}; Path=${QUEUES_PATH}; HttpOnly; SameSite=Strict${secure}${expiry}`);
}

/** The sign-in page is a form and a stylesheet, no script; it posts only here. */
const SIGN_IN_POLICY = "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const SIGN_IN_DIR = join(REPO_ROOT, 'gateway', 'pages', 'queues');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The dead letters' queue on the dashboard: a store, which nothing consumes by design (an entry waits there until an
 * administrator retries or discards it through `/admin/dlq`, which also updates this mirror). bull-board shows a
 * "No workers" badge, its outage warning, on a queue whose adapter reports an empty list of workers, and none where
 * the adapter reports no list (`null`: workers do not apply). This adapter reports none, says on the page what the
 * queue is, and is read-only: a retry here would only park the job in a queue nobody reads.
 */
export class StoreQueueAdapter extends BullMQAdapter {
  override async getWorkers(): Promise<null> {
    return null;
  }
}

const DEAD_LETTERS_DESCRIPTION =
  'Events that failed every attempt, kept for an administrator. Nothing consumes this queue by design, so it has no ' +
  'workers: retry or discard an entry through /admin/dlq.';

/** The dashboard's adapter of a platform queue. */
export function dashboardAdapter(queue: Queue): BullMQAdapter {
  if (queue.name === DEAD_LETTER_QUEUE) return new StoreQueueAdapter(queue, { readOnlyMode: true, description: DEAD_LETTERS_DESCRIPTION });
  return new BullMQAdapter(queue);
}

/** What the dashboard's sign-in needs from the platform: the login operations, run on the gateway. */
export interface DashboardSignIn {
  gateway: Gateway;
  operations: Map<string, PreparedOperation>;
}

/**
 * The queue dashboard, behind the same administrator authentication as the API: a bearer token, or for a browser
 * an HttpOnly cookie set by the dashboard's sign-in form (email and password through the API's own login, with a
 * two-factor code when the account has one, or a pasted access token). No token ever travels in a URL.
 */
export function queueDashboard(ops: OpsQueues, identity: Authenticator, signIn: DashboardSignIn): Router {
  const board = new ExpressAdapter();
  board.setBasePath(QUEUES_PATH);
  createBullBoard({ queues: ops.queues.map(dashboardAdapter), serverAdapter: board });
  const operation = (name: string) => {
    const op = signIn.operations.get(name);
    if (!op) throw new Error(`operation ${name} is missing`);
    return op;
  };
  const login = operation('Login');
  const completeMfa = operation('CompleteMfaChallenge');

  const signInHtml = readFileSync(join(SIGN_IN_DIR, 'sign-in.html'), 'utf8');
  const signInPage = (res: Response, status: number, message?: string) => {
    res.setHeader('Content-Security-Policy', SIGN_IN_POLICY);
    const notice = message ? `<p class="message" role="alert">${escapeHtml(message)}</p>` : '';
    res.status(status).type('html').send(signInHtml.replace('<!--message-->', notice));
  };
  const wantsPage = (req: Request) => req.method === 'GET' && req.accepts(['application/json', 'text/html']) === 'text/html';

  /** The access token for an email and password (and two-factor code), through the API's login and its limits. */
  const passwordToken = async (req: Request, email: string, password: string, code: string): Promise<string> => {
    const context = { requestId: req.id, ip: req.ip, userAgent: req.headers['user-agent'] };
    const run = async (op: PreparedOperation, variables: Record<string, unknown>, field: string) => {
      const { data, errors: failed } = await signIn.gateway.execute(op, variables, context);
      const error = failed?.[0];
      if (error) {
        const known = isErrorCode(error.extensions?.code) ? error.extensions.code : 'INTERNAL_ERROR';
        throw new AppError(known, known === 'INTERNAL_ERROR' ? 'Internal server error' : error.message);
      }
      return (data?.[field] ?? {}) as { token?: string | null; challengeToken?: string | null };
    };
    let payload = await run(login, { input: { email, password } }, 'login');
    if (!payload.token && payload.challengeToken) {
      if (!code) throw errors.unauthorized('This account uses two-factor sign-in: enter the code from your authenticator app');
      payload = await run(completeMfa, { challengeToken: payload.challengeToken, code }, 'completeMfaChallenge');
    }
    if (!payload.token) throw errors.unauthorized('Sign-in did not complete');
    return payload.token;
  };

  const router = Router();
  router.get(`${QUEUES_PATH}/sign-in.css`, (_req, res) => res.sendFile(join(SIGN_IN_DIR, 'sign-in.css')));
  router.post(`${QUEUES_PATH}/sign-in`, express.urlencoded({ extended: false, limit: '16kb' }), async (req, res, next) => {
    const field = (name: string) => {
      const value = (req.body as Record<string, unknown> | undefined)?.[name];
      return typeof value === 'string' ? value.trim() : '';
    };
    try {
      // A form posted from another site would sign this browser in as someone else.
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') throw errors.forbidden('Sign in from the dashboard sign-in page');
      let token = field('token');
      if (!token) {
        if (!field('email') || !field('password'))
          throw errors.invalidField('email', 'and password are required, or paste an access token');
        token = await passwordToken(req, field('email'), field('password'), field('code'));
      }
      requirePlatformPermission(await identity.viewerFromAccessToken(token), 'admin:queues');
      setCookie(req, res, token);
      res.redirect(303, QUEUES_PATH);
    } catch (err) {
      if (err instanceof AppError) return signInPage(res, ERROR_STATUS[err.code], err.message);
      next(err);
    }
  });

  const guard = async (req: Request, res: Response, next: NextFunction) => {
    const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
    const cookie = cookieToken(req);
    try {
      const token = bearer ?? cookie;
      if (!token) throw errors.unauthorized();
      requirePlatformPermission(await identity.viewerFromAccessToken(token), 'admin:queues');
      next();
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      // A browser without a usable cookie gets the sign-in page; the dashboard's own API calls and clients, JSON.
      if (!bearer && wantsPage(req)) {
        if (cookie) setCookie(req, res, '', 0);
        const ended = cookie && err.code === 'UNAUTHORIZED' ? 'Your sign-in has ended; sign in again' : undefined;
        return signInPage(res, ERROR_STATUS[err.code], err.code === 'FORBIDDEN' ? err.message : ended);
      }
      sendGraphQLError(res, err);
    }
  };
  // The dashboard is an HTML application: it gets a page policy instead of the API's `default-src 'none'`.
  const pagePolicy = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
    );
    next();
  };
  router.use(QUEUES_PATH, guard, pagePolicy, board.getRouter());
  return router;
}

/**
 * Prometheus metrics: queue depth per state and the dead letter count, plus the process's own. For an
 * administrator's token, or METRICS_TOKEN for a scraper.
 */
export function metricsEndpoint(ops: OpsQueues, identity: Authenticator, deadLetters: () => Promise<number>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ccp_' });
  new Gauge({
    name: 'ccp_queue_jobs',
    help: 'Jobs in each platform queue, by state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      for (const q of ops.queues) {
        const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
        for (const [state, n] of Object.entries(counts)) this.set({ queue: q.name, state }, n ?? 0);
      }
    },
  });
  new Gauge({
    name: 'ccp_dead_letters',
    help: 'Events waiting in the dead letter queue',
    registers: [registry],
    async collect() {
      this.set(await deadLetters());
    },
  });
  return async (req: Request, res: Response) => {
    try {
      const token = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      const scrape = config().METRICS_TOKEN;
      const isScraper = !!scrape && token.length === scrape.length && timingSafeEqual(Buffer.from(token), Buffer.from(scrape));
      if (!isScraper) {
        if (!token) throw errors.unauthorized();
        requirePlatformPermission(await identity.viewerFromAccessToken(token), 'admin:queues');
      }
      res.setHeader('Content-Type', registry.contentType);
      res.end(await registry.metrics());
    } catch (err) {
      if (err instanceof AppError) return sendGraphQLError(res, err);
      throw err;
    }
  };
}
