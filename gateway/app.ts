import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { config } from '../shared/config';
import { ERROR_STATUS, type AppError } from '../shared/errors';
import { logger } from '../shared/logger';
import { applyRateLimitHeaders, sendData, sendError, sendGraphQLError } from '../rest-adapter/envelope';
import { TEXT_TYPES } from '../rest-adapter/route';
import { idempotency } from '../rest-adapter/idempotency';
import { allowedMethods, contextOf, restRouter, type CompiledRoute } from '../rest-adapter/router';
import { authenticate, type Authenticator } from './authenticate';
import type { Gateway } from './server';

export interface Check {
  ok: boolean;
  latency_ms: number;
  error?: string;
}

export interface HttpAppParts {
  gateway: Gateway;
  identity: Authenticator;
  routes: CompiledRoute[];
  /** Raw-body webhook endpoints, mounted before JSON parsing and bearer authentication. */
  webhooks: Router;
  /** The queue dashboard and /metrics, with their own authentication. */
  ops: Router;
  openapi: object;
  /** Dependency checks for /ready: name -> probe. */
  checks: Record<string, () => Promise<unknown>>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Headers for JSON API answers, after OWASP's REST security guidance: nothing is cached (patient data), nothing is
 * framed or sniffed. HTML pages (the API docs) get helmet's full set instead.
 */
const API_HEADERS: [string, string][] = [
  ['Cache-Control', 'no-store'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
];

/** Request id (taken from a well-formed X-Request-Id, else new), API headers, and one log line per request. */
function requestBasics(req: Request, res: Response, next: NextFunction) {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  for (const [name, value] of API_HEADERS) res.setHeader(name, value);
  const started = performance.now();
  res.once('finish', () => {
    const status = res.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
    if (!logger.isLevelEnabled(level)) return;
    const ms = Math.round((performance.now() - started) * 10) / 10;
    logger[level]({ reqId: id, method: req.method, url: req.originalUrl, status, ms }, 'request completed');
  });
  next();
}

export async function runCheck(probe: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  const started = performance.now();
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
    return { ok: true, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), error: (err as Error).message };
  }
}

/** JSON bodies (and text for routes that take it); wrong types, malformed JSON and oversized bodies get clear answers. */
function jsonBody(limit: number) {
  const parse = express.json({ limit, strict: false });
  const text = express.text({ limit, type: TEXT_TYPES });
  return (req: Request, res: Response, next: NextFunction) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody || req.method === 'GET' || req.method === 'HEAD') return next();
    if (req.is(TEXT_TYPES)) return text(req, res, next);
    if (!req.is(['application/json', 'application/*+json'])) {
      return sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON, sent with Content-Type: application/json');
    }
    parse(req, res, next);
  };
}

function bodyErrors(err: { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) {
  switch (err.type) {
    case 'entity.parse.failed':
      return sendError(res, 'VALIDATION_ERROR', 'Malformed JSON in request body');
    case 'entity.too.large':
      return sendError(res, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${config().BODY_LIMIT_BYTES} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding or charset');
    default:
      return next(err);
  }
}

/**
 * The HTTP face of the platform: health, the GraphQL endpoint, the REST adapter and its documentation.
 */
export function createHttpApp(parts: HttpAppParts): express.Express {
  const cfg = config();
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', cfg.TRUST_PROXY === 'true' ? true : cfg.TRUST_PROXY === 'false' ? false : cfg.TRUST_PROXY);
  app.set('etag', false);
  app.use(requestBasics);

  app.get('/health', (_req, res) => sendData(res, 200, { status: 'ok' }));
  app.get('/ready', async (_req, res) => {
    const entries = await Promise.all(Object.entries(parts.checks).map(async ([name, probe]) => [name, await runCheck(probe)] as const));
    const checks = Object.fromEntries(entries);
    const failed = entries.filter(([, c]) => !c.ok).map(([name]) => name);
    if (failed.length) {
      return res.status(503).json({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: `Not ready: ${failed.join(', ')} unreachable`, checks },
      });
    }
    sendData(res, 200, { status: 'ready', checks });
  });

  app.use(parts.ops);
  app.use(parts.webhooks, bodyErrors);
  app.use(jsonBody(cfg.BODY_LIMIT_BYTES), bodyErrors);

  const rejectRest = (res: Response, e: AppError) => sendGraphQLError(res, e);
  const rejectGraphQL = (res: Response, e: AppError) => {
    applyRateLimitHeaders(res, e.extensions);
    res.status(ERROR_STATUS[e.code]).json({ errors: [{ message: e.message, extensions: { code: e.code } }] });
  };

  app.use('/graphql', authenticate(parts.identity, rejectGraphQL));
  app.use('/graphql', expressMiddleware(parts.gateway.server, { context: async ({ req }) => contextOf(req) }));

  app.get('/api/openapi.json', (_req, res) => res.json(parts.openapi));
  app.use(
    '/api/docs',
    helmet({ contentSecurityPolicy: { useDefaults: true, directives: { 'upgrade-insecure-requests': null } } }),
    swaggerUi.serve,
    swaggerUi.setup(parts.openapi, { customSiteTitle: 'Clinical Care Platform API' }),
  );

  app.use(authenticate(parts.identity, rejectRest));
  app.use(idempotency());
  app.use(restRouter(parts.routes, parts.gateway));

  app.use((req: Request, res: Response) => {
    const allowed = allowedMethods(parts.routes, req.path);
    if (allowed.length) {
      res.setHeader('Allow', allowed.join(', '));
      return sendError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${allowed.join(', ')}`);
    }
    sendError(res, 'NOT_FOUND', `No route for ${req.method} ${req.path}`);
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err, reqId: req.id }, 'unhandled error');
    if (res.headersSent) return;
    sendError(res, 'INTERNAL_ERROR', 'Internal server error');
  });
  return app;
}
