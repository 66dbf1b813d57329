import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/**
 * The closed list of error codes and their HTTP statuses. Subgraphs raise these in `extensions.code`; the REST
 * adapter maps them to statuses; nothing else is ever sent to a client.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** An upstream service the platform called (a registered AI model) failed or answered nonsense. */
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  /** An upstream service the platform called did not answer in time. */
  GATEWAY_TIMEOUT: 504,
  /** A GraphQL operation costs more than the limit, or uses too many aliases or tokens: `extensions.limit`, `.actual`. */
  QUERY_TOO_COMPLEX: 400,
  /** A GraphQL operation nests selections deeper than the limit: `extensions.limit`, `.actual`. */
  QUERY_TOO_DEEP: 400,
  /**
   * Automatic persisted queries: the hash sent alone is not known here; send it again with the query. Answered with
   * HTTP 200, as the APQ protocol does, so a client's persisted-query link retries.
   */
  PERSISTED_QUERY_NOT_FOUND: 200,
  /** Trusted-documents mode: the persisted operation id sent is not in the server's manifest. */
  PERSISTED_QUERY_NOT_IN_LIST: 400,
  /** Trusted-documents mode: a query sent in full that is not one of the manifest's documents. */
  QUERY_NOT_IN_SAFELIST: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One offending input field. `field` is a dotted path in the caller's naming (camelCase in GraphQL). */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * Why a CONFLICT, in `extensions.reason`, for a client to branch on:
 * - ILLEGAL_TRANSITION: a state machine refused the action (`extensions.from`: the current state, `.action`);
 * - DUPLICATE: a record with these values already exists (a unique rule or index);
 * - STALE_VERSION: `expectedVersion` differs from the record's (`extensions.currentVersion`): reload and retry;
 * - BUSINESS_RULE: any other rule of the record's current state (stock, capacity, last administrator ...).
 */
export const CONFLICT_REASONS = ['ILLEGAL_TRANSITION', 'DUPLICATE', 'STALE_VERSION', 'BUSINESS_RULE'] as const;
export type ConflictReason = (typeof CONFLICT_REASONS)[number];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, code);
}

/** An error meant for the caller. Anything else thrown is logged and answered as INTERNAL_ERROR. */
export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldIssue[],
    extra?: Record<string, unknown>,
  ) {
    super(message, { extensions: { code, ...(details ? { details } : {}), ...extra } });
    this.name = 'AppError';
  }
}

export function describeIssues(issues: FieldIssue[]): string {
  return 'Invalid input: ' + issues.map((i) => `${i.field} ${i.message}`).join('; ');
}

