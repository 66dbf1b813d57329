/**
 * Two kinds of tests: unit tests beside the code they test (`<folder>/**\/*.test.ts`, pure code, no services) and
 * black-box suites under `test/` that drive a running app against real PostgreSQL and Redis (test/setup).
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/shared', '<rootDir>/gateway', '<rootDir>/subgraphs', '<rootDir>/rest-adapter', '<rootDir>/workers', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swc] },
  // TypeScript wants `.js` on relative dynamic imports; here they resolve to the `.ts` sources.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // ESM-only packages: jest loads them through the transform above (its own require(esm) needs VM modules).
  transformIgnorePatterns: ['/node_modules/(?!(paseto|jose|dinero\\.js|oidc-provider)/)'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/isolate-orm-metadata.ts', '<rootDir>/test/setup/worker-isolation.ts'],
  // Suites under test/ run in shards (test/shards) when picked with them: test/setup/shards.js.
  testSequencer: '<rootDir>/test/setup/sequencer.js',
  testTimeout: 120000,
  maxWorkers: 2,
};
