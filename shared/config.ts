import { z } from 'zod';

/**
 * Configuration comes from the environment only. Every variable has a documented default (docs/configuration.md)
 * so `npm start` works on a fresh machine; a bad value stops the process with one clear line.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const oidcProviders = z.array(
  z.object({
    name: z.string().regex(/^[a-z0-9_-]+$/),
    issuer: z.string().min(1),
    jwks_uri: z.url(),
    client_id: z.string().min(1),
  }),
);

const hieExchanges = z.record(
  z.string().regex(/^[A-Z]{2}$/),
  z.object({
    adapter: z.enum(['sandbox', 'fhir']),
    base_url: z.url().optional(),
    /** Bearer token the exchange expects, if any. */
    token: z.string().optional(),
    timeout_ms: z.number().int().min(100).max(60_000).optional(),
  }),
);

const smartClients = z.array(
  z.object({
    client_id: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
    name: z.string().min(1),
    launch_url: z.url(),
    redirect_uris: z.array(z.url()).min(1),
  }),
);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgres://postgres@127.0.0.1:5432/clinical_care'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  /**
   * A Redis Cluster instead of REDIS_URL: seed nodes as `host:port,host:port` (the rest are discovered). Credentials
   * and TLS come from REDIS_URL. docs/deployment.md.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]+:\d+(,[A-Za-z0-9.:[\]-]+:\d+)*$/, 'must be host:port[,host:port...]')
    .optional(),
  /** Read replicas of DATABASE_URL (comma-separated URLs) for reads where staleness is acceptable (docs/deployment.md). */
  DATABASE_REPLICA_URLS: z
    .string()
    .refine((v) => v.split(',').every((u) => /^postgres(ql)?:\/\/\S+$/.test(u)), 'must be postgres:// URLs, comma-separated')
    .optional(),
  /** After a write, a caller's reads go to the primary for this long (read-your-writes with replicas). */
  READ_YOUR_WRITES_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Namespace for every Redis key and queue, so several deployments (or test runs) can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/)
    .default('ccp'),
  /** PASERK `k4.secret...` Ed25519 signing key. When absent, one is generated and kept in TOKEN_KEY_FILE. */
  TOKEN_SECRET_KEY: z.string().startsWith('k4.secret.').optional(),
  TOKEN_KEY_FILE: z.string().default('.data/token-keys.json'),
  /** Shared secret signing the viewer that the gateway hands to subgraphs in split mode (HMAC-SHA256). */
  INTERNAL_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 86400),
  BOOTSTRAP_ADMIN_EMAIL: z.email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8).optional(),
  GRAPHQL_INTROSPECTION: bool.default(false),
  /** The GraphQL explorer (GraphiQL, served from local assets) at `GET /graphql`; unset: on in development only. */
  GRAPHQL_EXPLORER: bool.optional(),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(10).default(5000),
  /**
   * Trusted-documents mode (production): the path of a persisted query manifest (Apollo's format). `/graphql` then
   * runs only the documents it lists, sent by id or in full; unset: any valid operation, with automatic persisted queries.
   */
  GRAPHQL_TRUSTED_DOCUMENTS: z.string().min(1).optional(),
  /** Largest accepted JSON request body, in bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `local`: subgraphs execute in the gateway's process. `remote`: the gateway calls them over HTTP. */
  SUBGRAPH_MODE: z.enum(['local', 'remote']).default('local'),
  CLINICAL_SUBGRAPH_URL: z.url().default('http://127.0.0.1:4001/graphql'),
  ORG_SUBGRAPH_URL: z.url().default('http://127.0.0.1:4002/graphql'),
  REVENUE_SUBGRAPH_URL: z.url().default('http://127.0.0.1:4003/graphql'),
  /** Split mode: how long the supervisor waits before restarting a process that died (doubled per quick crash). */
  SPLIT_RESTART_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  /** Run the queue workers (outbox relay, event consumers) inside the API process. */
  RUN_WORKERS: bool.default(true),
  /** Express `trust proxy` setting: set when behind a load balancer so client IPs and protocol are right. */
  TRUST_PROXY: z.string().default('loopback'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Where users reach the platform: links in emails, the OpenAPI document's server, the SMART issuer. Unset, it is
   * `http://localhost:<PORT>`, so a platform moved to another port still points at itself.
   */
  PUBLIC_URL: z.url().optional(),
  /**
   * Browser origins allowed to call the REST API and /graphql from another origin (CORS), comma-separated, each
   * `scheme://host[:port]` exactly as the browser sends it in `Origin`. None by default: only same-origin pages.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((raw, ctx) => {
      const origins = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const origin of origins) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(origin);
        } catch {
          parsed = undefined;
        }
        if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: `"${origin}" is not an origin such as https://app.example.org (no path, no trailing slash, no *)`,
          });
          return z.NEVER;
        }
      }
      return origins;
    }),
  /** `sandbox` keeps mail in Redis (read it with `npm run mailbox`); `smtp` sends through SMTP_URL. */
  MAIL_TRANSPORT: z.enum(['sandbox', 'smtp']).default('sandbox'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().default('Clinical Care Platform <no-reply@localhost>'),
  EMAIL_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 3600),
  RESET_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  MFA_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  /** Organization invitations (the mailed token) stay valid this long. */
  INVITATION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 86400),
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
  WORKER_LOCK_MS: z.coerce.number().int().min(1000).default(10_000),
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(5_000),
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
  VIDEO_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .default(2 * 3600),
  VIDEO_API_KEY: z.string().optional(),
  VIDEO_API_SECRET: z.string().optional(),
  MESSAGING_APP_SECRET: z.string().optional(),
  MESSAGING_VERIFY_TOKEN: z.string().optional(),
  MAILER_WEBHOOK_SECRET: z.string().optional(),
  INBOUND_FORMS_SECRET: z.string().optional(),
  MOBILE_MONEY_A_SECRET: z.string().optional(),
  MOBILE_MONEY_B_SECRET: z.string().optional(),
  /** Where uploaded files (session audio) are kept: `local` disk under OBJECT_STORAGE_DIR, or an S3-compatible store. */
  OBJECT_STORAGE: z.enum(['local', 's3']).default('local'),
  OBJECT_STORAGE_DIR: z.string().min(1).default('.data/objects'),
  S3_BUCKET: z.string().min(3).optional(),
  /** An S3-compatible endpoint (MinIO, Ceph); unset for the cloud's own. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO and Ceph need. */
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** Largest audio upload (a recording, a dictation segment), in bytes; 413 beyond. */
  AUDIO_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(200 * 1024 * 1024),
  /** Audio types accepted for upload, comma-separated; 415 for others. */
  AUDIO_UPLOAD_TYPES: z
    .string()
    .default('audio/wav,audio/x-wav,audio/wave,audio/mpeg,audio/mp4,audio/x-m4a,audio/aac,audio/ogg,audio/webm,audio/flac,audio/x-flac')
    .transform((raw) =>
      raw
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * Base URL of a speech-to-text server speaking the OpenAI-compatible `POST /v1/audio/transcriptions` API
   * (whisper.cpp server, faster-whisper, vLLM); unset: transcripts wait for a person to submit them.
   */
  TRANSCRIPTION_URL: z.url().optional(),
  TRANSCRIPTION_API_KEY: z.string().optional(),
  TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  TRANSCRIPTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(10 * 60_000),
  /** How long the sandbox mobile money provider waits before it calls back, as a customer takes to approve on the phone. */
  MOBILE_MONEY_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * Aggregate health reporting (DHIS2 Web API). `sandbox` answers like DHIS2 on loopback and keeps the values in
   * Redis; `dhis2` posts to `<REPORTSYS_URL>/api/dataValueSets` with REPORTSYS_TOKEN (personal access token) or
   * REPORTSYS_USERNAME and REPORTSYS_PASSWORD (basic authentication).
   */
  REPORTSYS_PROVIDER: z.enum(['sandbox', 'dhis2']).default('sandbox'),
  REPORTSYS_URL: z.url({ protocol: /^https?$/ }).optional(),
  REPORTSYS_USERNAME: z.string().min(1).optional(),
  REPORTSYS_PASSWORD: z.string().min(1).optional(),
  REPORTSYS_TOKEN: z.string().min(1).optional(),
  /**
   * What the aggregate reports carry: data set, org unit per organization, data element and category option combo
   * per disease (and age band) and per syndrome. Inline JSON, or the path of a JSON file (docs/public-health.md).
   */
  REPORTSYS_MAPPING: z.string().min(1).optional(),
  /** Feedback submissions per client address (anonymous) or per user (signed in) per window; beyond: 429. */
  RATE_LIMIT_FEEDBACK_POINTS: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_FEEDBACK_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Audit every read of patient data. Only `npm run bench` turns it off, to measure what it costs. */
  READ_AUDIT: bool.default(true),
  /** Master patient index: score at or above which a pair may be linked without a person (matching.json when unset). */
  MPI_AUTO_LINK_THRESHOLD: z.coerce.number().gt(0).max(1).optional(),
  /** Master patient index: score at or above which a pair waits for a reviewer (matching.json when unset). */
  MPI_REVIEW_THRESHOLD: z.coerce.number().gt(0).max(1).optional(),
  /** How often patients missing from the master patient index (or changed since) are indexed. */
  MPI_INDEX_SWEEP_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Health information exchanges for cross-border lookup, JSON by country:
   * {"KE":{"adapter":"fhir","base_url":"https://hie.example/fhir","token":"...","timeout_ms":5000}}.
   * Countries not named use the sandbox adapter (fixtures).
   */
  HIE_EXCHANGES: z
    .string()
    .default('{}')
    .transform((raw, ctx) => {
      try {
        return hieExchanges.parse(JSON.parse(raw));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `must be a JSON object of exchanges by country (${(err as Error).message})` });
        return z.NEVER;
      }
    }),
  /** FHIR base URLs a caller may name as `hie_endpoint` (comma-separated); any other is refused before a request leaves. */
  HIE_ENDPOINT_ALLOWLIST: z
    .string()
    .default('')
    .transform((raw) =>
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  HIE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Consecutive failures after which an exchange's circuit opens, and how long it stays open. */
  HIE_BREAKER_FAILURES: z.coerce.number().int().min(1).default(5),
  HIE_BREAKER_OPEN_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * SMART on FHIR apps allowed to launch, JSON:
   * [{"client_id":"growth-chart","name":"Growth chart","launch_url":"https://app/launch","redirect_uris":["https://app/cb"]}]
   */
  SMART_CLIENTS: z
    .string()
    .default('[]')
    .transform((raw, ctx) => {
      try {
        return smartClients.parse(JSON.parse(raw));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `must be a JSON list of SMART apps (${(err as Error).message})` });
        return z.NEVER;
      }
    }),
  SMART_LAUNCH_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  SMART_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86400).default(3600),
});

