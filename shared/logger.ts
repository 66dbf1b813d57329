import pino from 'pino';

/**
 * A database error as logged: the driver's message without the SQL and its bound values that the query builder puts
 * in front of it (patients' names, dates of birth, record snapshots), and without PostgreSQL's `detail`, which
 * repeats the offending values ("Key (email)=(...) already exists"). What stays says what failed and where.
 */
const SQL_DETAIL_KEYS = ['detail', 'where', 'internalQuery', 'query', 'sql', 'parameters', 'params', 'hint'];

export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  const code = (err as { code?: unknown }).code;
  const fromDatabase = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
  if (!fromDatabase) return out;
  for (const key of SQL_DETAIL_KEYS) delete out[key];
  const message = String(out.message ?? '');
  // "insert into ... values (...) - duplicate key value violates unique constraint ..." keeps what follows the SQL.
  const cut = message.lastIndexOf(' - ');
  const safe = cut >= 0 ? message.slice(cut + 3) : message;
  out.message = safe;
  if (typeof out.stack === 'string')
    out.stack = [`${out.type}: ${safe}`, ...out.stack.split('\n').filter((l) => l.trim().startsWith('at '))].join('\n');
  return out;
}

/** Where logs go: standard output, or a file when LOG_FILE names one (the test runs keep theirs to check it). */
function destination() {
  const file = process.env.LOG_FILE;
  return file ? pino.destination({ dest: file, append: true, sync: true, mkdir: true }) : undefined;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The level the logger starts at, from LOG_LEVEL as it stands; a bad value is left for the configuration check
 * to report in one line (bin/run.ts), so the logger itself never stops a process with a stack trace.
 */
const initialLevel = () => (LEVELS.includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL! : 'info');

/** One logger for every process. Secrets, credentials and patient data never reach the log. */
export const logger = pino(
  {
    level: initialLevel(),
    base: { service: process.env.SERVICE_NAME ?? 'platform' },
    serializers: { err: serializeError, error: serializeError },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        '*.password',
        '*.token',
        '*.refreshToken',
        '*.secret',
        '*.apiKey',
        '*.idToken',
      ],
      censor: '[redacted]',
    },
  },
  destination(),
);

export type Logger = typeof logger;
