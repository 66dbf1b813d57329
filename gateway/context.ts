import type { Viewer } from '../shared/viewer';

/** What the gateway knows about a request; subgraphs build their own context from it. */
export interface GatewayContext {
  viewer?: Viewer;
  requestId: string;
  ip?: string;
  userAgent?: string;
}
