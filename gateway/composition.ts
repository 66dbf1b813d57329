import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { Kind, lexicographicSortSchema, parse, print, printSchema, visit, type GraphQLSchema } from 'graphql';
import { SCHEMA_DIR } from '../shared/paths';
import { buildSubgraph, type SubgraphDefinition } from '../shared/subgraph';

export interface ComposedGraph {
  subgraphs: { name: string; sdl: string }[];
  supergraphSdl: string;
  /**
   * The public schema clients see (the supergraph's API schema): no federation machinery (`join__*`, `link__*`,
   * `_Service`, `_entities`) and no `@inaccessible` field. Published as schema/public.graphql and served at
   * `GET /graphql/schema.graphql`.
   */
  publicSdl: string;
}

/** Builds each subgraph's schema from code and composes the supergraph. Needs no database. */
export async function composeGraph(defs: SubgraphDefinition[]): Promise<ComposedGraph> {
  const subgraphs = [];
  for (const def of defs) {
    subgraphs.push({ name: def.name, sdl: printSubgraphSchema(await buildSubgraph(def)) });
  }
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: defaultUrl(s.name), typeDefs: parse(s.sdl) })));
  if (result.errors) {
    throw new Error('Supergraph composition failed:\n' + result.errors.map((e) => `- ${e.message}`).join('\n'));
  }
  return { subgraphs, supergraphSdl: result.supergraphSdl, publicSdl: printPublicSchema(result.schema.toAPISchema().toGraphQLJSSchema()) };
}

/** The public schema as published: types, fields and arguments in name order, so a change is a small diff. */
export function printPublicSchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema));
}

/** The checked-in supergraph names the default split-mode URLs, so it does not change with the environment. */
function defaultUrl(name: string): string {
  return `http://127.0.0.1:${{ org: 4002, clinical: 4001, revenue: 4003 }[name]}/graphql`;
}

export function readSupergraph(): string {
  return readFileSync(join(SCHEMA_DIR, 'supergraph.graphql'), 'utf8');
}

/**
 * The supergraph the platform's own adapters run on (REST routes, file uploads, the FHIR API): the public one with
 * its `@inaccessible` fields reachable again. Clients never see it: `/graphql` serves the public API schema, and an
 * internal field there is an unknown field.
 */
export function internalSupergraph(supergraphSdl: string): string {
  const document = visit(parse(supergraphSdl), {
    [Kind.DIRECTIVE]: (node) => (node.name.value === 'inaccessible' ? null : undefined),
  });
  return print(document);
}
