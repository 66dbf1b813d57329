/**
 * `npm run bench`: throughput and latency of the platform against a floor, measured in one run on this machine.
 *
 * Starts the platform (`dist/bin/start.js`, one process) and the floor (`scripts/bench-floor.ts`) as child
 * processes on a scratch database, seeds one patient, then drives each scenario with autocannon:
 *   health        GET /health
 *   rest_read     GET /api/patients/:id              (authenticated, through the REST adapter and the gateway)
 *   graphql_read  POST /graphql { patient(id) {...} } (the same read)
 *   rest_create   POST /api/patients
 *   availability  GET /api/appointments/availability (public; a day of 48 slots with bookings on it)
 *   book          POST /api/appointments (public; each request a fresh slot on one of 8 resources)
 *   rest_read_unaudited  the REST read on a second platform with READ_AUDIT=false: what the read audit costs
 *   floor_read    Express + pg, the same primary-key read
 * Scenarios run in BENCH_ROUNDS rounds (default 3), interleaved so that a noisy neighbour on the machine hits all
 * of them alike; each figure is the median over the rounds. Prints requests/s, p50 and p99 latency and each
 * one's throughput relative to the floor, and writes them with every round's raw figures to
 * bench/results/latest.json. BENCH_DURATION (seconds per scenario and round, default 5) and BENCH_CONNECTIONS
 * (default 16) tune it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { REPO_ROOT } from '../shared/paths';
import { Redis, deletePrefix } from '../shared/redis';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const BASE_DB = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/clinical_care');

interface Result {
  scenario: string;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non_2xx: number;
  ratio_to_floor?: number;
}

function start(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(REPO_ROOT, 'dist', script), [], { env: { ...process.env, ...env }, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.once('message', () => resolve(child));
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

async function json(url: string, init: RequestInit & { body?: string }) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function measure(scenario: string, opts: autocannon.Options): Promise<Result> {
  const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: DURATION });
  return {
    scenario,
    requests_per_second: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non_2xx: r.non2xx,
  };
}

async function main() {
  const db = new URL(BASE_DB.toString());
  db.pathname = '/ccp_bench';
  const admin = new URL(BASE_DB.toString());
  admin.pathname = '/postgres';
  const pg = new Client({ connectionString: admin.toString() });
  await pg.connect();
  await pg.query('drop database if exists ccp_bench with (force)');
  await pg.end();
  // Jobs an earlier run left behind would name users of the dropped database.
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  await deletePrefix(redis, 'ccp_bench');
  await redis.quit();

  // The general rate limit stays on (its Redis round trip is part of every request) but high enough not to trip.
  const env = { DATABASE_URL: db.toString(), REDIS_PREFIX: 'ccp_bench', LOG_LEVEL: 'warn', HOST: '127.0.0.1', RATE_LIMIT_POINTS: '1000000000' };
  const children: ChildProcess[] = [];
  const stop = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  process.on('exit', stop);
  try {
    const platform = fork(join(REPO_ROOT, 'dist', 'bin', 'start.js'), [], { env: { ...process.env, ...env, PORT: '4610' }, stdio: 'inherit' });
    children.push(platform);
    const base = 'http://127.0.0.1:4610';
    await waitFor(`${base}/ready`);
    children.push(await start('scripts/bench-floor.js', { ...env, PORT: '4611' }));
    const floorBase = 'http://127.0.0.1:4611';
    const unaudited = fork(join(REPO_ROOT, 'dist', 'bin', 'start.js'), [], {
      env: { ...process.env, ...env, PORT: '4612', READ_AUDIT: 'false', RUN_WORKERS: 'false' },
      stdio: 'inherit',
    });
    children.push(unaudited);
    const unauditedBase = 'http://127.0.0.1:4612';
    await waitFor(`${unauditedBase}/ready`);

    const email = `bench.${Date.now()}@example.test`;
    const signed = await json(`${base}/api/auth/register`, {
      method: 'POST',
      body: JSON.stringify({ email, password: 'Bench-passw0rd', first_name: 'Bench', last_name: 'Doctor', registration_role: 'DOCTOR' }),
    });
    const auth = { authorization: `Bearer ${signed.data.token}`, 'content-type': 'application/json' };
    const org = await json(`${base}/api/organizations`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench Clinic' }) });
    const patientBody = JSON.stringify({
      first_name: 'Amina',
      last_name: 'Odhiambo',
      date_of_birth: '1988-06-15',
      gender: 'female',
      phone: '+254712345678',
      email: 'amina@example.test',
    });
    const patient = await json(`${base}/api/organizations/${org.data.id}/patients`, { method: 'POST', headers: auth, body: patientBody });
    const id = patient.data.id as string;
    const graphqlBody = JSON.stringify({
      query: `query($id: ID!) { patient(id: $id) { id firstName lastName dateOfBirth gender phone email mrn organizationId
        userId createdBy createdAt updatedAt } }`,
      variables: { id },
    });

    // Scheduling: resources without schedules are open all day, so every booking below is valid. Bookings go round
    // robin over RESOURCES resources, each request a fresh 15-minute slot starting tomorrow, so none conflicts.
    const RESOURCES = 8;
    const resources: string[] = [];
    for (let i = 0; i < RESOURCES; i++) {
      const r = await json(`${base}/api/resources`, { method: 'POST', headers: auth, body: JSON.stringify({ type: 'room', name: `Bench room ${i}` }) });
      resources.push(r.data.id);
    }
    const firstSlot = Math.ceil(Date.now() / 86_400_000 + 1) * 86_400_000;
    let booking = 0;
    const bookingRequest = (req: { body?: string }) => {
      const n = booking++;
      const start = firstSlot + Math.floor(n / RESOURCES) * 15 * 60_000;
      req.body = JSON.stringify({
        resource_id: resources[n % RESOURCES],
        patient_name: 'Bench Patient',
        patient_email: 'bench.patient@example.test',
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + 15 * 60_000).toISOString(),
      });
      return req;
    };
    const tomorrow = new Date(firstSlot).toISOString().slice(0, 10);

    const scenarios: [string, autocannon.Options][] = [
      ['floor_read', { url: `${floorBase}/api/patients/${id}` }],
      ['health', { url: `${base}/health` }],
      ['rest_read', { url: `${base}/api/patients/${id}`, headers: auth }],
      ['rest_read_unaudited', { url: `${unauditedBase}/api/patients/${id}`, headers: auth }],
      ['graphql_read', { url: `${base}/graphql`, method: 'POST', headers: auth, body: graphqlBody }],
      ['rest_create', { url: `${base}/api/patients`, method: 'POST', headers: auth, body: patientBody }],
      ['availability', { url: `${base}/api/appointments/availability?resource_id=${resources[0]}&date=${tomorrow}` }],
      [
        'book',
        {
          url: `${base}/api/appointments`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: [{ method: 'POST', setupRequest: bookingRequest as never }],
        },
      ],
    ];
    for (const [, opts] of scenarios) await autocannon({ ...opts, connections: CONNECTIONS, duration: 2 }); // warm-up
    const rounds: Result[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const measured: Result[] = [];
      for (const [name, opts] of scenarios) measured.push(await measure(name, opts));
      rounds.push(measured);
      console.log(`round ${round}: ${measured.map((m) => `${m.scenario} ${m.requests_per_second}/s`).join(', ')}`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const results: Result[] = scenarios.map(([name], i) => ({
      scenario: name,
      requests_per_second: median(rounds.map((r) => r[i].requests_per_second)),
      p50_ms: median(rounds.map((r) => r[i].p50_ms)),
      p99_ms: median(rounds.map((r) => r[i].p99_ms)),
      errors: rounds.reduce((n, r) => n + r[i].errors, 0),
      non_2xx: rounds.reduce((n, r) => n + r[i].non_2xx, 0),
    }));
    const floor = results[0].requests_per_second;
    for (const r of results) r.ratio_to_floor = Math.round((r.requests_per_second / floor) * 1000) / 1000;

    console.log(`\n${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per scenario (medians), ${cpus().length} CPUs\n`);
    console.log('scenario        req/s    p50 ms   p99 ms   vs floor   errors');
    for (const r of results) {
      console.log(
        `${r.scenario.padEnd(14)} ${String(r.requests_per_second).padStart(6)} ${String(r.p50_ms).padStart(8)} ${String(r.p99_ms).padStart(8)}` +
          `   ${(r.ratio_to_floor! * 100).toFixed(1).padStart(6)}%   ${r.errors + r.non_2xx}`,
      );
    }
    const dir = join(REPO_ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const report = {
      measured_at: new Date().toISOString(),
      connections: CONNECTIONS,
      rounds: ROUNDS,
      duration_s: DURATION,
      cpus: cpus().length,
      node: process.version,
      results,
      raw_rounds: rounds,
    };
    writeFileSync(join(dir, 'latest.json'), JSON.stringify(report, null, 2) + '\n');
    const audited = results.find((r) => r.scenario === 'rest_read')!.requests_per_second;
    const bare = results.find((r) => r.scenario === 'rest_read_unaudited')!.requests_per_second;
    console.log(`\nread audit: ${audited} vs ${bare} req/s without it (${(((bare - audited) / bare) * 100).toFixed(1)}% of throughput)`);
    console.log(`written to ${join('bench', 'results', 'latest.json')}`);
  } finally {
    stop();
  }
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
