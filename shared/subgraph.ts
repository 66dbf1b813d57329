import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { validate as classValidate } from 'class-validator';
import DataLoader from 'dataloader';
import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { getNamedType, isObjectType, type GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchema, createResolversMap, type NonEmptyArray, type ResolverData } from 'type-graphql';
import type { ReferenceResolver, RequestMeta, SubgraphContext } from './context';
import { ensureDatabase, migrate, openOrm, replicaUrls, type EntityManager, type MikroORM, type OrmDefinition } from './db';
import { errors, issuesFromClassValidator } from './errors';
import type { ConsumerDefinition, TopicDefinition } from './events';
import type { LoadedModule, ModuleManifest, ScheduledJob } from './module';
import { remotePeers, type Peers } from './peers';
import { REQUIRES_PERMISSION_SDL } from './requires-permission';
import { PUBLIC_ROOT_FIELDS } from './public';
import type { Plumbing } from './plumbing';
import type { Viewer } from './viewer';

export type { RequestMeta, SubgraphContext };

/** A subgraph as its `index.ts` declares it: a name and the modules found in its folder. */
export interface SubgraphDefinition extends OrmDefinition {
  description: string;
  modules: readonly LoadedModule[];
  resolvers: NonEmptyArray<Function>;
  orphanedTypes: Function[];
  references: Record<string, ReferenceResolver>;
  consumers: ConsumerDefinition[];
  jobs: ScheduledJob[];
  topics: TopicDefinition[];
  /** Subgraph-wide hooks, run after the modules' own. */
  onStart?: ModuleManifest['onStart'];
  onStop?: ModuleManifest['onStop'];
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

/**
 * Gathers a subgraph from its modules. `entities` and `migrations` are the subgraph's own, beside its modules':
 * the platform tables every schema has (outbox, processed events, counters) and the migrations written before
 * modules carried their own.
 */
export function defineSubgraph(spec: {
  name: string;
  description: string;
  modules: LoadedModule[];
  entities: Constructor<object>[];
  migrations: Constructor<Migration>[];
  /** Subgraph-wide hooks, after the modules' own. */
  onStart?: ModuleManifest['onStart'];
  onStop?: ModuleManifest['onStop'];
}): SubgraphDefinition {
  const { modules } = spec;
  const references: Record<string, ReferenceResolver> = {};
  for (const m of modules) {
    for (const [type, resolve] of Object.entries(m.references ?? {})) {
      if (references[type]) throw new Error(`${spec.name}: two modules resolve references of ${type}`);
      references[type] = resolve;
    }
  }
  const resolvers = modules.flatMap((m) => m.resolvers ?? []);
  if (!resolvers.length) throw new Error(`${spec.name}: no module has resolvers`);
  const migrations = [...spec.migrations, ...modules.flatMap((m) => m.migrations)].sort((a, b) => a.name.localeCompare(b.name));
  return {
    name: spec.name,
    description: spec.description,
    modules,
    entities: [...new Set([...modules.flatMap((m) => m.entities ?? []), ...spec.entities])],
    migrations,
    resolvers: resolvers as NonEmptyArray<Function>,
    orphanedTypes: modules.flatMap((m) => m.orphanedTypes ?? []),
    references,
    consumers: modules.flatMap((m) => m.consumers ?? []),
    jobs: modules.flatMap((m) => m.jobs ?? []),
    topics: modules.flatMap((m) => m.topics ?? []),
    onStart: spec.onStart,
    onStop: spec.onStop,
  };
}

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", ' +
  'import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@composeDirective"])';

/**
 * Input and argument objects are checked with their class-validator decorators; failures name every field. An
 * anonymous caller of a root field that is not public is turned away (401) before its input is looked at.
 */
async function validateInput(value: unknown, _type: unknown, data: ResolverData<object>): Promise<void> {
  const { info, context } = data;
  const root = info.parentType.name === 'Query' || info.parentType.name === 'Mutation';
  if (root && !(context as Partial<SubgraphContext> | undefined)?.viewer && !PUBLIC_ROOT_FIELDS.has(info.fieldName))
    throw errors.unauthorized();
  if (value === null || typeof value !== 'object') return;
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const found = await classValidate(item, { skipMissingProperties: true, forbidUnknownValues: false });
    if (found.length) throw errors.validation(issuesFromClassValidator(found));
  }
}

/** A page type (`PageOf(X)`) that its module left undescribed says what it holds. */
function describePages(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.description || !type.name.endsWith('Page')) continue;
    const fields = type.getFields();
    if (!fields.items || !fields.total || !fields.page || !fields.limit) continue;
    type.description = `A page of ${getNamedType(fields.items.type).name} records: \`items\`, the \`total\` across all pages, this \`page\` and its \`limit\``;
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
  describePages(schema);
  const resolvers = createResolversMap(schema) as Record<string, Record<string, unknown>>;
  for (const [typeName, resolve] of Object.entries(def.references)) {
    resolvers[typeName] = { ...resolvers[typeName], __resolveReference: resolve };
  }
  return buildSubgraphSchema({
    typeDefs: gql`
      ${FEDERATION_LINK}
      ${REQUIRES_PERMISSION_SDL}
      ${printSchemaWithDirectives(schema)}
    `,
    resolvers: resolvers as never,
  });
}

function contextFactory(orm: MikroORM, readOrm: MikroORM | undefined, peers: () => Peers, plumbing: Plumbing) {
  return (viewer: Viewer | undefined, meta: RequestMeta): SubgraphContext => {
    const loaders = new Map<string, DataLoader<unknown, unknown>>();
    return {
      viewer,
      em: (meta.reads === 'replica' && readOrm ? readOrm : orm).em.fork() as EntityManager,
      requestId: meta.requestId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      peers: peers(),
      plumbing,
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

/**
 * Opens the subgraph's database (creating it and applying migrations) and builds its schema. `plumbing` is what
 * the platform hands the subgraph's modules (shared/plumbing.ts).
 */
export async function startSubgraph(
  def: SubgraphDefinition,
  opts: { migrate?: boolean; plumbing?: Plumbing } = {},
): Promise<SubgraphRuntime> {
  await ensureDatabase();
  const orm = await openOrm(def);
  let readOrm: MikroORM | undefined;
  try {
    if (opts.migrate !== false) await migrate(orm, def.name);
    // With read replicas configured, a second ORM whose plain reads go to them; requests use it only where
    // read-your-writes allows (shared/read-your-writes.ts).
    if (replicaUrls().length) readOrm = await openOrm(def, undefined, 'replica');
    const schema = await buildSubgraph(def);
    const runtime: SubgraphRuntime = {
      name: def.name,
      schema,
      orm,
      peers: remotePeers,
      createContext: contextFactory(orm, readOrm, () => runtime.peers, opts.plumbing ?? {}),
      close: async () => {
        for (const hooks of [...def.modules, def]) await hooks.onStop?.(runtime);
        await readOrm?.close();
        await orm.close();
      },
    };
    for (const hooks of [...def.modules, def]) await hooks.onStart?.(runtime);
    return runtime;
  } catch (err) {
    await readOrm?.close();
    await orm.close();
    throw err;
  }
}
