/**
 * `npm run test:cluster`: the exactly-once test of the cluster profile (scripts/cluster/cluster.sh, docs/deployment.md).
 *
 * Starts the profile (unless CLUSTER_REUSE=1 finds it running), then drives patient registrations through both
 * gateway replicas, each with an Idempotency-Key, retried on the other gateway when one fails, while one worker
 * process and one gateway are killed with SIGKILL and the Redis master holding the `events` queue fails over to its
 * replica (CLUSTER FAILOVER on the replica). Then it checks, in PostgreSQL and Redis:
 *   - every outbox row written during the run was relayed, and every consumer of its topic applied it exactly once
 *     (`processed_events`), with no dead letters;
 *   - every registration answered 2xx exists exactly once; one whose answer was lost (its gateway died) at most once;
 *   - an Idempotency-Key used on one gateway replays on the other; a session ended on one gateway is refused on the
 *     other; the sign-in rate limit counts across both gateways; a writer reads its own write at once on the other
 *     gateway (read replicas with read-your-writes);
 *   - each scheduled job ran at most once per scheduled time across the two worker processes.
 * Prints each check and exits non-zero on any failure; stops the profile it started (CLUSTER_KEEP=1 keeps it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { Client } from 'pg';
import { REPO_ROOT } from '../../shared/paths';
import { SUBGRAPHS } from '../../subgraphs';
import { workRegistry } from '../../workers';

const LB_PORT = Number(process.env.CLUSTER_PORT ?? 4100);
const LB = `http://127.0.0.1:${LB_PORT}`;
const GATEWAYS = [`http://127.0.0.1:${LB_PORT + 1}`, `http://127.0.0.1:${LB_PORT + 2}`];
const REDIS_BASE = Number(process.env.CLUSTER_REDIS_PORT ?? 7101);
const PG_PORT = Number(process.env.CLUSTER_PG_PORT ?? 5433);
const DB = process.env.CLUSTER_DB ?? 'clinical_care';
const RUN_DIR = join(process.env.CLUSTER_DIR ?? join(REPO_ROOT, '.data', 'cluster'), 'run');
const SCRIPT = join(REPO_ROOT, 'scripts', 'cluster', 'cluster.sh');
const PREFIX = process.env.REDIS_PREFIX ?? 'ccp';
const WRITERS = 4;
const WRITES_PER_WRITER = Number(process.env.CLUSTER_WRITES ?? 15);
const PASSWORD = 'Str0ng-passw0rd';

const failures: string[] = [];
function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON (a load balancer page) */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

const pidOf = (label: string) => Number(readFileSync(join(RUN_DIR, `${label}.pid`), 'utf8').trim());

async function ready(): Promise<boolean> {
  try {
    return (await fetch(`${LB}/ready`, { signal: AbortSignal.timeout(3000) })).ok;
  } catch {
    return false;
  }
}

function cluster(cmd: 'start' | 'stop'): void {
  const r = spawnSync(SCRIPT, [cmd], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`cluster.sh ${cmd} failed`);
}

/** The Redis master serving the slot of the `events` queue, and one of its replicas. */
function eventsMasterAndReplica(): { master: number; replica: number } {
  const cli = (port: number, ...args: string[]) => execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
  const slot = Number(cli(REDIS_BASE, 'cluster', 'keyslot', `${PREFIX}:bull:{events}:id`).trim());
  const nodes = cli(REDIS_BASE, 'cluster', 'nodes')
    .trim()
    .split('\n')
    .map((l) => l.split(' '));
  const master = nodes.find(
    (n) =>
      n[2].includes('master') &&
      !n[2].includes('fail') &&
      n.slice(8).some((range) => {
        const [a, b] = range.split('-').map(Number);
        return slot >= a && slot <= (b ?? a);
      }),
  );
  if (!master) throw new Error(`no master serves slot ${slot}`);
  const replica = nodes.find((n) => n[2].includes('slave') && n[3] === master[0] && !n[2].includes('fail'));
  if (!replica) throw new Error('the events master has no replica');
  const port = (n: string[]) => Number(n[1].split('@')[0].split(':')[1]);
  return { master: port(master), replica: port(replica) };
}

