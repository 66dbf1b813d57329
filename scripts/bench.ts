/**
 * `npm run bench`: throughput, latency and server CPU of the platform against a floor, measured in one run here.
 *
 * Starts the platform (`dist/bin/start.js`, one process) and the floor (`scripts/bench-floor.ts`) as child
 * processes on a scratch database, seeds organizations straight into the tables (one INSERT ... SELECT over
 * generate_series each, not through the API), then drives each scenario with autocannon:
 *   floor_read        Express + pg, the same primary-key read (the floor every ratio is taken against)
 *   health            GET /health
 *   read              GET /api/patients/:id (authenticated, through the REST adapter and the gateway)
 *   unaudited_read    the same read on a second platform with READ_AUDIT=false: what the read audit costs
 *   graphql_read      POST /graphql { patient(id) {...} } (the same read)
 *   graph             POST /graphql: a patient with allergies, vitals, prescriptions (clinical), its organization
 *                     (org) and invoices (revenue): a query across modules and subgraphs
 *   search_name_2k, search_name_100k   GET /api/organizations/:id/patients/search?name=... in an organization of
 *                     2,000 and of BENCH_LARGE_PATIENTS (default 100,000) patients: the start of a seeded given name
 *                     and the start of its family name
 *   search_mrn_2k, search_mrn_100k     the same with `mrn=` the start of a seeded medical record number
 *   create            POST /api/organizations/:id/patients (an MRN allocated per organization)
 *   mix               70% read by id, 20% search (MRN or name), 10% create, in an organization of 2,000
 *   availability      GET /api/appointments/availability (public; a day of 48 slots with bookings on it)
 *   book              POST /api/appointments (public; each request a fresh slot on one of 8 resources)
 *   event_bus         BENCH_EVENTS (default 2,000) events committed in one transaction, timed until their consumer
 *                     has applied every one: events/s from commit to consumer, p50/p99 of each event's arrival
 *   mpi_match         POST /api/mpi/match (SUPER:ADMIN) against MPI_BENCH_PATIENTS seeded patients, indexed by the
 *                     master patient index's sweep; its p95 is also measured on its own
 *   roster            roster generation, timed from `POST /api/workforce/rosters/:id/generate` until the roster
 *                     reads `generated` (a ward of 30 members, 4 weeks, 3 shifts a day)
 * `npm run bench -- --scenario=read,search` runs only the scenarios named, or whose names start with a word and
 * an underscore (`search` is every search_*; the floor always runs: it is what ratios are taken against); without
 * it every scenario runs.
 *
 * Each scenario reports requests/s, p50 and p99 latency, errors, and `cpu_ms_per_request`: the CPU time the server
 * process itself used (user + system, from /proc) divided by the requests it answered, which a noisy machine moves
 * far less than requests/s. The event consumers and scheduled jobs run in a workers' process of their own (as in
 * split and cluster deployments): what they spend from a scenario's start until idle again (consuming the events it
 * emitted: a registered patient is matched by the master patient index) is `worker_cpu_ms_per_request`, and every
 * scenario starts with both processes idle. BENCH_PROFILE=<dir> writes the server's V8 CPU profile there. Scenarios run in BENCH_ROUNDS rounds (default 3), interleaved so that a noisy
 * neighbour hits all of them alike; each figure is the median over the rounds. Results go to
 * bench/results/latest.json with every round's raw figures. BENCH_DURATION (seconds per scenario and round,
 * default 5) and BENCH_CONNECTIONS (default 16) tune it.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { REPO_ROOT } from '../shared/paths';
import { Redis, deletePrefix } from '../shared/redis';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SMALL_PATIENTS = 2_000;
const LARGE_PATIENTS = Number(process.env.BENCH_LARGE_PATIENTS ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const BASE_DB = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/clinical_care');

const ALL = [
  'floor_read',
  'health',
  'read',
  'unaudited_read',
  'graphql_read',
  'graph',
  'search_name_2k',
  'search_name_100k',
  'search_mrn_2k',
  'search_mrn_100k',
  'create',
  'mix',
  'availability',
  'book',
  'event_bus',
  'mpi_match',
  'roster',
];

function selected(): Set<string> {
  const arg = process.argv.find((a) => a.startsWith('--scenario='));
  if (!arg) return new Set(ALL);
  const words = arg.slice('--scenario='.length).split(',').filter(Boolean);
  const matches = (s: string, w: string) => s === w || s.startsWith(`${w}_`);
  const chosen = ALL.filter((s) => words.some((w) => matches(s, w)));
  const unknown = words.filter((w) => !ALL.some((s) => matches(s, w)));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  return new Set(['floor_read', ...chosen]);
}

interface Result {
  scenario: string;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  p95_ms?: number;
  errors: number;
  non_2xx: number;
  cpu_ms_per_request: number;
  /** CPU the workers' process spent from the scenario's start until idle again: consuming the events it emitted. */
  worker_cpu_ms_per_request?: number;
  ratio_to_floor?: number;
}

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  } catch {
    return 10;
  }
})();

