import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { config } from '../shared/config';
import { AppError, ERROR_STATUS, errors } from '../shared/errors';
import { logger } from '../shared/logger';
import { applyRateLimitHeaders, sendData, sendError, sendGraphQLError } from '../rest-adapter/envelope';
import { TEXT_TYPES } from '../rest-adapter/route';
import { idempotency } from '../rest-adapter/idempotency';
import { allowedMethods, contextOf, restRouter, type CompiledRoute } from '../rest-adapter/router';
import { uploadRouter } from '../rest-adapter/upload';
import { accountPages } from './account-pages';
import { authenticate, type Authenticator } from './authenticate';
import { explorerAssets, explorerPage } from './explorer';
import { crossOrigin } from './cors';
import { trustedDocumentsGuard } from './trusted-documents';
import { checkSource } from './limits';
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
  /**
   * Paths that answer in their own standards' formats and authenticate as those standards say (SMART on FHIR
   * discovery, an OAuth 2.0 authorization server, a FHIR API), mounted before JSON parsing and bearer authentication.
   */
  standards?: Router;
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

/**
 * The request's URL as logged. Query values never reach the log (a search by name, an MRN, a pasted token): only the
 * parameters' names. Path segments other than plain words and UUIDs (a national id, an email, a referral code) are
 * replaced, so a log line names the route, not the person.
 */
const PLAIN_SEGMENT = /^([a-z][a-z0-9-]*|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\.well-known)$/i;

export function loggedUrl(originalUrl: string): string {
  const at = originalUrl.indexOf('?');
  const path = (at < 0 ? originalUrl : originalUrl.slice(0, at))
    .split('/')
    .map((segment) => (segment === '' || PLAIN_SEGMENT.test(segment) ? segment : '[redacted]'))
    .join('/');
  if (at < 0) return path;
  let names: string[];
  try {
    names = [...new URLSearchParams(originalUrl.slice(at + 1)).keys()];
  } catch {
    names = [];
  }
  return `${path}?${[...new Set(names)].map((name) => `${PLAIN_SEGMENT.test(name) ? name : '[redacted]'}=[redacted]`).join('&')}`;
}

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
    logger[level]({ reqId: id, method: req.method, url: loggedUrl(req.originalUrl), status, ms }, 'request completed');
  });
  next();
}

/** A path that is not valid percent-encoded UTF-8 names nothing the platform serves: 400, before any routing. */
function wellFormedUrl(req: Request, res: Response, next: NextFunction) {
  try {
    decodeURIComponent(req.path);
  } catch {
    return sendError(res, 'VALIDATION_ERROR', 'The URL path is not valid percent-encoded UTF-8');
  }
  next();
}

/**
 * The OpenAPI document as the docs page (`/api/docs`) shows it: "Try it out" calls the origin the page was loaded
 * from (a relative server), whatever PUBLIC_URL says and whichever name the browser used (localhost, 127.0.0.1), as
 * the page's policy lets it call its own origin only. `/api/openapi.json` keeps PUBLIC_URL for code generators.
 */
export function docsPageDocument(openapi: object): object {
  return { ...openapi, servers: [{ url: '/', description: 'This server (the address this page was loaded from)' }] };
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

/** How a part of the app answers an error: REST's envelope, or a GraphQL error body on /graphql. */
type Reject = (res: Response, error: AppError) => void;

/** JSON bodies (and text for routes that take it); wrong types, malformed JSON and oversized bodies get clear answers. */
function jsonBody(limit: number, reject: Reject) {
  const parse = express.json({ limit, strict: false });
  const text = express.text({ limit, type: TEXT_TYPES });
  return (req: Request, res: Response, next: NextFunction) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody || req.method === 'GET' || req.method === 'HEAD') return next();
    if (req.is(TEXT_TYPES)) return text(req, res, next);
    if (!req.is(['application/json', 'application/*+json'])) {
      return reject(res, new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON, sent with Content-Type: application/json'));
    }
    parse(req, res, next);
  };
}

