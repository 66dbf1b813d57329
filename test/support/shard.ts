import { basename } from 'node:path';
import { clock } from '../../shared/clock';
import { closeSharedApp, shareApp } from './app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { suitesOfShard } = require('../setup/shards.js') as { suitesOfShard(file: string): string[] };

/**
 * Runs the suites of a shard (test/setup/shards.js) in this one test file: jest loads the module graph once for them
 * all, and startApp() hands each the same platform, instead of a boot of several seconds per suite. Each suite keeps
 * its describe block, its hooks and its own module.
 */
export function runShard(shardFile: string): void {
  shareApp();
  afterAll(() => closeSharedApp());
  for (const suite of suitesOfShard(shardFile)) {
    describe(basename(suite), () => {
      // As when it runs alone, the next suite starts with the clock at the real time.
      afterAll(() => clock.reset());
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(suite);
    });
  }
}
