import type { EntityManager } from '../shared/db';
import type { SubgraphDefinition } from '../shared/subgraph';
import type { Authenticator } from '../shared/viewer';
import { clinicalSubgraph } from './clinical';
import { Identity, orgSubgraph } from './org';
import { revenueSubgraph } from './revenue';

/**
 * The public face of the subgraphs: the only file outside `subgraphs/` may import (a boundary checked in CI).
 * The composition roots in bin/ hand what is here to the gateway and the workers.
 */

/** Every subgraph of the graph, in the order they start (org first: it owns identity). */
export const SUBGRAPHS: SubgraphDefinition[] = [orgSubgraph, clinicalSubgraph, revenueSubgraph];

export type SubgraphName = 'org' | 'clinical' | 'revenue';

/** The subgraph whose database holds identity (users, sessions, API keys). */
export const IDENTITY_SUBGRAPH: SubgraphDefinition = orgSubgraph;

/** The viewer loader of the identity module, over the identity subgraph's database. */
export function viewerLoader(em: () => EntityManager): Authenticator {
  return new Identity(em);
}

/** The interoperability standards' own HTTP paths (SMART discovery and authorization server, the FHIR R4 API). */
export { interopStandardsRouter } from './clinical/interop/http';