async function signUp(base: string, role: string, ip: string): Promise<{ token: string; userId: string; email: string }> {
  const email = `cluster.${randomUUID().slice(0, 8)}@example.test`;
  const res = await call(
    base,
    'POST',
    '/api/auth/register',
    { email, password: PASSWORD, first_name: 'Cluster', last_name: 'Test', registration_role: role },
    {
      'x-forwarded-for': ip,
    },
  );
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.data.token, userId: res.body.data.user.id, email };
}

interface Write {
  key: string;
  email: string;
  /** The status of the answer the client finally got; null: no answer (every attempt failed or the key stayed in progress). */
  status: number | null;
  patientId?: string;
  attempts: number;
}

/** One registration with its Idempotency-Key: on a lost connection or a 5xx, retried on the other gateway. */
async function register(token: string, orgId: string, n: number, tag: string): Promise<Write> {
  const key = `cluster-${tag}-${n}`;
  const email = `p${n}.${tag}@example.test`;
  const body = { first_name: 'Amina', last_name: 'Odhiambo', date_of_birth: '1988-06-15', gender: 'female', email };
  const write: Write = { key, email, status: null, attempts: 0 };
  for (let attempt = 0; attempt < 8; attempt++) {
    write.attempts++;
    const base = GATEWAYS[(n + attempt) % 2];
    try {
      const res = await call(base, 'POST', `/api/organizations/${orgId}/patients`, body, {
        authorization: `Bearer ${token}`,
        'idempotency-key': key,
      });
      if (res.status === 409 && /still being processed/.test(res.body?.error?.message ?? '')) {
        // The first attempt reached a gateway that died before answering: its outcome is unknown to the client,
        // and the key holds it. Stop here; the check below allows at most one patient for it.
        return write;
      }
      if (res.status >= 500) {
        await sleep(300);
        continue;
      }
      write.status = res.status;
      write.patientId = res.body?.data?.id;
      return write;
    } catch {
      await sleep(300); // connection refused or reset: that gateway is gone
    }
  }
  return write;
}

