import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { config } from '../shared/config';
import { logger } from '../shared/logger';
import { appRedis, redisKey } from '../shared/redis';
import { sendError } from './envelope';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** Answers that carry credentials (tokens, key secrets) are never kept: these paths ignore the header. */
const CREDENTIAL_PATHS = /^\/api\/(auth|developer\/keys)(\/|$)/;

/** Whether a write on `path` honours `Idempotency-Key` (for the middleware and the OpenAPI document). */
export const takesIdempotencyKey = (method: string, path: string) => UNSAFE.has(method) && !CREDENTIAL_PATHS.test(path);
/** How long a key stays claimed by a request that never answers (the process stopped mid-request). */
const IN_PROGRESS_SECONDS = 120;

interface Stored {
  /** What the first request was: method, path and body, hashed. */
  fingerprint: string;
  /** Absent while the first request is being processed. */
  status?: number;
  body?: unknown;
}

/** Whose key it is: a key means something only to the caller who chose it. */
function scopeOf(req: Request): string {
  const viewer = req.viewer;
  if (viewer?.apiKey) return `key:${viewer.apiKey.id}`;
  if (viewer) return `user:${viewer.userId}`;
  return `anonymous:${req.ip ?? 'unknown'}`;
}

/** Where a caller's key is kept. */
export function idempotencySlot(scope: string, key: string): string {
  return redisKey('idempotency', scope, createHash('sha256').update(key).digest('base64url'));
}

function fingerprintOf(req: Request): string {
  const body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? null);
  return createHash('sha256').update(`${req.method} ${req.originalUrl}\n${body}`).digest('base64url');
}

/**
 * `Idempotency-Key` on REST writes: a client that retries a POST, PUT, PATCH or DELETE with the key it sent the
 * first time gets the first answer again (with `Idempotent-Replayed: true`) instead of a second effect, for
 * `IDEMPOTENCY_TTL_SECONDS`. The same key with another method, path or body is a 409, as is a retry that arrives
 * while the first request is still running. Answers of 500 and above are not kept, so such a retry runs again.
 * Keys live in Redis; while Redis is unreachable requests run as if they carried no key. Sign-in and developer
 * key paths ignore the header: their answers carry credentials, which are not kept.
 */
export function idempotency() {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (key === undefined || !takesIdempotencyKey(req.method, req.path)) return next();
    if (!KEY_FORMAT.test(key)) {
      return sendError(res, 'VALIDATION_ERROR', 'Invalid input: Idempotency-Key must be 1 to 255 visible ASCII characters', [
        { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
      ]);
    }
    const redis = appRedis();
    const slot = idempotencySlot(scopeOf(req), key);
    const fingerprint = fingerprintOf(req);
    const ttl = config().IDEMPOTENCY_TTL_SECONDS;
    let claimed: string | null;
    try {
      claimed = await redis.set(slot, JSON.stringify({ fingerprint } satisfies Stored), 'EX', Math.min(ttl, IN_PROGRESS_SECONDS), 'NX');
    } catch (err) {
      logger.warn({ err: (err as Error).message, reqId: req.id }, 'idempotency store unreachable; the request runs without its key');
      return next();
    }
    if (!claimed) {
      let stored: Stored | null = null;
      try {
        const raw = await redis.get(slot);
        stored = raw ? (JSON.parse(raw) as Stored) : null;
      } catch (err) {
        logger.warn({ err: (err as Error).message, reqId: req.id }, 'idempotency store unreachable; the request runs without its key');
        return next();
      }
      if (!stored) return sendError(res, 'CONFLICT', 'A request with this Idempotency-Key has just finished; retry it');
      if (stored.fingerprint !== fingerprint) {
        return sendError(res, 'CONFLICT', 'This Idempotency-Key was already used for a different request');
      }
      if (stored.status === undefined) {
        return sendError(res, 'CONFLICT', 'A request with this Idempotency-Key is still being processed; retry it later');
      }
      res.setHeader('Idempotent-Replayed', 'true');
      return res.status(stored.status).json(stored.body);
    }
    // Keep the answer as it is sent: every REST answer leaves through res.json, also when the client has gone
    // meanwhile (a timed-out client's retry then gets the answer it missed). A request that never answers (the
    // process stopped) holds the key for IN_PROGRESS_SECONDS only.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const done =
        status >= 500 ? redis.del(slot) : redis.set(slot, JSON.stringify({ fingerprint, status, body } satisfies Stored), 'EX', ttl, 'XX');
      done.catch((err: Error) => logger.warn({ err: err.message, reqId: req.id }, 'could not keep the answer of an idempotent request'));
      return json(body);
    };
    next();
  };
}
