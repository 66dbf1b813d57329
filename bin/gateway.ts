/** The gateway and REST adapter calling remote subgraphs (split mode). */
import { startPlatform } from './platform';
import { run } from './run';

void run('gateway', () => startPlatform({ subgraphs: 'remote', workers: false }));
