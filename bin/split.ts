/**
 * `npm run start:split`: the same platform as separate processes — one per subgraph, the gateway (with the REST
 * adapter) and the workers — the gateway calling the subgraphs over HTTP, under this small supervisor.
 *
 * Start: subgraphs first (they apply their migrations); the workers and the gateway once every subgraph answers
 * /health. A process that dies during this start stops everything (a configuration or database problem shows at
 * once). After it, a process that dies is started again on its own, with a growing delay while it keeps dying
 * quickly (shared/restart-policy.ts); after repeated quick crashes the supervisor gives up and stops everything.
 * SIGINT/SIGTERM stop every process gracefully.
 *
 * The supervisor stays small: it loads only the configuration and the restart policy, never the platform's
 * modules (GraphQL, the ORM, the subgraphs). A rule in .dependency-cruiser.cjs keeps it so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { config, loadConfig, SUBGRAPH_NAMES, subgraphUrl } from '../shared/config';
import { DEFAULT_RESTART_POLICY, initialRestartState, onExit, type RestartPolicy, type RestartState } from '../shared/restart-policy';

interface Supervised {
  label: string;
  script: string;
  args: string[];
  child?: ChildProcess;
  startedAt: number;
  restart: RestartState;
  timer?: NodeJS.Timeout;
}

/** How long a stopping process may take before it is killed. */
const STOP_GRACE_MS = 15_000;

const processes: Supervised[] = [];
let policy: RestartPolicy = DEFAULT_RESTART_POLICY;
let started = false;
let stopping = false;

function say(message: string): void {
  console.error(`split: ${message}`);
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

function spawnProcess(p: Supervised): void {
  p.startedAt = Date.now();
  const child = spawn(process.execPath, [join(__dirname, p.script), ...p.args], {
    env: { ...process.env, SERVICE_NAME: p.label },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  p.child = child;
  const ended = (code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping) return;
    const ranForMs = Date.now() - p.startedAt;
    if (!started) {
      say(`${p.label} exited during start-up (${describeExit(code, signal)}); stopping the others`);
      return void stopAll(1);
    }
    const decision = onExit(p.restart, ranForMs, policy);
    p.restart = decision.state;
    if (decision.action === 'give-up') {
      say(
        `${p.label} exited (${describeExit(code, signal)}) after ${ranForMs} ms: ${decision.state.quickCrashes} quick crashes ` +
          `in a row, ${p.restart.restarts} restarts in all; giving up and stopping every process`,
      );
      return void stopAll(1);
    }
    say(
      `${p.label} exited (${describeExit(code, signal)}) after ${ranForMs} ms; restart ${decision.state.restarts} in ` +
        `${decision.delayMs} ms`,
    );
    p.timer = setTimeout(() => {
      p.timer = undefined;
      if (!stopping) spawnProcess(p);
    }, decision.delayMs);
  };
  child.once('exit', ended);
  // A process that could not be spawned at all (no memory, no such file) has no exit to wait for.
  child.once('error', (err) => {
    say(`${p.label} could not be started: ${err.message}`);
    if (child.pid === undefined) ended(null, null);
  });
}

function launch(label: string, script: string, args: string[] = []): Supervised {
  const p: Supervised = { label, script, args, startedAt: Date.now(), restart: initialRestartState() };
  processes.push(p);
  spawnProcess(p);
  return p;
}

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all(
      processes.map((p) => {
        if (p.timer) clearTimeout(p.timer);
        const c = p.child;
        if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
        return new Promise<void>((resolve) => {
          const force = setTimeout(() => c.kill('SIGKILL'), STOP_GRACE_MS);
          c.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          c.kill('SIGTERM');
        });
      }),
    );
  }
  process.exit(code);
}

/** Whether `url` answers 200, with node:http (fetch would load its own HTTP client into the supervisor). */
function answersOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

async function waitHealthy(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!stopping && !(await answersOk(url))) {
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  const cfg = loadConfig();
  const initialDelayMs = cfg.SPLIT_RESTART_DELAY_MS;
  policy = { ...DEFAULT_RESTART_POLICY, initialDelayMs, maxDelayMs: Math.max(DEFAULT_RESTART_POLICY.maxDelayMs, initialDelayMs) };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  for (const name of SUBGRAPH_NAMES) launch(`subgraph-${name}`, 'subgraph.js', [name]);
  await Promise.all(SUBGRAPH_NAMES.map((name) => waitHealthy(new URL('/health', subgraphUrl(name)).toString())));
  launch('workers', 'workers.js');
  launch('gateway', 'gateway.js');
  const host = ['0.0.0.0', '::', ''].includes(cfg.HOST) ? '127.0.0.1' : cfg.HOST;
  await waitHealthy(`http://${host.includes(':') ? `[${host}]` : host}:${config().PORT}/health`);
  started = true;
}

main().catch((err) => {
  say((err as Error).message);
  void stopAll(1);
});
