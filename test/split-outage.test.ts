import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUBGRAPH_NAMES } from '../shared/config';
import { REPO_ROOT } from '../shared/paths';
import { SUBGRAPHS } from '../subgraphs';
import { Api, SAMPLE_PATIENT, signUp, type SignedUp } from './support/app';
import { spawnSplit } from './support/split';

/**
 * Split mode as an operator runs it (`npm run start:split`, the built entrypoints), with one subgraph killed: the
 * others keep answering, the dead one's REST paths answer 503 with Retry-After, GraphQL answers everything but its
 * fields, and the supervisor brings it back by itself (docs/operations.md, "What degrades").
 */
const BIN = join(REPO_ROOT, 'dist', 'bin');

/**
 * The supervisor waits this long before restarting the killed subgraph: the outage the test looks at lasts at
 * least this long, so its checks never race the restart (the restart itself then takes as long as a start).
 */
const RESTART_DELAY_MS = 5000;

let split: ChildProcess;
let api: Api;
let stderr = '';
let doctor: SignedUp;
let orgId: string;
let patientId: string;
let invoiceId: string;

/** The pid of the supervisor's child running `script` with `arg` (Linux: read from /proc). */
function childPid(parent: number, script: string, arg: string): number {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (ppid === parent && argv.some((a) => a.endsWith(script)) && argv.includes(arg)) return Number(entry);
    } catch {
      /* the process ended while we looked */
    }
  }
  throw new Error(`no child ${script} ${arg} of ${parent}`);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, attempts = 600): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (split.exitCode !== null) throw new Error(`split mode exited while waiting for ${what}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const CHART = 'query($id: ID!) { me { id } patient(id: $id) { id mrn organization { name } invoices { id } } }';

beforeAll(async () => {
  if (!existsSync(join(BIN, 'split.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it)');
  const started = await spawnSplit({ SPLIT_RESTART_DELAY_MS: String(RESTART_DELAY_MS) }, ['ignore', 'ignore', 'pipe']);
  split = started.child;
  const port = started.port;
  split.stderr!.on('data', (d) => (stderr += d));
  api = new Api(`http://127.0.0.1:${port}`);
  // Five processes load the platform, build their schemas and check migrations: on a busy 2-core machine, minutes.
  await until('readiness', async () => ((await api.get('/ready')).status === 200 ? true : undefined), 2400);

  doctor = await signUp(api, { registration_role: 'DOCTOR' });
  orgId = (await doctor.api.post('/api/organizations', { name: 'Outage Clinic' })).body.data.id;
  patientId = (await doctor.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT)).body.data.id;
  const invoice = await doctor.api.post(`/api/organizations/${orgId}/invoices`, {
    currency: 'KES',
    patient_id: patientId,
    items: [{ description: 'Consultation', unit_price: '1500' }],
  });
  expect(invoice.status).toBe(201);
  invoiceId = invoice.body.data.id;
}, 240_000);

afterAll(async () => {
  if (split && split.exitCode === null) {
    const exited = new Promise((r) => split.once('exit', r));
    split.kill('SIGTERM');
    await exited;
  }
});

describe('split mode with a subgraph killed', () => {
  it('supervises the processes the subgraphs define', () => {
    expect([...SUBGRAPH_NAMES]).toEqual(SUBGRAPHS.map((s) => s.name));
  });

  it('answers the whole chart while every subgraph is up', async () => {
    const res = await doctor.api.graphql(CHART, { id: patientId });
    expect(res.body).toEqual({
      data: {
        me: { id: doctor.user.id },
        patient: { id: patientId, mrn: 'MRN-000001', organization: { name: 'Outage Clinic' }, invoices: [{ id: invoiceId }] },
      },
    });
  });

  it('keeps the others answering, answers 503 for the dead one, and brings it back by itself', async () => {
    const revenuePid = childPid(split.pid!, 'subgraph.js', 'revenue');
    process.kill(revenuePid, 'SIGKILL');
    await until('the supervisor to see the exit', async () =>
      /subgraph-revenue exited \(signal SIGKILL\)/.test(stderr) ? true : undefined,
    );
    expect(stderr).toMatch(/subgraph-revenue exited \(signal SIGKILL\) after \d+ ms; restart 1 in 5000 ms/);

    // The other subgraphs' REST paths answer as before.
    const patient = await doctor.api.get(`/api/patients/${patientId}`);
    expect(patient.status).toBe(200);
    expect(patient.body.data.id).toBe(patientId);
    expect((await doctor.api.get(`/api/organizations/${orgId}`)).status).toBe(200);

    // The dead subgraph's paths: 503 with the error envelope and Retry-After.
    const invoices = await doctor.api.get(`/api/organizations/${orgId}/invoices`);
    expect(invoices.status).toBe(503);
    expect(invoices.headers.get('retry-after')).toBe('5');
    expect(invoices.body).toEqual({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The revenue service is unavailable; retry shortly' },
    });
    const invoice = await doctor.api.get(`/api/rcm/invoices/${invoiceId}`);
    expect(invoice.status).toBe(503);
    expect(invoice.body.error.code).toBe('SERVICE_UNAVAILABLE');

    // GraphQL: the chart without its invoices, one error at that field's path.
    const chart = await doctor.api.graphql(CHART, { id: patientId });
    expect(chart.status).toBe(200);
    expect(chart.body.data).toEqual({
      me: { id: doctor.user.id },
      patient: { id: patientId, mrn: 'MRN-000001', organization: { name: 'Outage Clinic' }, invoices: null },
    });
    expect(chart.body.errors).toEqual([
      {
        message: 'The revenue service is unavailable; retry shortly',
        path: ['patient', 'invoices'],
        extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 },
      },
    ]);
    // A root field of the dead subgraph is null at its own path; the others' roots answer.
    const roots = await doctor.api.graphql('query($id: ID!) { me { id } invoice(id: $id) { id } }', { id: invoiceId });
    expect(roots.body.data).toEqual({ me: { id: doctor.user.id }, invoice: null });
    expect(roots.body.errors).toEqual([
      expect.objectContaining({ path: ['invoice'], extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 } }),
    ]);

    // The supervisor restarts it; it answers again, the gateway unchanged.
    const back = await until('the restarted subgraph', async () => {
      const res = await doctor.api.get(`/api/organizations/${orgId}/invoices`);
      return res.status === 200 ? res : undefined;
    });
    expect(back.body.data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    expect((await doctor.api.graphql(CHART, { id: patientId })).body.data.patient.invoices).toEqual([{ id: invoiceId }]);
    expect(split.exitCode).toBeNull();
  }, 90_000);

  it('stops every process on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => split.once('exit', (code) => r(code)));
    split.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
