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
 *   mpi_match     POST /api/mpi/match (SUPER:ADMIN) against MPI_BENCH_PATIENTS (default 100,000) seeded patients,
 *                 indexed by the master patient index's sweep; its p95 is also measured on its own (mpi_match_p95)
 *   floor_read    Express + pg, the same primary-key read
 * Then roster generation, timed from `POST /api/workforce/rosters/:id/generate` until the roster reads `generated`
 * (the HiGHS solve runs as a bus job): a ward of 30 members (10 with ICU skills), 4 weeks, 3 shifts a day with
 * minimum staff and ICU minimums, generated BENCH_ROUNDS times; the median and each run are reported.
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
  p95_ms?: number;
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
  const env = {
    DATABASE_URL: db.toString(),
    REDIS_PREFIX: 'ccp_bench',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    RATE_LIMIT_POINTS: '1000000000',
    // The master patient index's sweep indexes the seeded patients quickly; the administrator asks it to match.
    MPI_INDEX_SWEEP_MS: '500',
    BOOTSTRAP_ADMIN_EMAIL: 'bench.admin@example.test',
    BOOTSTRAP_ADMIN_PASSWORD: 'Bench-admin-passw0rd',
  };
  const children: ChildProcess[] = [];
  const stop = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  process.on('exit', stop);
  try {
    const platform = fork(join(REPO_ROOT, 'dist', 'bin', 'start.js'), [], {
      env: { ...process.env, ...env, PORT: '4610' },
      stdio: 'inherit',
    });
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
      const r = await json(`${base}/api/resources`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ type: 'room', name: `Bench room ${i}` }),
      });
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

    // Master patient index: patients seeded straight into the table (as a migration from another system would
    // leave them), indexed by the index's sweep, then matched by an administrator with queries like real ones.
    const mpiQueries = await seedMpi(db, org.data.id as string, signed.data.user.id as string);
    const adminLogin = await json(`${base}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }),
    });
    const adminAuth = { authorization: `Bearer ${adminLogin.data.token}`, 'content-type': 'application/json' };
    let mpiQuery = 0;
    const matchRequest = (req: { body?: string }) => {
      req.body = mpiQueries[mpiQuery++ % mpiQueries.length];
      return req;
    };

    const scenarios: [string, autocannon.Options][] = [
      ['floor_read', { url: `${floorBase}/api/patients/${id}` }],
      ['health', { url: `${base}/health` }],
      ['rest_read', { url: `${base}/api/patients/${id}`, headers: auth }],
      ['rest_read_unaudited', { url: `${unauditedBase}/api/patients/${id}`, headers: auth }],
      ['graphql_read', { url: `${base}/graphql`, method: 'POST', headers: auth, body: graphqlBody }],
      [
        'mpi_match',
        {
          url: `${base}/api/mpi/match`,
          method: 'POST',
          headers: adminAuth,
          requests: [{ method: 'POST', setupRequest: matchRequest as never }],
        },
      ],
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
    const mpi = await matchPercentile(`${base}/api/mpi/match`, adminAuth, mpiQueries);
    results.find((r) => r.scenario === 'mpi_match')!.p95_ms = mpi.p95_ms;
    console.log(`mpi_match p95 over ${mpi.requests} requests at ${mpi.concurrency} in flight: ${mpi.p95_ms} ms (p50 ${mpi.p50_ms} ms)`);
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
    const roster = await rosterGeneration(base, auth);
    console.log(
      `\nroster generation (30 members, 28 days, 3 shifts a day): ${roster.seconds_median} s median ` +
        `(runs ${roster.runs.map((r) => r.seconds).join(', ')} s; solver ${roster.runs.map((r) => r.solve_seconds).join(', ')} s), ` +
        `${roster.requirements_met}/${roster.requirements_total} requirements met, solver ${roster.solver_status}`,
    );
    const dir = join(REPO_ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const report = {
      measured_at: new Date().toISOString(),
      connections: CONNECTIONS,
      rounds: ROUNDS,
      duration_s: DURATION,
      mpi_patients: MPI_PATIENTS,
      mpi_match_p95: mpi,
      cpus: cpus().length,
      node: process.version,
      results,
      raw_rounds: rounds,
      roster_generation: roster,
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
async function rosterGeneration(base: string, auth: Record<string, string>) {
  const post = (path: string, body: unknown) => json(`${base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
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
    await post(`/api/workforce/rosters/${roster.data.id}/generate`, {});
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
