import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { validate as classValidate } from 'class-validator';
import DataLoader from 'dataloader';
import type { GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { ensureDatabase, migrate, openOrm, type EntityManager, type MikroORM, type OrmDefinition } from './db';
import { errors, issuesFromClassValidator } from './errors';
import type { ConsumerDefinition } from './events';
import { remotePeers, type Peers } from './peers';
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
}

export interface RequestMeta {
  requestId: string;
  ip?: string;
  userAgent?: string;
}

type ReferenceResolver = (reference: { id: string }, ctx: SubgraphContext) => unknown;

export interface SubgraphDefinition extends OrmDefinition {
  resolvers: NonEmptyArray<Function>;
  /** Types not reachable from a resolver signature that must still be in the schema (entity stubs). */
  orphanedTypes?: Function[];
  /** `__resolveReference` per entity type this subgraph owns. */
  references?: Record<string, ReferenceResolver>;
  /** Runs after migrations at start (bootstrap data). */
  onStart?(runtime: SubgraphRuntime): Promise<void>;
  /** Bus consumers whose effects live in this subgraph's database. */
  consumers?: ConsumerDefinition[];
  /** Runs before the database closes (flush buffers). */
  onStop?(runtime: SubgraphRuntime): Promise<void>;
}

export interface SubgraphRuntime {
  name: string;
  schema: GraphQLSchema;
  orm: MikroORM;
  /** The other subgraphs: over HTTP unless the platform runs them in this process and says so. */
  peers: Peers;
  createContext(viewer: Viewer | undefined, meta: RequestMeta): SubgraphContext;
  close(): Promise<void>;
}

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", ' +
  'import: ["@key", "@shareable", "@external", "@requires", "@provides"])';

/** Input and argument objects are checked with their class-validator decorators; failures name every field. */
async function validateInput(value: unknown): Promise<void> {
  if (value === null || typeof value !== 'object') return;
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const found = await classValidate(item, { skipMissingProperties: true, forbidUnknownValues: false });
    if (found.length) throw errors.validation(issuesFromClassValidator(found));
  }
}

/** Builds the federated schema of a subgraph from its type-graphql resolvers. */
export async function buildSubgraph(def: SubgraphDefinition): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: def.resolvers,
    orphanedTypes: def.orphanedTypes,
    skipCheck: true,
    validateFn: validateInput,
  });
  const resolvers = createResolversMap(schema) as Record<string, Record<string, unknown>>;
  for (const [typeName, resolve] of Object.entries(def.references ?? {})) {
    resolvers[typeName] = { ...resolvers[typeName], __resolveReference: resolve };
  }
  return buildSubgraphSchema({
    typeDefs: gql`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`,
    resolvers: resolvers as never,
  });
}

function contextFactory(orm: MikroORM, peers: () => Peers) {
  return (viewer: Viewer | undefined, meta: RequestMeta): SubgraphContext => {
    const loaders = new Map<string, DataLoader<unknown, unknown>>();
    return {
      viewer,
      em: orm.em.fork() as EntityManager,
      requestId: meta.requestId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      peers: peers(),
      loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error | null)[]>) {
        let l = loaders.get(name) as DataLoader<K, V | null> | undefined;
        if (!l) {
          l = new DataLoader<K, V | null>(batch as never);
          loaders.set(name, l as DataLoader<unknown, unknown>);
        }
        return l;
      },
    };
  };
}

/** Opens the subgraph's database (creating it and applying migrations) and builds its schema. */
export async function startSubgraph(def: SubgraphDefinition, opts: { migrate?: boolean } = {}): Promise<SubgraphRuntime> {
  await ensureDatabase();
  const orm = await openOrm(def);
  try {
    if (opts.migrate !== false) await migrate(orm, def.name);
    const schema = await buildSubgraph(def);
    const runtime: SubgraphRuntime = {
      name: def.name,
      schema,
      orm,
      peers: remotePeers,
      createContext: contextFactory(orm, () => runtime.peers),
      close: async () => {
        await def.onStop?.(runtime);
        await orm.close();
      },
    };
    await def.onStart?.(runtime);
    return runtime;
  } catch (err) {
    await orm.close();
    throw err;
  }
}
