import { z } from 'zod';

/**
 * Configuration comes from the environment only. Every variable has a documented default (README, "Configuration")
 * so `npm start` works on a fresh machine; a bad value stops the process with one clear line.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const oidcProviders = z.array(
  z.object({
    name: z.string().regex(/^[a-z0-9_-]+$/),
    issuer: z.string().min(1),
    jwks_uri: z.url(),
    client_id: z.string().min(1),
  }),
);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgres://postgres@127.0.0.1:5432/clinical_care'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  /** Namespace for every Redis key and queue, so several deployments (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[a-zA-Z0-9_-]+$/).default('ccp'),
  /** PASERK `k4.secret...` Ed25519 signing key. When absent, one is generated and kept in TOKEN_KEY_FILE. */
  TOKEN_SECRET_KEY: z.string().startsWith('k4.secret.').optional(),
  TOKEN_KEY_FILE: z.string().default('.data/token-keys.json'),
  /** Shared secret signing the viewer that the gateway hands to subgraphs in split mode (HMAC-SHA256). */
  INTERNAL_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(30 * 86400),
  BOOTSTRAP_ADMIN_EMAIL: z.email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8).optional(),
  GRAPHQL_INTROSPECTION: bool.default(false),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(10).default(5000),
  /** Largest accepted JSON request body, in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `local`: subgraphs execute in the gateway's process. `remote`: the gateway calls them over HTTP. */
  SUBGRAPH_MODE: z.enum(['local', 'remote']).default('local'),
  CLINICAL_SUBGRAPH_URL: z.url().default('http://127.0.0.1:4001/graphql'),
  ORG_SUBGRAPH_URL: z.url().default('http://127.0.0.1:4002/graphql'),
  REVENUE_SUBGRAPH_URL: z.url().default('http://127.0.0.1:4003/graphql'),
  /** Run the queue workers (outbox relay, event consumers) inside the API process. */
  RUN_WORKERS: bool.default(true),
  /** Express `trust proxy` setting: set when behind a load balancer so client IPs and protocol are right. */
  TRUST_PROXY: z.string().default('loopback'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** Where users reach the platform; links in emails point here. */
  PUBLIC_URL: z.url().default('http://localhost:4000'),
  /** `sandbox` keeps mail in Redis (read it with `npm run mailbox`); `smtp` sends through SMTP_URL. */
  MAIL_TRANSPORT: z.enum(['sandbox', 'smtp']).default('sandbox'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().default('Clinical Care Platform <no-reply@localhost>'),
  EMAIL_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
  RESET_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  MFA_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  /** Organization invitations (the mailed token) stay valid this long. */
  INVITATION_TTL_SECONDS: z.coerce.number().int().min(60).default(7 * 86400),
  /**
   * OpenID Connect providers trusted for social login, as JSON:
   * [{"name":"google","issuer":"https://accounts.google.com","jwks_uri":"https://.../certs","client_id":"..."}]
   */
  OIDC_PROVIDERS: z
    .string()
    .default('[]')
    .transform((raw, ctx) => {
      try {
        return oidcProviders.parse(JSON.parse(raw));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `must be a JSON list of providers (${(err as Error).message})` });
        return z.NEVER;
      }
    }),
  /** Requests per caller (user, API key or address) per window, at the edge. */
  RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(1200),
  /** How long the answer to a REST write sent with an `Idempotency-Key` is kept for retries. */
  IDEMPOTENCY_TTL_SECONDS: z.coerce.number().int().min(1).default(86_400),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Attempts per client address per window on login, register, refresh, forgot-password and MFA challenge. */
  RATE_LIMIT_AUTH_POINTS: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_AUTH_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Attempts a consumer gets per event before it goes to the dead letter queue. */
  EVENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** First retry delay; each next one doubles. */
  EVENT_BACKOFF_MS: z.coerce.number().int().min(1).default(1000),
  /**
   * How often failed jobs are checked for a dead letter that could not be written when they failed (PostgreSQL
   * down, or the process stopped first); each such job is recorded then.
   */
  DLQ_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Dead letter queue depth at which `GET /admin/dlq/depth` reports `alert: true`. */
  DLQ_ALERT_THRESHOLD: z.coerce.number().int().min(1).default(10),
  /** Bearer token a metrics scraper may present at /metrics instead of an administrator's token. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Inbound webhooks must arrive over HTTPS (directly or per X-Forwarded-Proto from a trusted proxy). */
  WEBHOOK_REQUIRE_HTTPS: bool.default(true),
  BILLING_WEBHOOK_SECRET: z.string().optional(),
  /** `sandbox` issues real room tokens and sends the provider's signed webhooks on loopback; `livekit` uses VIDEO_API_URL. */
  VIDEO_PROVIDER: z.enum(['sandbox', 'livekit']).default('sandbox'),
  VIDEO_API_URL: z.url().optional(),
  /** Lifetime of a participant's room token. */
  VIDEO_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(24 * 3600).default(2 * 3600),
  VIDEO_API_KEY: z.string().optional(),
  VIDEO_API_SECRET: z.string().optional(),
  MESSAGING_APP_SECRET: z.string().optional(),
  MESSAGING_VERIFY_TOKEN: z.string().optional(),
  MAILER_WEBHOOK_SECRET: z.string().optional(),
  INBOUND_FORMS_SECRET: z.string().optional(),
  MOBILE_MONEY_A_SECRET: z.string().optional(),
  MOBILE_MONEY_B_SECRET: z.string().optional(),
  /** Audit every read of patient data. Only `npm run bench` turns it off, to measure what it costs. */
  READ_AUDIT: bool.default(true),
});


export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  return Object.freeze(parsed.data);
}

let current: Config | undefined;

/** The process-wide configuration, read from the environment on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}

/** Tests and entrypoints that change the environment after start call this to read it again. */
export function resetConfig(): void {
  current = undefined;
}

/** Where each subgraph answers in split mode: the gateway calls it there, and so do the others (shared/peers.ts). */
export function subgraphUrl(name: string): string {
  const cfg = config();
  const urls: Record<string, string> = {
    clinical: cfg.CLINICAL_SUBGRAPH_URL,
    org: cfg.ORG_SUBGRAPH_URL,
    revenue: cfg.REVENUE_SUBGRAPH_URL,
  };
  return urls[name];
}

/** A URL with its password removed, safe to print in logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}