function bodyErrors(reject: Reject) {
  return (err: { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) => {
    switch (err.type) {
      case 'entity.parse.failed':
        return reject(res, new AppError('VALIDATION_ERROR', 'Malformed JSON in request body'));
      case 'entity.too.large':
        return reject(res, new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${config().BODY_LIMIT_BYTES} bytes`));
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return reject(res, new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding or charset'));
      default:
        return next(err);
    }
  };
}

/** What a GraphQL client may accept; a browser prefers text/html over all of them. */
const GRAPHQL_ACCEPTS = ['application/json', 'application/graphql-response+json', 'text/html'];

/**
 * GraphQL over HTTP in front of Apollo Server: POST, and GET for queries (Apollo refuses a mutation over GET with
 * 405). A GET without `query` shows a browser the explorer when it is on; anything else without one is a 400. The
 * source is measured before Apollo parses it (gateway/limits.ts).
 */
function graphqlHttp(reject: Reject, maxDepth: number, explorer?: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return reject(res, new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /graphql; use POST, or GET for queries`));
    }
    const source: unknown = req.method === 'GET' ? req.query.query : req.body?.query;
    // A GET with only `extensions` is a persisted query sent by its hash (APQ or a trusted document).
    if (req.method === 'GET' && source === undefined && req.query.extensions === undefined) {
      if (explorer && req.accepts(GRAPHQL_ACCEPTS) === 'text/html') return explorer(req, res, next);
      return reject(res, errors.invalidField('query', 'is required: send ?query= with a query, or POST the operation as JSON'));
    }
    const tooLarge = typeof source === 'string' ? checkSource(source, maxDepth) : undefined;
    if (tooLarge) return reject(res, tooLarge);
    // Apollo's Express integration needs `req.body` even where there is none (GET, an empty POST: Apollo answers 400).
    req.body ??= {};
    next();
  };
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
  app.use(wellFormedUrl);
  // Browser apps on the configured origins (CORS_ORIGINS) may call REST and GraphQL; preflights end here.
  app.use(['/api', '/graphql'], crossOrigin(cfg.CORS_ORIGINS));

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

  const rejectRest: Reject = (res, e) => sendGraphQLError(res, e);
  const rejectGraphQL: Reject = (res, e) => {
    applyRateLimitHeaders(res, e.extensions);
    const { http: _http, ...extensions } = e.extensions as Record<string, unknown>;
    res.status(ERROR_STATUS[e.code]).json({ errors: [{ message: e.message, extensions: { ...extensions, code: e.code } }] });
  };

  app.use(parts.ops);
  if (parts.standards) app.use(parts.standards);
  app.use(parts.webhooks, bodyErrors(rejectRest));
  if (cfg.GRAPHQL_EXPLORER) app.use(explorerAssets());
  // The public schema as SDL (schema/public.graphql), for code generators and editors: the published contract, like
  // the OpenAPI document, served whether or not introspection is on.
  app.get('/graphql/schema.graphql', (_req, res) => {
    res.type('text/plain; charset=utf-8').send(parts.gateway.publicSdl);
  });
  app.use(
    '/graphql',
    jsonBody(cfg.BODY_LIMIT_BYTES, rejectGraphQL),
    bodyErrors(rejectGraphQL),
    authenticate(parts.identity, rejectGraphQL),
    graphqlHttp(rejectGraphQL, cfg.GRAPHQL_MAX_DEPTH, cfg.GRAPHQL_EXPLORER ? explorerPage(cfg.GRAPHQL_INTROSPECTION) : undefined),
    ...(parts.gateway.trusted ? [trustedDocumentsGuard(parts.gateway.trusted, rejectGraphQL)] : []),
    expressMiddleware(parts.gateway.server, { context: async ({ req }) => contextOf(req) }),
  );
  // File uploads stream their bodies to storage: they come before JSON parsing, with their own authentication.
  app.use(uploadRouter(parts.routes, parts.gateway, authenticate(parts.identity, rejectRest)));
  app.use(jsonBody(cfg.BODY_LIMIT_BYTES, rejectRest), bodyErrors(rejectRest));

  app.use(accountPages());
  app.get('/api/openapi.json', (_req, res) => res.json(parts.openapi));
  app.use(
    '/api/docs',
    helmet({
      contentSecurityPolicy: { useDefaults: true, directives: { 'connect-src': ["'self'"], 'upgrade-insecure-requests': null } },
    }),
    swaggerUi.serve,
    swaggerUi.setup(docsPageDocument(parts.openapi), { customSiteTitle: 'Clinical Care Platform API' }),
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
