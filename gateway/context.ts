import type { RequestContext } from '../shared/context';

/** What the gateway knows about a request; subgraphs build their own context from it. */
export type GatewayContext = RequestContext;
