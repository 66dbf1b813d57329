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
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One offending input field. `field` is a dotted path in the caller's naming (camelCase in GraphQL). */
export interface FieldIssue {
  field: string;
  message: string;
}

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
  conflict: (message: string) => new AppError('CONFLICT', message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('RATE_LIMITED', 'Too many requests; retry later', undefined, { retryAfter: retryAfterSeconds }),
};

/** A unique index caught a duplicate the service did not check for first (MikroORM's driver exception). */
function isUniqueViolation(original: unknown): boolean {
  return !!original && typeof original === 'object' && (original as { name?: string }).name === 'UniqueConstraintViolationException';
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
    return { ...base, message: 'A record with these values already exists', extensions: { code: 'CONFLICT' } };
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