/** CPU milliseconds (user + system) a process has used so far, from /proc; NaN where there is no /proc. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

function start(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(REPO_ROOT, 'dist', script), [], { env: { ...process.env, ...env }, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.once('message', () => resolve(child));
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 1800; i++) {
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

interface Scenario {
  name: string;
  /** The process whose CPU is counted. */
  pid: number;
  opts: autocannon.Options;
}

/**
 * Waits until the processes are idle (each under 3% of a core over 250 ms, at most 60 s), so that work a scenario
 * leaves behind (the events its creates emit, consumed by the workers) is charged to it, not to the next one.
 */
async function settle(pids: number[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = pids.map(cpuMs);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = pids.map(cpuMs);
    if (now.every((ms, i) => Number.isNaN(ms) || ms - last[i] < 7.5)) return;
    last = now;
  }
  console.warn(`processes ${pids.join(', ')} still busy after 60 s`);
}

/** The workers' process (event consumers, scheduled jobs), set once it runs. */
let workersPid = 0;

async function measure(s: Scenario): Promise<Result> {
  const pids = [s.pid, ...(workersPid ? [workersPid] : [])];
  await settle(pids);
  const before = cpuMs(s.pid);
  const workersBefore = workersPid ? cpuMs(workersPid) : 0;
  const r = await autocannon({ ...s.opts, connections: CONNECTIONS, duration: DURATION });
  const used = cpuMs(s.pid) - before;
  await settle(pids);
  const workersUsed = workersPid ? cpuMs(workersPid) - workersBefore : 0;
  const perRequest = (ms: number) => Math.round((ms / Math.max(1, r.requests.total)) * 1000) / 1000;
  return {
    scenario: s.name,
    requests_per_second: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non_2xx: r.non2xx,
    cpu_ms_per_request: perRequest(used),
    worker_cpu_ms_per_request: perRequest(workersUsed),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Patients seeded straight into the table, as a migration from another system would leave them: names from every
 * pair of GIVEN and FAMILY, MRNs `MRN-000001` up. Answers the ids and a sample of search terms.
 */
async function seedOrganization(pg: Client, organizationId: string, createdBy: string, n: number) {
  await pg.query(
    `insert into clinical.patients (id, created_at, updated_at, first_name, last_name, date_of_birth, gender, phone, mrn, organization_id, created_by)
     select gen_random_uuid(), now(), now(), g.given[(1 + (i::bigint * 7919) % array_length(g.given, 1))::int],
            g.family[(1 + ((i / array_length(g.given, 1))::bigint * 104729) % array_length(g.family, 1))::int],
            date '1940-01-01' + ((i::bigint * 2654435761) % 29200)::int, case when i % 2 = 0 then 'female' else 'male' end,
            '+2547' || lpad(((i::bigint * 48271) % 100000000)::text, 8, '0'), 'MRN-' || lpad(i::text, 6, '0'), $1::uuid, $2::uuid
     from generate_series(1, $3::int) as i, (select $4::text[] as given, $5::text[] as family) g`,
    [organizationId, createdBy, n, GIVEN, FAMILY],
  );
  // The counter the API allocates from continues after the seeded numbers.
  await pg.query(
    `insert into clinical.counters (scope, owner, value) values ('mrn', $1, $2)
     on conflict (scope, owner) do update set value = excluded.value`,
    [organizationId, n],
  );
  await pg.query('analyze clinical.patients');
  const { rows } = await pg.query(
    `select id, first_name, last_name, mrn from clinical.patients where organization_id = $1 order by random() limit 200`,
    [organizationId],
  );
  return {
    ids: rows.map((r) => r.id as string),
    // The start of a given name and of a family name ("amin odhi"), and an MRN but its last digit: a few matches each.
    names: rows.map((r) => `${r.first_name.slice(0, 4)} ${r.last_name.slice(0, 4)}`.toLowerCase()),
    mrns: rows.map((r) => (r.mrn as string).slice(0, -1)),
  };
}

async function main() {
  const want = selected();
  const db = new URL(BASE_DB.toString());
  db.pathname = '/ccp_bench';
  const admin = new URL(BASE_DB.toString());
  admin.pathname = '/postgres';
  const pgAdmin = new Client({ connectionString: admin.toString() });
  await pgAdmin.connect();
  await pgAdmin.query('drop database if exists ccp_bench with (force)');
  await pgAdmin.end();
  // Jobs an earlier run left behind would name users of the dropped database.
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  await deletePrefix(redis, 'ccp_bench');
  await redis.quit();

  // The general rate limit stays on (its Redis round trip is part of every request) but high enough not to trip.
  const env = {
    DATABASE_URL: db.toString(),
    REDIS_PREFIX: 'ccp_bench',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    RATE_LIMIT_POINTS: '1000000000',
    // The master patient index's sweep indexes the MPI scenario's seeded patients quickly; otherwise it runs once
    // at start and rests, so that it does not index the search scenarios' seeded organizations while they run.
    MPI_INDEX_SWEEP_MS: want.has('mpi_match') ? '500' : String(86_400_000),
    BOOTSTRAP_ADMIN_EMAIL: 'bench.admin@example.test',
    BOOTSTRAP_ADMIN_PASSWORD: 'Bench-admin-passw0rd',
  };
  const children: ChildProcess[] = [];
  const stop = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  process.on('exit', stop);
  try {
    // BENCH_PROFILE=<dir>: the platform writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
    const platform = fork(join(REPO_ROOT, 'dist', 'bin', 'start.js'), [], {
      env: { ...process.env, ...env, PORT: '4610', RUN_WORKERS: 'false' },
      execArgv: [...process.execArgv, ...profile],
      stdio: 'inherit',
    });
    children.push(platform);
    const base = 'http://127.0.0.1:4610';
    await waitFor(`${base}/ready`);
    // The event consumers and scheduled jobs run in a process of their own, as in split and cluster deployments, so
    // that a scenario's request CPU and the CPU its events cost the workers are told apart.
    const workers = fork(join(REPO_ROOT, 'dist', 'bin', 'workers.js'), [], { env: { ...process.env, ...env }, stdio: 'inherit' });
    children.push(workers);
    workersPid = workers.pid!;
    const floor = await start('scripts/bench-floor.js', { ...env, PORT: '4611' });
    children.push(floor);
    const floorBase = 'http://127.0.0.1:4611';
    let unaudited: ChildProcess | undefined;
    const unauditedBase = 'http://127.0.0.1:4612';
    if (want.has('unaudited_read')) {
      unaudited = fork(join(REPO_ROOT, 'dist', 'bin', 'start.js'), [], {
        env: { ...process.env, ...env, PORT: '4612', READ_AUDIT: 'false', RUN_WORKERS: 'false' },
        stdio: 'inherit',
      });
      children.push(unaudited);
      await waitFor(`${unauditedBase}/ready`);
    }

    const email = `bench.${Date.now()}@example.test`;
    const signed = await json(`${base}/api/auth/register`, {
      method: 'POST',
      body: JSON.stringify({ email, password: 'Bench-passw0rd', first_name: 'Bench', last_name: 'Doctor', registration_role: 'DOCTOR' }),
    });
    const userId = signed.data.user.id as string;
    const auth = { authorization: `Bearer ${signed.data.token}`, 'content-type': 'application/json' };
    const newOrg = async (name: string) =>
      (await json(`${base}/api/organizations`, { method: 'POST', headers: auth, body: JSON.stringify({ name }) })).data.id as string;
    const orgId = await newOrg('Bench Clinic');
    const patientBody = JSON.stringify({
      first_name: 'Amina',
      last_name: 'Odhiambo',
      date_of_birth: '1988-06-15',
      gender: 'female',
      phone: '+254712345678',
      email: 'amina@example.test',
    });
    const patient = await json(`${base}/api/organizations/${orgId}/patients`, { method: 'POST', headers: auth, body: patientBody });
    const id = patient.data.id as string;
    const graphqlBody = JSON.stringify({
      query: `query($id: ID!) { patient(id: $id) { id firstName lastName dateOfBirth gender phone email mrn organizationId
        userId createdBy createdAt updatedAt } }`,
      variables: { id },
    });
    // Something in each module the graph query reads.
    const post = (path: string, body: unknown) => json(`${base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    if (want.has('graph')) {
      await post(`/api/patients/${id}/allergies`, { substance: 'Penicillin', reaction: 'Rash' }).catch((e) =>
        console.warn(`graph seed: ${(e as Error).message}`),
      );
      await post('/api/vitals', { patient_id: id, heart_rate: 72, temperature: 36.8 }).catch((e) =>
        console.warn(`graph seed: ${(e as Error).message}`),
      );
    }
    const graphBody = JSON.stringify({
      query: `query($id: ID!) { patient(id: $id) { id firstName lastName mrn
        allergies(first: 5) { nodes { id } } vitals(first: 5) { nodes { id } } prescriptions(first: 5) { nodes { id } }
        organization { id name } invoices(first: 5) { id } } }`,
      variables: { id },
    });

    const pg = new Client({ connectionString: db.toString() });
    await pg.connect();
    const needSmall = [...want].some((s) => s.endsWith('_2k'));
    const needLarge = [...want].some((s) => s.endsWith('_100k'));
    const smallOrg = needSmall ? await newOrg('Bench Small') : '';
    const small = needSmall ? await seedOrganization(pg, smallOrg, userId, SMALL_PATIENTS) : null;
    let largeOrg = '';
    let large: Awaited<ReturnType<typeof seedOrganization>> | null = null;
    if (needLarge) {
      const t = Date.now();
      largeOrg = await newOrg('Bench Large');
      large = await seedOrganization(pg, largeOrg, userId, LARGE_PATIENTS);
      console.log(`seeded ${LARGE_PATIENTS} patients in ${Date.now() - t} ms`);
    }
    const mixOrg = want.has('mix') ? await newOrg('Bench Mix') : '';
    const mix = want.has('mix') ? await seedOrganization(pg, mixOrg, userId, SMALL_PATIENTS) : null;
    const createOrg = await newOrg('Bench Registrations');

    // Scheduling: resources without schedules are open all day, so every booking below is valid. Bookings go round
    // robin over RESOURCES resources, each request a fresh 15-minute slot starting tomorrow, so none conflicts.
    const RESOURCES = 8;
    const resources: string[] = [];
    if (want.has('availability') || want.has('book')) {
      for (let i = 0; i < RESOURCES; i++)
        resources.push((await post('/api/resources', { type: 'room', name: `Bench room ${i}`, organization_id: orgId })).data.id);
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

    // Master patient index: patients seeded straight into the table, indexed by the index's sweep, then matched by
    // an administrator with queries like real ones.
    let mpiQueries: string[] = [];
    let adminAuth: Record<string, string> = {};
    if (want.has('mpi_match')) {
      mpiQueries = await seedMpi(db, await newOrg('Bench MPI'), userId);
      const adminLogin = await json(`${base}/api/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }),
      });
      adminAuth = { authorization: `Bearer ${adminLogin.data.token}`, 'content-type': 'application/json' };
    }
    let mpiQuery = 0;
    const matchRequest = (req: { body?: string }) => {
      req.body = mpiQueries[mpiQuery++ % mpiQueries.length];
      return req;
    };

    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    const searchPath = (org: string, param: 'name' | 'mrn', terms: string[]) => (req: { path?: string }) => {
      req.path = `/api/organizations/${org}/patients/search?${param}=${encodeURIComponent(pick(terms))}`;
      return req;
    };
    // The mix as a cycle of ten requests each connection repeats: 7 reads, 2 searches (name, MRN), 1 registration.
    const mixRead = {
      method: 'GET' as const,
      setupRequest: ((req: object) => ({ ...req, path: `/api/patients/${pick(mix!.ids)}` })) as never,
    };
    const mixSearch = (param: 'name' | 'mrn') => ({
      method: 'GET' as const,
      setupRequest: ((req: object) => ({
        ...req,
        path: `/api/organizations/${mixOrg}/patients/search?${param}=${encodeURIComponent(pick(param === 'name' ? mix!.names : mix!.mrns))}`,
      })) as never,
    });
    const mixCreate = {
      method: 'POST' as const,
      setupRequest: ((req: object) => ({ ...req, path: `/api/organizations/${mixOrg}/patients`, body: newPatientBody() })) as never,
    };
    const mixRequests = [mixRead, mixRead, mixRead, mixSearch('name'), mixRead, mixRead, mixSearch('mrn'), mixRead, mixRead, mixCreate];
    const p = platform.pid!;
    const candidates: Scenario[] = [
      { name: 'floor_read', pid: floor.pid!, opts: { url: `${floorBase}/api/patients/${id}` } },
      { name: 'health', pid: p, opts: { url: `${base}/health` } },
      { name: 'read', pid: p, opts: { url: `${base}/api/patients/${id}`, headers: auth } },
      { name: 'unaudited_read', pid: unaudited?.pid ?? 0, opts: { url: `${unauditedBase}/api/patients/${id}`, headers: auth } },
      { name: 'graphql_read', pid: p, opts: { url: `${base}/graphql`, method: 'POST', headers: auth, body: graphqlBody } },
      { name: 'graph', pid: p, opts: { url: `${base}/graphql`, method: 'POST', headers: auth, body: graphBody } },
      ...(['name', 'mrn'] as const).flatMap((param) =>
        (
          [
            ['2k', smallOrg, small],
            ['100k', largeOrg, large],
          ] as const
        ).map(([size, org, seeded]) => ({
          name: `search_${param}_${size}`,
          pid: p,
          opts: {
            url: base,
            headers: auth,
            requests: [
              {
                method: 'GET' as const,
                setupRequest: searchPath(org, param, seeded ? (param === 'name' ? seeded.names : seeded.mrns) : []) as never,
              },
            ],
          },
        })),
      ),
      {
        name: 'create',
        pid: p,
        opts: {
          url: `${base}/api/organizations/${createOrg}/patients`,
          method: 'POST',
          headers: auth,
          requests: [{ method: 'POST', setupRequest: ((req: { body?: string }) => ({ ...req, body: newPatientBody() })) as never }],
        },
      },
      { name: 'mix', pid: p, opts: { url: base, headers: auth, requests: mixRequests } },
      { name: 'availability', pid: p, opts: { url: `${base}/api/appointments/availability?resource_id=${resources[0]}&date=${tomorrow}` } },
      {
        name: 'book',
        pid: p,
        opts: {
          url: `${base}/api/appointments`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: [{ method: 'POST', setupRequest: bookingRequest as never }],
        },
      },
      {
        name: 'mpi_match',
        pid: p,
        opts: {
          url: `${base}/api/mpi/match`,
          method: 'POST',
          headers: adminAuth,
          requests: [{ method: 'POST', setupRequest: matchRequest as never }],
        },
      },
    ];
    const scenarios = candidates.filter((s) => want.has(s.name));
    for (const s of scenarios) await autocannon({ ...s.opts, connections: CONNECTIONS, duration: 2 }); // warm-up
    await settle([p, workersPid]);
    const rounds: Result[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const measured: Result[] = [];
      for (const s of scenarios) measured.push(await measure(s));
      if (want.has('event_bus')) measured.push(await eventBus(pg, workersPid, userId));
      rounds.push(measured);
      console.log(
        `round ${round}: ${measured.map((m) => `${m.scenario} ${m.requests_per_second}/s ${m.cpu_ms_per_request} ms CPU`).join(', ')}`,
      );
    }
    const names = rounds[0].map((r) => r.scenario);
    const results: Result[] = names.map((name, i) => ({
      scenario: name,
      requests_per_second: median(rounds.map((r) => r[i].requests_per_second)),
      p50_ms: median(rounds.map((r) => r[i].p50_ms)),
      p99_ms: median(rounds.map((r) => r[i].p99_ms)),
      errors: rounds.reduce((n, r) => n + r[i].errors, 0),
      non_2xx: rounds.reduce((n, r) => n + r[i].non_2xx, 0),
      cpu_ms_per_request: median(rounds.map((r) => r[i].cpu_ms_per_request)),
      worker_cpu_ms_per_request: median(rounds.map((r) => r[i].worker_cpu_ms_per_request ?? 0)),
    }));
    let mpi: Awaited<ReturnType<typeof matchPercentile>> | undefined;
    if (want.has('mpi_match')) {
      mpi = await matchPercentile(`${base}/api/mpi/match`, adminAuth, mpiQueries);
      results.find((r) => r.scenario === 'mpi_match')!.p95_ms = mpi.p95_ms;
      console.log(`mpi_match p95 over ${mpi.requests} requests at ${mpi.concurrency} in flight: ${mpi.p95_ms} ms (p50 ${mpi.p50_ms} ms)`);
    }
    const floorRate = results[0].requests_per_second;
    for (const r of results) r.ratio_to_floor = Math.round((r.requests_per_second / floorRate) * 1000) / 1000;

    console.log(`\n${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per scenario (medians), ${cpus().length} CPUs\n`);
    console.log('scenario            req/s    p50 ms   p99 ms   CPU ms/req   +workers   vs floor   errors');
    for (const r of results) {
      console.log(
        `${r.scenario.padEnd(18)} ${String(r.requests_per_second).padStart(6)} ${String(r.p50_ms).padStart(8)} ${String(r.p99_ms).padStart(8)}` +
          ` ${r.cpu_ms_per_request.toFixed(3).padStart(12)} ${(r.worker_cpu_ms_per_request ?? 0).toFixed(3).padStart(10)}` +
          `   ${(r.ratio_to_floor! * 100).toFixed(1).padStart(6)}%   ${r.errors + r.non_2xx}`,
      );
    }
    const roster = want.has('roster') ? await rosterGeneration(base, auth, orgId) : undefined;
    if (roster) {
      console.log(
        `\nroster generation (30 members, 28 days, 3 shifts a day): ${roster.seconds_median} s median ` +
          `(runs ${roster.runs.map((r) => r.seconds).join(', ')} s; solver ${roster.runs.map((r) => r.solve_seconds).join(', ')} s), ` +
          `${roster.requirements_met}/${roster.requirements_total} requirements met, solver ${roster.solver_status}`,
      );
    }
    await pg.end();
    const dir = join(REPO_ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const report = {
      measured_at: new Date().toISOString(),
      connections: CONNECTIONS,
      rounds: ROUNDS,
      duration_s: DURATION,
      scenarios: names,
      small_patients: SMALL_PATIENTS,
      large_patients: LARGE_PATIENTS,
      ...(mpi ? { mpi_patients: MPI_PATIENTS, mpi_match_p95: mpi } : {}),
      cpus: cpus().length,
      load_average: (await import('node:os')).loadavg(),
      node: process.version,
      results,
      raw_rounds: rounds,
      ...(roster ? { roster_generation: roster } : {}),
    };
    writeFileSync(join(dir, 'latest.json'), JSON.stringify(report, null, 2) + '\n');
    const audited = results.find((r) => r.scenario === 'read')?.requests_per_second;
    const bare = results.find((r) => r.scenario === 'unaudited_read')?.requests_per_second;
    if (audited && bare) {
      console.log(`\nread audit: ${audited} vs ${bare} req/s without it (${(((bare - audited) / bare) * 100).toFixed(1)}% of throughput)`);
    }
    console.log(`written to ${join('bench', 'results', 'latest.json')}`);
  } finally {
    stop();
  }
}

