/** `npm start`: the whole platform in one process (subgraphs in-process, gateway, REST adapter, workers). */
import { startPlatform } from './platform';
import { run } from './run';

void run('platform', () => startPlatform());
