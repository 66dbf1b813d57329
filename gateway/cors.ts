import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Headers the platform sends that a page on another origin may read: rate limits and their `Retry-After`, the
 * idempotent replay marker, the request id (to quote in a support request) and `Allow` on a 405. Nothing else the
 * REST API or /graphql sends needs exposing (creates answer 201 with the record in the body, no `Location`).
 */
export const CORS_EXPOSED_HEADERS = [
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Idempotent-Replayed',
  'X-Request-Id',
  'Allow',
];

/**
 * Request headers a page on another origin may send. `X-API-Key` is left out on purpose: developer keys are for
 * servers, and a page holding one would hand its secret to everyone who opens it; a browser app signs its user in and
 * sends `Authorization: Bearer`. The Apollo client headers let Apollo Client and GraphiQL-style tools talk to /graphql.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
  'Apollo-Require-Preflight',
  'X-Apollo-Operation-Name',
  'Apollographql-Client-Name',
  'Apollographql-Client-Version',
];

/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin access for browser apps on the configured origins (`CORS_ORIGINS`), with the `cors` middleware.
 * A request from an allowed origin gets `Access-Control-Allow-Origin` naming it, with credentials allowed, and its
 * preflight (`OPTIONS`) is answered 204 here, before authentication. A request without `Origin`, or from any other
 * origin, goes on exactly as it would without this middleware and gets no CORS header at all, so the browser keeps
 * the answer from the other origin's page (and does not send a request whose preflight it refused).
 */
export function crossOrigin(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const handle = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    optionsSuccessStatus: 204,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    // The answer depends on Origin: caches in between must keep one per origin.
    res.vary('Origin');
    if (!allowed.has(origin)) return next();
    handle(req, res, next);
  };
}
