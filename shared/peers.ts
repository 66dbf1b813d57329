import { execute, parse, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { subgraphUrl } from './config';
import { errors, isUnreachable } from './errors';
import { signViewer, VIEWER_HEADER, type ForwardedCaller } from './internal-auth';
import type { Viewer } from './viewer';

/**
 * How a subgraph asks another one about entities that one owns. A subgraph never reads another's tables, so a
 * reference given in input (the patient of an admission) is checked by asking its owner through `_entities`, as
 * the caller, under the owner's access rules. In one process the owner's schema runs here; in split mode the call
 * goes over HTTP with the signed viewer, as the gateway's own calls do.
 */
export interface Peers {
  query(subgraph: string, document: string, variables: Record<string, unknown>, caller: ForwardedCaller): Promise<PeerResult>;
}

export interface PeerResult {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

/** The peers of split mode: each subgraph at its configured URL. */
export const remotePeers: Peers = {
  async query(subgraph, document, variables, caller) {
    let res: Response;
    try {
      res = await fetch(subgraphUrl(subgraph), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [VIEWER_HEADER]: await signViewer(caller) },
        body: JSON.stringify({ query: document, variables }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      // The owner is down or restarting (split mode): the caller may retry, as with the gateway's own calls.
      if (isUnreachable(err)) throw errors.subgraphUnavailable(subgraph);
      throw err;
    }
    if ([502, 503, 504].includes(res.status)) throw errors.subgraphUnavailable(subgraph);
    if (!res.ok && !res.headers.get('content-type')?.includes('json')) throw new Error(`subgraph ${subgraph} answered ${res.status}`);
    return (await res.json()) as PeerResult;
  },
};

/**
 * The peers of one process: the other subgraphs' schemas run here, each with its own fresh context. The few
 * documents asked are parsed and validated once, on first use.
 */
/** What local peers need of a subgraph running in this process. */
export interface LocalSubgraph {
  schema: GraphQLSchema;
  /** The subgraph's request context (opaque here: it is handed to the subgraph's own resolvers). */
  createContext(viewer: Viewer | undefined, meta: { requestId: string; ip?: string; userAgent?: string }): unknown;
}

export function localPeers(runtimes: ReadonlyMap<string, LocalSubgraph>): Peers {
  const documents = new Map<string, DocumentNode>();
  return {
    async query(subgraph, source, variables, caller) {
      const runtime = runtimes.get(subgraph);
      if (!runtime) throw new Error(`subgraph ${subgraph} does not run in this process`);
      const key = `${subgraph}\n${source}`;
      let document = documents.get(key);
      if (!document) {
        document = parse(source);
        const invalid = validate(runtime.schema, document);
        if (invalid.length) throw new Error(`invalid query for subgraph ${subgraph}: ${invalid.map((e) => e.message).join('; ')}`);
        documents.set(key, document);
      }
      const result = await execute({
        schema: runtime.schema,
        document,
        variableValues: variables,
        contextValue: runtime.createContext(caller.viewer, {
          requestId: caller.requestId ?? 'internal',
          ip: caller.ip,
          userAgent: caller.userAgent,
        }),
      });
      return { data: result.data as PeerResult['data'], errors: result.errors?.map((e) => e.toJSON()) };
    },
  };
}
