/**
 * `npm run start:split`: the same platform as separate processes — one per subgraph, the gateway (with the REST
 * adapter) and the workers — the gateway calling the subgraphs over HTTP. Subgraphs start first (they apply
 * their migrations); the rest follow once every subgraph answers /health. If any process dies, all stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig, subgraphUrl } from '../shared/config';
import { SUBGRAPHS } from '../subgraphs';

const children: ChildProcess[] = [];
let stopping = false;

function launch(label: string, script: string, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [join(__dirname, script), ...args], {
    env: { ...process.env, SERVICE_NAME: label },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`split: ${label} exited (${signal ?? code}); stopping the others`);
    void stopAll(1);
  });
  children.push(child);
  return child;
}

async function stopAll(code: number): Promise<never> {
  stopping = true;
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
  process.exit(code);
}

async function waitHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  loadConfig();
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  for (const def of SUBGRAPHS) launch(`subgraph-${def.name}`, 'subgraph.js', [def.name]);
  await Promise.all(SUBGRAPHS.map((def) => waitHealthy(new URL('/health', subgraphUrl(def.name)).toString())));
  launch('workers', 'workers.js');
  launch('gateway', 'gateway.js');
}

main().catch((err) => {
  console.error(`split: ${(err as Error).message}`);
  void stopAll(1);
});
