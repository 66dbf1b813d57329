/**
 * `npm run bench:cluster`: the bench's REST read (`GET /api/patients/:id`, authenticated, through the REST adapter,
 * the gateway and the clinical subgraph) measured on the cluster profile (through HAProxy) against one process
 * (`dist/bin/start.js` on the default PostgreSQL and Redis), on this machine, in interleaved rounds.
 *
 * Restarts the cluster profile with the general rate limit raised (as the bench does), measures, and stops it
 * (CLUSTER_REUSE=1: measures the running one and leaves it).
 * BENCH_DURATION (seconds per round, default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 16).
 * Prints requests/s and p50/p99 per target (the median over the rounds) and writes bench/results/cluster.json.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { REPO_ROOT } from '../../shared/paths';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LB = `http://127.0.0.1:${Number(process.env.CLUSTER_PORT ?? 4100)}`;
const SINGLE_PORT = 4620;
const SCRIPT = join(REPO_ROOT, 'scripts', 'cluster', 'cluster.sh');
const RATE = { RATE_LIMIT_POINTS: '1000000000' };

async function waitFor(url: string) {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} never answered`);
}

async function json(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/** A doctor, an organization and a patient; returns the read's path and headers. */
async function seed(base: string): Promise<{ path: string; headers: Record<string, string> }> {
  const email = `bench.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@example.test`;
  const signed = await json(`${base}/api/auth/register`, {
    email,
    password: 'Bench-passw0rd',
    first_name: 'Bench',
    last_name: 'Doctor',
    registration_role: 'DOCTOR',
  });
  const headers = { authorization: `Bearer ${signed.data.token}` };
  const org = await json(`${base}/api/organizations`, { name: 'Bench Clinic' }, headers);
  const patient = await json(
    `${base}/api/organizations/${org.data.id}/patients`,
    { first_name: 'Amina', last_name: 'Odhiambo', date_of_birth: '1988-06-15', gender: 'female' },
    headers,
  );
  // The writer's reads go to the primary for READ_YOUR_WRITES_SECONDS; the bench measures the steady state after.
  await new Promise((r) => setTimeout(r, 11_000));
  return { path: `/api/patients/${patient.data.id}`, headers };
}

async function measure(base: string, read: { path: string; headers: Record<string, string> }) {
  const r = await autocannon({ url: base + read.path, headers: read.headers, connections: CONNECTIONS, duration: DURATION });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const cluster = (cmd: string, env: Record<string, string> = {}) => {
    const r = spawnSync(SCRIPT, [cmd], { stdio: 'inherit', env: { ...process.env, ...env } });
    if (r.status !== 0) throw new Error(`cluster.sh ${cmd} failed`);
  };
  const baseDb = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/clinical_care');
  const admin = new URL(baseDb.toString());
  admin.pathname = '/postgres';
  const pg = new Client({ connectionString: admin.toString() });
  await pg.connect();
  await pg.query('drop database if exists ccp_bench_single with (force)');
  await pg.end();
  const singleDb = new URL(baseDb.toString());
  singleDb.pathname = '/ccp_bench_single';

  let single: ChildProcess | undefined;
  // CLUSTER_REUSE=1: measure a profile already running (started with RATE_LIMIT_POINTS raised) and leave it running.
  const reuse = process.env.CLUSTER_REUSE === '1';
  if (!reuse) {
    cluster('stop');
    cluster('start', { ...RATE, LOG_LEVEL: 'warn' });
  }
  try {
    single = fork(join(REPO_ROOT, 'dist', 'bin', 'start.js'), [], {
      env: {
        ...process.env,
        ...RATE,
        DATABASE_URL: singleDb.toString(),
        REDIS_PREFIX: 'ccp_bench_single',
        LOG_LEVEL: 'warn',
        PORT: String(SINGLE_PORT),
      },
      stdio: 'inherit',
    });
    const singleBase = `http://127.0.0.1:${SINGLE_PORT}`;
    await waitFor(`${singleBase}/ready`);
    const reads = { cluster: await seed(LB), single: await seed(singleBase) };
    const bases = { cluster: LB, single: singleBase };
    const rounds: Record<'cluster' | 'single', Awaited<ReturnType<typeof measure>>[]> = { cluster: [], single: [] };
    for (const target of ['cluster', 'single'] as const) await measure(bases[target], reads[target]); // warm-up
    for (let i = 0; i < ROUNDS; i++) {
      for (const target of ['single', 'cluster'] as const) rounds[target].push(await measure(bases[target], reads[target]));
    }
    const summary = Object.fromEntries(
      (['single', 'cluster'] as const).map((t) => [
        t,
        {
          requests_per_second: median(rounds[t].map((r) => r.rps)),
          p50_ms: median(rounds[t].map((r) => r.p50)),
          p99_ms: median(rounds[t].map((r) => r.p99)),
          non_2xx: rounds[t].reduce((a, r) => a + r.non2xx, 0),
          errors: rounds[t].reduce((a, r) => a + r.errors, 0),
        },
      ]),
    );
    console.log(`\nrest_read (GET /api/patients/:id), ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds, ${cpus().length} CPUs`);
    console.table(summary);
    mkdirSync(join(REPO_ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(
      join(REPO_ROOT, 'bench', 'results', 'cluster.json'),
      JSON.stringify(
        { at: new Date().toISOString(), cpus: cpus().length, connections: CONNECTIONS, duration: DURATION, summary, rounds },
        null,
        2,
      ),
    );
  } finally {
    single?.kill('SIGTERM');
    if (!reuse) cluster('stop');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
