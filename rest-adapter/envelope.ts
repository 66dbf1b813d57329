import type { Response } from 'express';
import { snakePath } from '../shared/case';
import { describeIssues, ERROR_STATUS, isErrorCode, type ErrorCode, type FieldIssue } from '../shared/errors';

/** The response envelopes of SPEC.md, in one place. */
export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  /** Present (true) when `total` is an estimate: lists that grow with an organization, past 1,000 matches. */
  total_is_estimate?: true;
}

export function sendData(res: Response, status: number, data: unknown, meta?: PageMeta): void {
  res.status(status).json(meta ? { success: true, data, meta } : { success: true, data });
}

export function sendError(res: Response, code: ErrorCode, message: string, details?: FieldIssue[]): void {
  const body: { code: ErrorCode; message: string; details?: FieldIssue[] } = { code, message };
  if (details?.length) body.details = details;
  res.status(ERROR_STATUS[code]).json({ success: false, error: body });
}

/**
 * `Retry-After` for an error that says when to try again (RATE_LIMITED; SERVICE_UNAVAILABLE when a part of the
 * platform is down), and the RateLimit fields of a RATE_LIMITED error's extensions.
 */
export function applyRateLimitHeaders(res: Response, extensions: Record<string, unknown> | undefined): void {
  const code = extensions?.code;
  const retryAfter = extensions?.retryAfter;
  if (typeof retryAfter === 'number' && (code === 'RATE_LIMITED' || code === 'SERVICE_UNAVAILABLE')) {
    res.setHeader('Retry-After', String(retryAfter));
  }
  if (code !== 'RATE_LIMITED') return;
  const limit = extensions?.rateLimit as { limit: number; remaining: number; reset: number } | undefined;
  if (limit) {
    res.setHeader('RateLimit-Limit', String(limit.limit));
    res.setHeader('RateLimit-Remaining', String(limit.remaining));
    res.setHeader('RateLimit-Reset', String(limit.reset));
  }
}

/** A user error of a mutation payload, as selected by an operation document: `userErrors { field message code }`. */
export interface WireUserError {
  field: string[] | null;
  message: string;
  code: string;
}

/**
 * A payload's user errors (docs/graphql.md, "Expected failures") as the error REST answered before mutations had
 * payloads, in this one place: INVALID ones are a VALIDATION_ERROR naming their fields (the path without its
 * leading `input`), anything else a CONFLICT with its message.
 */
export function userErrorsAsError(userErrors: WireUserError[]): { message: string; extensions: Record<string, unknown> } {
  const invalid = userErrors.filter((e) => e.code === 'INVALID');
  if (!invalid.length) return { message: userErrors[0].message, extensions: { code: 'CONFLICT', reason: userErrors[0].code } };
  const details: FieldIssue[] = invalid
    .filter((e) => e.field?.length)
    .map((e) => ({ field: (e.field![0] === 'input' ? e.field!.slice(1) : e.field!).join('.'), message: e.message }));
  if (!details.length) return { message: invalid[0].message, extensions: { code: 'VALIDATION_ERROR' } };
  return { message: describeIssues(details), extensions: { code: 'VALIDATION_ERROR', details } };
}

/** A GraphQL error as the REST client sees it: field names in snake_case, status from the code. */
export function sendGraphQLError(res: Response, error: { message: string; extensions?: Record<string, unknown> }): void {
  const raw = error.extensions?.code;
  const code: ErrorCode = isErrorCode(raw) ? raw : 'INTERNAL_ERROR';
  applyRateLimitHeaders(res, error.extensions);
  const issues = error.extensions?.details as FieldIssue[] | undefined;
  if (code === 'VALIDATION_ERROR' && Array.isArray(issues) && issues.length) {
    const wire = issues.map((i) => ({ field: snakePath(i.field), message: i.message }));
    return sendError(res, code, describeIssues(wire), wire);
  }
  sendError(res, code, code === 'INTERNAL_ERROR' ? 'Internal server error' : error.message);
}