/**
 * The event bus end to end: EVENTS `member_added` events committed in one transaction (as a burst of writes would
 * leave them in the outbox), timed until their consumer (`doctor-organizations`, whose own work here is two
 * lookups: the organizations named do not exist) has applied every one: the relay, the dispatcher, the consumer's
 * queue and its `processed_events` row. A consumer that does heavy work of its own (the master patient index's
 * matcher) measures that work, not the bus.
 */
async function eventBus(pg: Client, pid: number, userId: string): Promise<Result> {
  const eventIds = Array.from({ length: EVENTS }, () => randomUUID());
  const before = cpuMs(pid);
  await pg.query(
    `insert into org.outbox (id, topic, payload, source_service, created_at)
     select e, 'svc.organization.member_added',
            jsonb_build_object('organization_id', gen_random_uuid(), 'user_id', $2::uuid, 'role', 'ORG:DOCTOR'), 'org', clock_timestamp()
     from unnest($1::uuid[]) as t(e)`,
    [eventIds, userId],
  );
  const t0 = performance.now();
  const latencies: number[] = [];
  let done = 0;
  while (done < EVENTS && performance.now() - t0 < 120_000) {
    await new Promise((r) => setTimeout(r, 20));
    const { rows } = await pg.query(
      `select count(*)::int as n from org.processed_events where consumer = 'doctor-organizations' and event_id = any($1::text[])`,
      [eventIds],
    );
    const now = performance.now() - t0;
    for (let i = done; i < rows[0].n; i++) latencies.push(now);
    done = rows[0].n;
  }
  const seconds = (performance.now() - t0) / 1000;
  if (done < EVENTS) console.warn(`event bus: ${done} of ${EVENTS} events consumed after ${Math.round(seconds)} s`);
  return {
    scenario: 'event_bus',
    requests_per_second: Math.round(done / seconds),
    p50_ms: Math.round(median(latencies) ?? 0),
    p99_ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    errors: EVENTS - done,
    non_2xx: 0,
    cpu_ms_per_request: Math.round(((cpuMs(pid) - before) / Math.max(1, done)) * 1000) / 1000,
  };
}

