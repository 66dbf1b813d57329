import type { NextFunction, Request, Response } from 'express';
import { config } from '../shared/config';
import { AppError, errors } from '../shared/errors';
import { logger } from '../shared/logger';
import { consume, rateLimitHeaders, type LimitState } from '../shared/rate-limit';
import { verifyToken } from '../shared/tokens';
import type { Authenticator } from '../shared/viewer';

export type { Authenticator };

/**
 * Verifies the caller once, at the edge, for REST and GraphQL alike: `Authorization: Bearer <token>` or
 * `X-API-Key: <secret>`. No credentials: the request goes on anonymous and each subgraph decides. Bad
 * credentials: 401 at once, whatever the path. Then every request counts against its caller's general rate
 * limit (per user, per API key, or per client address when anonymous).
 */
export function authenticate(identity: Authenticator, reject: (res: Response, error: AppError) => void) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const bearer = req.headers.authorization;
      const apiKey = req.headers['x-api-key'];
      if (bearer !== undefined && apiKey !== undefined) {
        throw errors.unauthorized('Send either a bearer token or an API key, not both');
      }
      let limit: LimitState;
      if (bearer !== undefined) {
        const [scheme, token, extra] = bearer.trim().split(/\s+/);
        if (scheme?.toLowerCase() !== 'bearer' || !token || extra !== undefined) {
          throw errors.unauthorized('Authorization header must be "Bearer <token>"');
        }
        // The signature names the caller (a verified token is remembered, so this is a lookup after the first
        // request): the session check and the rate limit then go to Redis together, in one round trip.
        const { sub } = await verifyToken(token, 'access');
        const [viewer, counted] = await Promise.allSettled([identity.viewerFromAccessToken(token), consume('general', `user:${sub}`)]);
        if (viewer.status === 'rejected') throw viewer.reason;
        if (counted.status === 'rejected') throw counted.reason;
        req.viewer = viewer.value;
        limit = counted.value;
      } else if (apiKey !== undefined) {
        if (typeof apiKey !== 'string' || !apiKey.trim()) throw errors.unauthorized('X-API-Key is empty');
        req.viewer = await identity.viewerFromApiKey(apiKey.trim());
        limit = await consume('general', req.viewer.apiKey ? `key:${req.viewer.apiKey.id}` : `user:${req.viewer.userId}`);
      } else {
        limit = await consume('general', `ip:${req.ip}`);
      }
      res.set(rateLimitHeaders(limit, config().RATE_LIMIT_WINDOW_SECONDS));
      next();
    } catch (err) {
      if (err instanceof AppError) return reject(res, err);
      logger.error({ err }, 'authentication failed unexpectedly');
      next(err);
    }
  };
}
