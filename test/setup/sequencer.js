const Sequencer = require('@jest/test-sequencer').default;
const { shardOf } = require('./shards');

/**
 * When a suite and the shard that runs it are both picked (`npm test`, `npx jest test/`), only the shard runs it;
 * a suite picked alone (`npx jest test/auth.test.ts`) runs alone, with its own platform.
 */
module.exports = class ShardSequencer extends Sequencer {
  sort(tests) {
    const picked = new Set(tests.map((t) => t.path));
    return super.sort(tests.filter((t) => !picked.has(shardOf(t.path))));
  }
};
