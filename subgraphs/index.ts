import type { SubgraphDefinition } from '../shared/subgraph';
import { clinicalSubgraph } from './clinical';
import { orgSubgraph } from './org';
import { revenueSubgraph } from './revenue';

/** Every subgraph of the graph, in the order they start (org first: it owns identity). */
export const SUBGRAPHS: SubgraphDefinition[] = [orgSubgraph, clinicalSubgraph, revenueSubgraph];

export type SubgraphName = 'org' | 'clinical' | 'revenue';
