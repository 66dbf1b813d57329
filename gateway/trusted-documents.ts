import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../shared/errors';

/**
 * Trusted documents (a persisted query safelist): in production `/graphql` may run only the operations the
 * platform's own clients were built with. The list is a persisted query manifest as Apollo's client tooling writes
 * it (`generate-persisted-query-manifest`), each operation's id being the SHA-256 of its body:
 *
 *   { "format": "apollo-persisted-query-manifest", "version": 1,
 *     "operations": [{ "id": "<sha256 hex>", "name": "Chart", "type": "query", "body": "query Chart { ... }" }] }
 *
 * A client sends an operation by id (`extensions.persistedQuery.sha256Hash`, no `query`), over GET or POST, or in
 * full; anything else is refused: an unknown id with PERSISTED_QUERY_NOT_IN_LIST, a full query that is not listed
 * with QUERY_NOT_IN_SAFELIST. The REST adapter, uploads and the FHIR API run their own checked-in documents on the
 * gateway's executor, not through `/graphql`, so they are never refused.
 */
export interface TrustedDocuments {
  /** Listed bodies by id. */
  byId: ReadonlyMap<string, string>;
  /** SHA-256 of every listed body, for operations sent in full. */
  bodyHashes: ReadonlySet<string>;
}

const manifestSchema = z.object({
  format: z.literal('apollo-persisted-query-manifest'),
  version: z.literal(1),
  operations: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().optional(),
      type: z.enum(['query', 'mutation', 'subscription']).optional(),
      body: z.string().min(1),
    }),
  ),
});

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Reads and checks a manifest; a missing or malformed one stops the start, it does not open the graph. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS: cannot read ${path}: ${(err as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS: ${path} is not a persisted query manifest: ${parsed.error.issues[0]?.message}`);
  }
  const byId = new Map(parsed.data.operations.map((o) => [o.id, o.body]));
  return { byId, bodyHashes: new Set(parsed.data.operations.map((o) => sha256(o.body))) };
}

/**
 * Apollo Server's persisted-query store in trusted mode: the manifest, read-only. An id it lists resolves to its
 * body; nothing a client sends is ever registered.
 */
export function manifestCache(trusted: TrustedDocuments): KeyValueCache<string> {
  // Apollo Server prefixes the keys of its APQ store.
  const id = (key: string) => (key.startsWith('apq:') ? key.slice(4) : key);
  return {
    get: async (key) => trusted.byId.get(id(key)),
    set: async () => undefined,
    delete: async () => undefined,
  };
}

/** `extensions` of a GraphQL request over POST (an object) or GET (JSON in the query string); undefined when unreadable. */
function extensionsOf(req: Request): Record<string, unknown> | undefined {
  const raw: unknown = req.method === 'GET' ? req.query.extensions : req.body?.extensions;
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : undefined;
}

/** Refuses, before Apollo sees it, a `/graphql` request for an operation the manifest does not list. */
export function trustedDocumentsGuard(trusted: TrustedDocuments, reject: (res: Response, error: AppError) => void): RequestHandler {
  return (req, res, next) => {
    const hash = (extensionsOf(req)?.persistedQuery as { sha256Hash?: unknown } | undefined)?.sha256Hash;
    const query: unknown = req.method === 'GET' ? req.query.query : req.body?.query;
    if (typeof hash === 'string' && !trusted.byId.has(hash)) {
      return reject(
        res,
        new AppError('PERSISTED_QUERY_NOT_IN_LIST', 'This server runs trusted documents only, and this operation id is not one of them'),
      );
    }
    if (typeof hash !== 'string' && typeof query === 'string' && !trusted.bodyHashes.has(sha256(query))) {
      return reject(
        res,
        new AppError(
          'QUERY_NOT_IN_SAFELIST',
          'This server runs trusted documents only: send a listed operation by its id (extensions.persistedQuery.sha256Hash)',
        ),
      );
    }
    // A listed id, a listed body, or a request with neither (Apollo answers that one with a 400).
    next();
  };
}