/** Defaults that depend on another variable. */
const resolved = schema.transform((cfg) => ({
  ...cfg,
  GRAPHQL_EXPLORER: cfg.GRAPHQL_EXPLORER ?? cfg.NODE_ENV === 'development',
  // PORT 0 (a port the system picks) has no address to name before the platform listens.
  PUBLIC_URL: cfg.PUBLIC_URL ?? (cfg.PORT ? `http://localhost:${cfg.PORT}` : 'http://localhost'),
}));

export type Config = z.infer<typeof resolved>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = resolved.safeParse(env);
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

/** The subgraphs, in the order they start (org first: it owns identity); each has a `<NAME>_SUBGRAPH_URL`. */
export const SUBGRAPH_NAMES = ['org', 'clinical', 'revenue'] as const;

/** Where each subgraph answers in split mode: the gateway calls it there, and so do the others (shared/peers.ts). */
export function subgraphUrl(name: string): string {
  const cfg = config();
  const urls: Record<(typeof SUBGRAPH_NAMES)[number], string> = {
    clinical: cfg.CLINICAL_SUBGRAPH_URL,
    org: cfg.ORG_SUBGRAPH_URL,
    revenue: cfg.REVENUE_SUBGRAPH_URL,
  };
  return urls[name as (typeof SUBGRAPH_NAMES)[number]];
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