const MPI_PATIENTS = Number(process.env.MPI_BENCH_PATIENTS ?? 100_000);
const GIVEN = [
  'Amina',
  'Wanjiru',
  'Achieng',
  'Grace',
  'Mary',
  'Fatuma',
  'Zawadi',
  'Nakato',
  'Abena',
  'Ama',
  'Chiamaka',
  'Ngozi',
  'Aisha',
  'Thandiwe',
  'Uwase',
  'Hiwot',
  'Rehema',
  'Esther',
  'Joyce',
  'Halima',
  'John',
  'Peter',
  'Kwame',
  'Kofi',
  'Chidi',
  'Emeka',
  'Tunde',
  'Musa',
  'Juma',
  'Baraka',
  'Otieno',
  'Kamau',
  'Thabo',
  'Sipho',
  'Abebe',
  'Dawit',
  'Yohannes',
  'David',
  'Joseph',
  'Samuel',
];
const FAMILY = [
  'Odhiambo',
  'Otieno',
  'Kamau',
  'Mwangi',
  'Wanjiku',
  'Njoroge',
  'Kiprono',
  'Mensah',
  'Owusu',
  'Boateng',
  'Asante',
  'Okafor',
  'Okonkwo',
  'Adeyemi',
  'Balogun',
  'Nkosi',
  'Dlamini',
  'Ndlovu',
  'Mokoena',
  'Mwakyusa',
  'Massawe',
  'Namutebi',
  'Okello',
  'Mukamana',
  'Uwimana',
  'Bekele',
  'Tesfaye',
  'Haile',
  'Girma',
  'Abdi',
  'Hassan',
  'Mohamed',
  'Ali',
  'Omondi',
  'Ochieng',
  'Chege',
  'Kariuki',
  'Maina',
  'Ruto',
  'Kiptoo',
];

