import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { config } from './config';
import { AppError } from './errors';
import { appRedis, redisKey } from './redis';

/**
 * Rate limits shared by every process through Redis (an in-memory limiter stands in while Redis is unreachable).
 * `general`: every request, per caller, at the edge. `auth`: brute-force targets (login, register, refresh,
 * forgot-password, MFA challenge), per client address, in the auth service so GraphQL gets it too. `feedback`: feedback
 * submissions, per client address (anonymous) or per user, in the feedback service.
 */
export type LimitKind = 'general' | 'auth' | 'feedback';

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

let limiters: Record<LimitKind, RateLimiterRedis> | undefined;

function build(kind: LimitKind, points: number, duration: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: appRedis(),
    keyPrefix: redisKey('rl', kind),
    points,
    duration,
    insuranceLimiter: new RateLimiterMemory({ points, duration }),
  });
}

function limiter(kind: LimitKind): RateLimiterRedis {
  if (!limiters) {
    const cfg = config();
    limiters = {
      general: build('general', cfg.RATE_LIMIT_POINTS, cfg.RATE_LIMIT_WINDOW_SECONDS),
      auth: build('auth', cfg.RATE_LIMIT_AUTH_POINTS, cfg.RATE_LIMIT_AUTH_WINDOW_SECONDS),
      feedback: build('feedback', cfg.RATE_LIMIT_FEEDBACK_POINTS, cfg.RATE_LIMIT_FEEDBACK_WINDOW_SECONDS),
    };
  }
  return limiters[kind];
}

const state = (points: number, res: RateLimiterRes): LimitState => ({
  limit: points,
  remaining: Math.max(0, res.remainingPoints),
  reset: Math.ceil(res.msBeforeNext / 1000),
});

/** Takes one request from `key`'s allowance; over the limit throws RATE_LIMITED carrying the headers' values. */
export async function consume(kind: LimitKind, key: string): Promise<LimitState> {
  const l = limiter(kind);
  try {
    return state(l.points, await l.consume(key));
  } catch (rejected) {
    if (!(rejected instanceof RateLimiterRes)) throw rejected;
    const s = state(l.points, rejected);
    throw new AppError('RATE_LIMITED', 'Too many requests; retry later', undefined, {
      retryAfter: Math.max(1, s.reset),
      rateLimit: s,
    });
  }
}

/** The IETF RateLimit header fields for a state. */
export function rateLimitHeaders(s: LimitState, windowSeconds: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(s.limit),
    'RateLimit-Remaining': String(s.remaining),
    'RateLimit-Reset': String(s.reset),
    'RateLimit-Policy': `${s.limit};w=${windowSeconds}`,
  };
}
