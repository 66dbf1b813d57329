import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { config } from '../shared/config';
import { AppError, errors } from '../shared/errors';
import { requirePlatformPermission } from '../shared/permissions';
import { openQueue } from '../shared/queues';
import { createRedis, type Redis } from '../shared/redis';
import { sendGraphQLError } from '../rest-adapter/envelope';
import { platformQueueNames } from '../workers/registry';
import type { Authenticator } from './authenticate';

export const QUEUES_PATH = '/admin/queues';
const COOKIE = 'ccp_admin_token';

/** The queues ops watch: every platform queue, on one connection of their own. */
export interface OpsQueues {
  queues: Queue[];
  close(): Promise<void>;
}

export function openOpsQueues(): OpsQueues {
  const connection: Redis = createRedis();
  const queues = platformQueueNames().map((name) => openQueue(name, connection));
  return {
    queues,
    async close() {
      await Promise.all(queues.map((q) => q.close()));
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

function cookieToken(req: Request): string | undefined {
  const match = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).find((c) => c.startsWith(`${COOKIE}=`));
  return match ? decodeURIComponent(match.slice(COOKIE.length + 1)) : undefined;
}

/**
 * The queue dashboard, behind the same administrator authentication as the API: a bearer token, or (for a
 * browser) the token given once as `?token=`, kept in an HttpOnly cookie for the dashboard's own requests.
 */
export function queueDashboard(ops: OpsQueues, identity: Authenticator): Router {
  const board = new ExpressAdapter();
  board.setBasePath(QUEUES_PATH);
  createBullBoard({ queues: ops.queues.map((q) => new BullMQAdapter(q)), serverAdapter: board });
  const guard = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const query = typeof req.query.token === 'string' ? req.query.token : undefined;
      const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
      const token = query ?? bearer ?? cookieToken(req);
      if (!token) throw errors.unauthorized();
      requirePlatformPermission(await identity.viewerFromAccessToken(token), 'admin:queues');
      if (query) {
        const secure = req.secure ? '; Secure' : '';
        res.setHeader('Set-Cookie', `${COOKIE}=${encodeURIComponent(query)}; Path=${QUEUES_PATH}; HttpOnly; SameSite=Strict${secure}`);
        return res.redirect(303, req.baseUrl + req.path);
      }
      next();
    } catch (err) {
      if (err instanceof AppError) return sendGraphQLError(res, err);
      next(err);
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
  const router = Router();
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