/**
 * A registration as a clinic's front desk sends it: each a different person (a name from GIVEN and FAMILY, a birth
 * date, a phone), so that the master patient index matches each one against its likely namesakes, as it would in
 * a real clinic, and not against every earlier copy of one person.
 */
function newPatientBody(): string {
  const n = Math.floor(Math.random() * 1e9);
  return JSON.stringify({
    first_name: GIVEN[n % GIVEN.length],
    last_name: FAMILY[Math.floor(n / GIVEN.length) % FAMILY.length],
    date_of_birth: new Date(Date.UTC(1940, 0, 1) + (n % 29_200) * 86_400_000).toISOString().slice(0, 10),
    gender: n % 2 ? 'male' : 'female',
    phone: `+2547${String(n % 100_000_000).padStart(8, '0')}`,
  });
}

/**
 * Seeds MPI_PATIENTS patients with every pair of a name from GIVEN and one from FAMILY (1,600 pairs, about 60
 * people each at 100,000: blocks as crowded as in a population with common names), birth dates over 80 years and phones for most; waits until the index holds them.
 * Answers match queries: seeded people with a typo, a swapped date, or exactly as registered.
 */
async function seedMpi(db: URL, organizationId: string, createdBy: string): Promise<string[]> {
  const pg = new Client({ connectionString: db.toString() });
  await pg.connect();
  try {
    const started = Date.now();
    await pg.query(
      `insert into clinical.patients (id, created_at, updated_at, first_name, last_name, date_of_birth, gender, phone, mrn, organization_id, created_by)
       select gen_random_uuid(), now(), now(), g.given[(1 + (i::bigint * 7919) % array_length(g.given, 1))::int], g.family[(1 + ((i / array_length(g.given, 1))::bigint * 104729) % array_length(g.family, 1))::int],
              date '1940-01-01' + ((i::bigint * 2654435761) % 29200)::int, case when i % 2 = 0 then 'female' else 'male' end,
              case when i % 5 = 0 then null else '+2547' || lpad(((i::bigint * 48271) % 100000000)::text, 8, '0') end,
              'BENCH-' || i, $1::uuid, $2::uuid
       from generate_series(1, $3::int) as i, (select $4::text[] as given, $5::text[] as family) g`,
      [organizationId, createdBy, MPI_PATIENTS, GIVEN, FAMILY],
    );
    console.log(`seeded ${MPI_PATIENTS} patients in ${Date.now() - started} ms; waiting for the index`);
    for (;;) {
      const { rows } = await pg.query('select count(*)::int as n from clinical.mpi_records');
      if (rows[0].n >= MPI_PATIENTS) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    console.log(`indexed in ${Date.now() - started} ms`);
    const { rows } = await pg.query(
      `select first_name, last_name, to_char(date_of_birth, 'YYYY-MM-DD') as dob, gender, phone from clinical.patients where mrn like 'BENCH-%' order by random() limit 200`,
    );
    return rows.map((r, i) => {
      const typo = i % 3 === 0 ? r.first_name.slice(0, -1) : r.first_name;
      const dob = i % 3 === 1 && Number(r.dob.slice(8)) <= 12 ? `${r.dob.slice(0, 5)}${r.dob.slice(8)}-${r.dob.slice(5, 7)}` : r.dob;
      return JSON.stringify({
        first_name: typo,
        last_name: r.last_name,
        date_of_birth: dob,
        gender: r.gender,
        ...(i % 2 === 0 && r.phone ? { phone: r.phone } : {}),
      });
    });
  } finally {
    await pg.end();
  }
}

/** p50 and p95 of POST /api/mpi/match over a fixed number of requests, a few in flight, timed one by one. */
async function matchPercentile(url: string, headers: Record<string, string>, queries: string[]) {
  const requests = 600;
  const concurrency = 4;
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const body = queries[next++ % queries.length];
        const t = performance.now();
        const res = await fetch(url, { method: 'POST', headers, body });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`mpi match answered ${res.status}`);
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 10) / 10;
  return { requests, concurrency, p50_ms: at(0.5), p95_ms: at(0.95) };
}

