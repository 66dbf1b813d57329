import type DataLoader from 'dataloader';
import type { EntityManager } from './db';
import type { Peers } from './peers';
import type { Plumbing } from './plumbing';
import type { Viewer } from './viewer';

/** What every resolver and service receives. One per subgraph fetch: its own EntityManager, its own loaders. */
export interface SubgraphContext {
  viewer?: Viewer;
  em: EntityManager;
  requestId: string;
  ip?: string;
  userAgent?: string;
  loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error | null)[]>): DataLoader<K, V | null>;
  /** The other subgraphs, asked as this caller (shared/peers.ts). */
  peers: Peers;
  /** What the platform hands this subgraph at start (shared/plumbing.ts); absent parts were not handed. */
  plumbing: Plumbing;
}

/** What the edge knows about a request (the gateway's context); subgraphs build their own context from it. */
export interface RequestContext {
  viewer?: Viewer;
  requestId: string;
  ip?: string;
  userAgent?: string;
}

export interface RequestMeta {
  requestId: string;
  ip?: string;
  userAgent?: string;
  /** Where the request's reads go: a read replica only where shared/read-your-writes.ts allows it (default primary). */
  reads?: 'primary' | 'replica';
}

/** `__resolveReference` of an entity type a subgraph owns. */
export type ReferenceResolver = (reference: { id: string }, ctx: SubgraphContext) => unknown;
