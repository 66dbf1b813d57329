import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../shared/paths';
import { freePort } from './redis-server';

/**
 * Starts split mode as an operator does (`npm run start:split`: dist/bin/split.js), each subgraph on a free port of
 * its own, the gateway on another. Ready when its `/ready` answers 200; the caller stops it with SIGTERM.
 */
export async function spawnSplit(
  env: NodeJS.ProcessEnv = {},
  stdio: StdioOptions = ['ignore', 'ignore', 'inherit'],
): Promise<{ child: ChildProcess; port: number }> {
  const [port, org, clinical, revenue] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'bin', 'split.js')], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      ORG_SUBGRAPH_URL: `http://127.0.0.1:${org}/graphql`,
      CLINICAL_SUBGRAPH_URL: `http://127.0.0.1:${clinical}/graphql`,
      REVENUE_SUBGRAPH_URL: `http://127.0.0.1:${revenue}/graphql`,
      ...env,
    },
    stdio,
  });
  return { child, port };
}