/**
 * A ward rostered by the solver: 30 members on 40 hours a week (every third one with ICU skills), shift types Day
 * 07-15 (6 staff, 2 with ICU), Evening 15-23 (5, 1 ICU) and Night 23-07 (4, 1 ICU), 28 days from a Monday. Each run
 * asks for generation and polls the roster until the job has stored it.
 */
async function rosterGeneration(base: string, auth: Record<string, string>, organizationId: string) {
  const post = (path: string, body: Record<string, unknown>) =>
    json(`${base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify({ ...body, organization_id: organizationId }) });
  for (let i = 0; i < 30; i++) {
    await post('/api/workforce/members', {
      name: `Bench nurse ${i}`,
      role: 'Registered nurse',
      contracted_hours_per_week: 40,
      skills: i % 3 === 0 ? ['icu'] : [],
    });
  }
  const shifts = [
    { name: 'Day', start_time: '07:00', end_time: '15:00', min_staff: 6, skill_requirements: [{ skill: 'icu', min_staff: 2 }] },
    { name: 'Evening', start_time: '15:00', end_time: '23:00', min_staff: 5, skill_requirements: [{ skill: 'icu', min_staff: 1 }] },
    { name: 'Night', start_time: '23:00', end_time: '07:00', min_staff: 4, skill_requirements: [{ skill: 'icu', min_staff: 1 }] },
  ];
  for (const shift of shifts) await post('/api/workforce/shift-types', shift);
  const monday = new Date(Math.ceil(Date.now() / 86_400_000 + 7) * 86_400_000);
  monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7));
  const start = monday.toISOString().slice(0, 10);
  const end = new Date(monday.getTime() + 27 * 86_400_000).toISOString().slice(0, 10);
  const roster = await post('/api/workforce/rosters', { name: 'Bench ward', start_date: start, end_date: end });
  const runs: { seconds: number; solve_seconds: number }[] = [];
  let last: Record<string, any> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    await json(`${base}/api/workforce/rosters/${roster.data.id}/generate`, { method: 'POST', headers: auth, body: '{}' });
    for (;;) {
      last = (await json(`${base}/api/workforce/rosters/${roster.data.id}`, { method: 'GET', headers: auth })).data;
      if (last.generation_status === 'succeeded' || last.generation_status === 'failed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (last.generation_status === 'failed') throw new Error(`roster generation failed: ${last.generation_error}`);
    runs.push({ seconds: Math.round(performance.now() - t0) / 1000, solve_seconds: last.solve_seconds });
  }
  const median = [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)].seconds;
  return {
    members: 30,
    days: 28,
    shifts_per_day: 3,
    seconds_median: median,
    runs,
    requirements_total: last.requirements_total,
    requirements_met: last.requirements_met,
    places_total: last.places_total,
    places_filled: last.places_filled,
    solver_status: last.solver_status,
  };
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
