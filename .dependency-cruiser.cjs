/**
 * The boundaries of DESIGN.md "Where modules live", checked in CI (`npm run lint:deps`):
 * - a subgraph never imports another subgraph;
 * - the gateway, the REST adapter, the workers and shared/ never import a subgraph (they are handed what they run
 *   by the composition roots in bin/, which reach the subgraphs only through `subgraphs/index.ts`);
 * - shared/ imports nothing of the platform's other folders; the adapter and the workers never import the gateway;
 * - split mode's supervisor loads none of the platform;
 * - no import cycles.
 * Tests may reach into anything to arrange and check state; they are not part of the graph checked here.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycles make load order matter and hide a missing boundary (a cycle only through type imports is erased at run time).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'subgraph-to-other-subgraph',
      severity: 'error',
      comment: 'A subgraph asks another through the graph (entity references, peers), never by importing it.',
      from: { path: '^subgraphs/([^/]+)/' },
      to: { path: '^subgraphs/', pathNot: ['^subgraphs/$1/'] },
    },
    {
      name: 'platform-to-subgraph',
      severity: 'error',
      comment: 'gateway, rest-adapter, workers and shared are handed what they run; they never import a subgraph.',
      from: { path: '^(gateway|rest-adapter|workers|shared)/' },
      to: { path: '^subgraphs/' },
    },
    {
      name: 'entrypoints-to-subgraph-internals',
      severity: 'error',
      comment: 'bin/ and scripts/ reach the subgraphs through subgraphs/index.ts only.',
      from: { path: '^(bin|scripts)/' },
      to: { path: '^subgraphs/', pathNot: ['^subgraphs/index\\.ts$'] },
    },
    {
      name: 'shared-stays-shared',
      severity: 'error',
      comment: 'shared/ is the bottom layer: it imports nothing of gateway, rest-adapter, workers, bin or scripts.',
      from: { path: '^shared/' },
      to: { path: '^(gateway|rest-adapter|workers|bin|scripts)/' },
    },
    {
      name: 'adapter-and-workers-below-gateway',
      severity: 'error',
      comment: 'The gateway composes the adapter; the adapter and the workers do not import the gateway.',
      from: { path: '^(rest-adapter|workers)/' },
      to: { path: '^(gateway|bin)/' },
    },
    {
      name: 'supervisor-stays-small',
      severity: 'error',
      comment:
        "Split mode's supervisor (bin/split.ts) only starts and watches processes: it loads the configuration and the " +
        'restart policy, never the platform (GraphQL, the ORM, the queues, the subgraphs), which would cost it 150 MB.',
      from: { path: '^bin/split\\.ts$' },
      to: {
        reachable: true,
        path: [
          '^(bin|gateway|rest-adapter|workers|subgraphs|scripts)/',
          '^shared/(?!(config|restart-policy)\\.ts$)',
          'node_modules/(graphql|@apollo|@graphql-tools|@mikro-orm|type-graphql|pg|bullmq|ioredis|express|pino)/',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test)/|\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