export const errors = {
  validation: (issues: FieldIssue[]) => new AppError('VALIDATION_ERROR', describeIssues(issues), issues),
  invalidField: (field: string, message: string) => errors.validation([{ field, message }]),
  unauthorized: (message = 'Authentication required') => new AppError('UNAUTHORIZED', message),
  forbidden: (message = 'You do not have permission to do this') => new AppError('FORBIDDEN', message),
  notFound: (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`),
  conflict: (message: string, reason: ConflictReason = 'BUSINESS_RULE', extra?: Record<string, unknown>) =>
    new AppError('CONFLICT', message, undefined, { reason, ...extra }),
  /** A state machine refused `action` from state `from` (shared/state-machine.ts raises it). */
  illegalTransition: (message: string, from: string, action: string) => errors.conflict(message, 'ILLEGAL_TRANSITION', { from, action }),
  /** A record with these values already exists. */
  duplicate: (message: string) => errors.conflict(message, 'DUPLICATE'),
  /** An update named the version it read (`expectedVersion`) and the record has moved on since. */
  staleVersion: (what: string, currentVersion: number, expectedVersion: number) =>
    errors.conflict(`The ${what} is at version ${currentVersion}, not ${expectedVersion}; reload it and try again`, 'STALE_VERSION', {
      currentVersion,
    }),
  /** A GraphQL operation over a complexity limit (`measure`: cost, aliases or tokens). */
  queryTooComplex: (message: string, measure: 'cost' | 'aliases' | 'tokens', limit: number, actual: number) =>
    new AppError('QUERY_TOO_COMPLEX', message, undefined, { measure, limit, actual }),
  /** A GraphQL operation nested deeper than the limit. */
  queryTooDeep: (message: string, limit: number, actual: number) => new AppError('QUERY_TOO_DEEP', message, undefined, { limit, actual }),
  serviceUnavailable: (message: string) => new AppError('SERVICE_UNAVAILABLE', message),
  /** A subgraph did not answer (split mode: its process is down or restarting); the client may retry shortly. */
  subgraphUnavailable: (subgraph: string, writeMayHaveHappened = false) =>
    new AppError(
      'SERVICE_UNAVAILABLE',
      writeMayHaveHappened
        ? `The ${subgraph} service stopped answering during this change, which may or may not have been saved; read the record before writing again, or retry with the same Idempotency-Key`
        : `The ${subgraph} service is unavailable; retry shortly`,
      undefined,
      { retryAfter: SUBGRAPH_RETRY_AFTER_SECONDS },
    ),
  badGateway: (message: string) => new AppError('BAD_GATEWAY', message),
  gatewayTimeout: (message: string) => new AppError('GATEWAY_TIMEOUT', message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('RATE_LIMITED', 'Too many requests; retry later', undefined, { retryAfter: retryAfterSeconds }),
};

/** What `Retry-After` says when a subgraph is down: about how long split mode's supervisor takes to restart one. */
export const SUBGRAPH_RETRY_AFTER_SECONDS = 5;

/**
 * A call to another service that found nobody answering: the connection refused, reset or timed out (fetch's own
 * errors carry the system code on `cause`), or a proxy in between answering 502, 503 or 504.
 */
export function isUnreachable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; name?: unknown; type?: unknown; cause?: unknown; extensions?: { response?: { status?: unknown } } };
  const status = e.extensions?.response?.status;
  if (status === 502 || status === 503 || status === 504) return true;
  if (e.name === 'TimeoutError' || e.type === 'system') return true;
  if (typeof e.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(e.code)) return true;
  return isUnreachable(e.cause);
}

/** Whether a connection was refused (nothing listening): the request never reached the other side. */
export function wasRefused(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; cause?: unknown };
  return e.code === 'ECONNREFUSED' || wasRefused(e.cause);
}

/** What a client is told when a unique index caught a duplicate. */
export const DUPLICATE_VALUES_MESSAGE = 'A record with these values already exists';

/** A unique index caught a duplicate the service did not check for first (MikroORM's driver exception). */
export function isUniqueViolation(original: unknown): boolean {
  return !!original && typeof original === 'object' && (original as { name?: string }).name === 'UniqueConstraintViolationException';
}

/** A lost or refused database connection: SQLSTATE class 08, an administrator's shutdown (57P01-57P03), or a socket error. */
function isConnectionLoss(original: unknown): boolean {
  const code = (original as { code?: unknown } | null)?.code;
  const name = (original as { name?: unknown } | null)?.name;
  if (name === 'ConnectionException') return true;
  if (
    /Connection terminated|connection is closed|Client has encountered a connection error/i.test(String((original as Error)?.message ?? ''))
  )
    return true;
  if (typeof code !== 'string') return false;
  return /^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code) || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code);
}

/** SQLSTATE class 22 (data exception) or a NOT NULL violation: a value the database refused. */
function isDataException(original: unknown): boolean {
  const code = (original as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^22[0-9A-Z]{3}$/.test(code) || code === '23502');
}

type ValidationErrorLike = { property: string; constraints?: Record<string, string>; children?: ValidationErrorLike[] };

/** Flattens class-validator errors into field issues, stripping the property name class-validator puts first. */
export function issuesFromClassValidator(list: ValidationErrorLike[], prefix = ''): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const e of list) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const message of Object.values(e.constraints ?? {})) {
      const text = message.startsWith(e.property + ' ') ? message.slice(e.property.length + 1) : message;
      out.push({ field, message: text });
    }
    if (e.children?.length) out.push(...issuesFromClassValidator(e.children, field));
  }
  return out;
}

/**
 * Turns any error produced while executing a subgraph operation into what the caller may see. Unknown errors lose
 * their message (it may hold SQL or internals) and are reported through `log`.
 */
export function toPublicError(error: GraphQLError, log: (err: unknown, msg: string) => void): GraphQLFormattedError {
  const original = error.originalError ?? error;
  const base = { message: error.message, locations: error.locations, path: error.path };
  const code = error.extensions?.code;
  if (isErrorCode(code)) return { ...base, extensions: stripInternal(error.extensions) };
  if (isUniqueViolation(original)) {
    return { ...base, message: DUPLICATE_VALUES_MESSAGE, extensions: { code: 'CONFLICT', reason: 'DUPLICATE' } };
  }
  // A value PostgreSQL refused (SQLSTATE class 22, data exception): input no check caught, so still the caller's
  // fault, never a 500. Logged: each of these is a missing validation to write.
  if (isDataException(original)) {
    log(original, 'a value reached the database unchecked');
    return { ...base, message: 'Invalid input value', extensions: { code: 'VALIDATION_ERROR' } };
  }
  // The database went away mid-request (a dropped connection, a restart, a failover): nothing the caller did wrong,
  // and a write may or may not have been committed. 503 says so; a REST client retries with its Idempotency-Key.
  if (isConnectionLoss(original)) {
    log(original, 'the database connection was lost during a request');
    return {
      ...base,
      message:
        'The database could not be reached while handling this request; a change it asked for may or may not have been ' +
        'saved. Retry with the same Idempotency-Key, or read the record before writing again.',
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    };
  }
  // Errors graphql-js raises itself (bad variables, unknown fields) carry no originalError and are safe to show.
  if (!error.originalError && (code === 'BAD_USER_INPUT' || code === undefined || code === 'GRAPHQL_VALIDATION_FAILED')) {
    return { ...base, extensions: { code: 'VALIDATION_ERROR' } };
  }
  log(original, 'unexpected error in GraphQL execution');
  return { message: 'Internal server error', path: error.path, extensions: { code: 'INTERNAL_ERROR' } };
}

function stripInternal(ext: Record<string, unknown>): Record<string, unknown> {
  const { stacktrace: _s, exception: _e, ...rest } = ext as Record<string, unknown>;
  return rest;
}
