// Plain JavaScript: read by the test sequencer (which jest loads untransformed) and by the shard files.
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const TEST_DIR = join(__dirname, '..');
const SHARD_DIR = join(TEST_DIR, 'shards');

/**
 * Suites that always run on their own, with a platform of their own: they start it with a configuration of their
 * own (environment, their own Redis or database) or start a second one with options, while the shared Redis
 * connection, the rate limiters and the sandbox addresses are per process (startApp() refuses such a start within
 * a shard). A suite that mocks modules (jest.mock) belongs here too: a shard's suites share their modules.
 * processes.test mostly waits for the processes it spawns.
 */
const STANDALONE = [
  'graphql',
  'processes',
  'rate-limit',
  'redis-outage',
  'split-outage',
  'social-login',
  // Their own configuration: object storage directory and upload limits, sandbox payment delays, reporting mappings.
  'claims',
  'clinical-notes',
  'clinical-sessions',
  'graphql-explorer',
  // Its own CORS_ORIGINS (the origins of the pages it serves).
  'cors',
  'hl7-senders',
  'graphql-clients',
  'queue-dashboard',
  'insurance',
  'interop',
  'payments',
  'public-health',
  'surveillance',
  // PORT of its own, PUBLIC_URL unset.
  'public-address',
  'mailed-links',
].map((name) => join(TEST_DIR, `${name}.test.ts`));

/** The shard files: `test/shards/<n>.test.ts`. */
function shardFiles() {
  return readdirSync(SHARD_DIR)
    .filter((f) => /^\d+\.test\.ts$/.test(f))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
    .map((f) => join(SHARD_DIR, f));
}

/**
 * The suites of each shard: every suite under test/ but the standalone ones, dealt out by size (the largest to the
 * lightest shard first), so the shards take about as long. Deterministic: the sequencer and the shards agree.
 */
function shards() {
  const files = shardFiles();
  const suites = readdirSync(TEST_DIR)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(TEST_DIR, f))
    .filter((path) => !STANDALONE.includes(path))
    .map((path) => ({ path, size: statSync(path).size }))
    .sort((a, b) => b.size - a.size || a.path.localeCompare(b.path));
  const out = files.map((file) => ({ file, size: 0, suites: [] }));
  for (const suite of suites) {
    const lightest = out.reduce((a, b) => (b.size < a.size ? b : a));
    lightest.suites.push(suite.path);
    lightest.size += suite.size;
  }
  for (const shard of out) shard.suites.sort();
  return out;
}

/** The suites a shard file runs. */
function suitesOfShard(file) {
  return shards().find((s) => s.file === file)?.suites ?? [];
}

/** The shard file that runs a suite, if one does. */
function shardOf(suite) {
  return shards().find((s) => s.suites.includes(suite))?.file;
}

module.exports = { STANDALONE, shardOf, suitesOfShard };