async function main() {
  const reuse = process.env.CLUSTER_REUSE === '1' && (await ready());
  if (!reuse) {
    cluster('stop');
    cluster('start');
  }
  const started = Date.now();
  const pg = new Client({ connectionString: `postgres://postgres@127.0.0.1:${PG_PORT}/${DB}` });
  await pg.connect();
  const redis = new Cluster([{ host: '127.0.0.1', port: REDIS_BASE }], { retryDelayOnFailover: 200, retryDelayOnClusterDown: 300 });
  try {
    const t0: Date = (await pg.query('select now() as t')).rows[0].t;
    const tag = randomUUID().slice(0, 8);

    // A doctor of a new organization (signed up on one gateway, the organization created on the other).
    const doctor = await signUp(GATEWAYS[0], 'DOCTOR', '198.51.100.1');
    const org = await call(
      GATEWAYS[1],
      'POST',
      '/api/organizations',
      { name: `Cluster ${tag}`, type: 'clinic' },
      { authorization: `Bearer ${doctor.token}` },
    );
    if (org.status !== 201) throw new Error(`organization: ${org.status} ${JSON.stringify(org.body)}`);
    const orgId: string = org.body.data.id;
    await pg.query(
      `update org.organization_members set role = 'ORG:DOCTOR', roles = '{ORG:DOCTOR}' where organization_id = $1 and user_id = $2`,
      [orgId, doctor.userId],
    );
    await redis.del(`${PREFIX}:viewer:${doctor.userId}`);
    const auth = { authorization: `Bearer ${doctor.token}` };

    // Idempotency across replicas: the same key on the other gateway is the first answer again.
    const idemBody = {
      first_name: 'Baraka',
      last_name: 'Otieno',
      date_of_birth: '1990-01-01',
      gender: 'male',
      email: `idem.${tag}@example.test`,
    };
    const first = await call(GATEWAYS[0], 'POST', `/api/organizations/${orgId}/patients`, idemBody, {
      ...auth,
      'idempotency-key': `idem-${tag}`,
    });
    const again = await call(GATEWAYS[1], 'POST', `/api/organizations/${orgId}/patients`, idemBody, {
      ...auth,
      'idempotency-key': `idem-${tag}`,
    });
    check(
      first.status === 201 &&
        again.status === 201 &&
        again.headers.get('idempotent-replayed') === 'true' &&
        again.body.data.id === first.body.data.id,
      'an Idempotency-Key used on gateway 1 replays the same answer on gateway 2',
    );

    // Read-your-writes: the writer reads the new record at once through the other gateway.
    const read = await call(GATEWAYS[1], 'GET', `/api/patients/${first.body.data.id}`, undefined, auth);
    check(read.status === 200 && read.body.data.id === first.body.data.id, 'the writer reads its own write at once on the other gateway');

    // Sessions: a session ended on one gateway is refused on the other.
    const login = await call(
      GATEWAYS[0],
      'POST',
      '/api/auth/login',
      { email: doctor.email, password: PASSWORD },
      { 'x-forwarded-for': '198.51.100.2' },
    );
    const second = { authorization: `Bearer ${login.body?.data?.token}` };
    const before = await call(GATEWAYS[1], 'GET', `/api/patients/${first.body.data.id}`, undefined, second);
    const logout = await call(GATEWAYS[0], 'POST', '/api/auth/logout', {}, second);
    const after = await call(GATEWAYS[1], 'GET', `/api/patients/${first.body.data.id}`, undefined, second);
    check(
      login.status === 200 && before.status === 200 && logout.status < 300 && after.status === 401,
      `a session ended on gateway 1 is refused on gateway 2 (${before.status}, ${logout.status}, ${after.status})`,
    );

    // Rate limits: failed sign-ins from one address for one account, alternating gateways, are limited once
    // across both (a fresh address and account: nothing counted before).
    const statuses: number[] = [];
    const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 14; i++) {
      const r = await call(
        GATEWAYS[i % 2],
        'POST',
        '/api/auth/login',
        { email: `nobody.${tag}@example.test`, password: 'wrong-Passw0rd' },
        { 'x-forwarded-for': address },
      );
      statuses.push(r.status);
    }
    const limited = statuses.filter((s) => s === 429).length;
    check(limited === 4, `the sign-in rate limit counts across both gateways (10 allowed of 14, got ${14 - limited})`);

    // The writes, with the kills and the failover during them.
    const chaos = (async () => {
      await sleep(1500);
      process.kill(pidOf('workers-1'), 'SIGKILL');
      console.log('     killed workers-1 (SIGKILL)');
      await sleep(1500);
      process.kill(pidOf('gateway-1'), 'SIGKILL');
      console.log('     killed gateway-1 (SIGKILL)');
      await sleep(1500);
      const { master, replica } = eventsMasterAndReplica();
      execFileSync('redis-cli', ['-p', String(replica), 'cluster', 'failover']);
      for (let i = 0; i < 100; i++) {
        if (/role:master/.test(execFileSync('redis-cli', ['-p', String(replica), 'info', 'replication'], { encoding: 'utf8' }))) break;
        await sleep(100);
      }
      console.log(`     Redis failover: the events queue's master ${master} handed over to its replica ${replica}`);
      return { master, replica };
    })();
    const writes: Write[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < WRITES_PER_WRITER; i++) {
          writes.push(await register(doctor.token, orgId, w * WRITES_PER_WRITER + i, tag));
          await sleep(100);
        }
      }),
    );
    const { replica } = await chaos;
    const promoted = /role:master/.test(execFileSync('redis-cli', ['-p', String(replica), 'info', 'replication'], { encoding: 'utf8' }));
    check(promoted, `the replica ${replica} became the master of the events queue's slot`);

    const answered = writes.filter((w) => w.status === 201);
    const unknown = writes.filter((w) => w.status === null);
    check(
      answered.length + unknown.length === writes.length,
      `every registration answered 201 or lost its answer with its gateway (${answered.length} answered, ${unknown.length} unknown)`,
    );
    const counts = new Map<string, number>(
      (
        await pg.query<{ email: string; n: string }>(
          `select email, count(*) as n from clinical.patients where email like $1 group by email`,
          [`%.${tag}@example.test`],
        )
      ).rows.map((r) => [r.email, Number(r.n)]),
    );
    const wrongAnswered = answered.filter((w) => counts.get(w.email) !== 1);
    check(
      wrongAnswered.length === 0,
      `each answered registration exists exactly once (${wrongAnswered.map((w) => w.key).join(', ') || 'all'})`,
    );
    const twice = unknown.filter((w) => (counts.get(w.email) ?? 0) > 1);
    check(twice.length === 0, 'a registration whose answer was lost exists at most once');

    // Every event written since the start relayed and applied once by each of its consumers.
    const consumers = workRegistry(SUBGRAPHS).consumers;
    const schemas = ['org', 'clinical', 'revenue', 'platform'];
    let pending = Infinity;
    let events: { schema: string; id: string; topic: string; published: boolean }[] = [];
    let missing: string[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      events = [];
      for (const schema of schemas) {
        const rows = await pg.query<{ id: string; topic: string; published: boolean }>(
          `select id, topic, published_at is not null as published from "${schema}".outbox where created_at >= $1`,
          [t0],
        );
        events.push(...rows.rows.map((r) => ({ schema, ...r })));
      }
      const processed = new Set<string>();
      for (const schema of new Set(consumers.map((c) => c.subgraph))) {
        const rows = await pg.query<{ consumer: string; event_id: string; n: string }>(
          `select consumer, event_id, count(*) as n from "${schema}".processed_events where processed_at >= $1 group by 1, 2`,
          [t0],
        );
        for (const r of rows.rows) if (Number(r.n) === 1) processed.add(`${r.consumer}/${r.event_id}`);
      }
      missing = [];
      for (const e of events) {
        for (const c of consumers.filter((c) => c.consumer.topics.includes(e.topic))) {
          if (!processed.has(`${c.consumer.name}/${e.id}`)) missing.push(`${c.consumer.name}/${e.topic}/${e.id}`);
        }
      }
      pending = events.filter((e) => !e.published).length + missing.length;
      if (pending === 0) break;
      await sleep(1000);
    }
    check(events.length > 0 && events.every((e) => e.published), `every outbox event was relayed (${events.length} events)`);
    check(
      missing.length === 0,
      `every consumer applied each of its events exactly once (${missing.slice(0, 5).join(', ') || 'none missing'})`,
    );
    const created = events.filter((e) => e.topic === 'svc.patient.created');
    const patientRows = [...counts.values()].reduce((a, b) => a + b, 0);
    check(created.length === patientRows, `one patient_created event per patient (${created.length} events, ${patientRows} patients)`);
    const dead = await pg.query<{ n: string }>('select count(*) as n from platform.dead_letters where created_at >= $1', [t0]);
    check(Number(dead.rows[0].n) === 0, 'no dead letters');

    // Scheduled jobs: one run per scheduled time across both worker processes.
    const scheduled = new Queue('scheduled', { connection: redis, prefix: `${PREFIX}:bull:{scheduled}` });
    const runs = await scheduled.getJobs(['completed', 'failed'], 0, 1000);
    const ids = new Set(runs.map((j) => j.id));
    const rerun = runs.filter((j) => j.attemptsMade > 1 || (j.stalledCounter ?? 0) > 0);
    check(
      ids.size === runs.length,
      `each scheduled time ran as one job across both worker processes (${runs.length} runs, ${rerun.length} taken over from the killed worker)`,
    );
    await scheduled.close();
    console.log(
      `     ${writes.length} registrations, ${events.length} events, ${((Date.now() - started) / 1000).toFixed(0)} s after start`,
    );
  } finally {
    await pg.end();
    redis.disconnect();
    if (!reuse && process.env.CLUSTER_KEEP !== '1') cluster('stop');
  }
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed`);
    process.exit(1);
  }
  console.log('\nexactly-once: all checks passed');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
