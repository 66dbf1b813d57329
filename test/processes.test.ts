import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../shared/paths';
import { Api, SAMPLE_PATIENT, signUp, startApp, type TestApp } from './support/app';
import { freePort } from './support/redis-server';
import { spawnSplit } from './support/split';

/** These start the built entrypoints (`npm test` builds first), exactly as `npm start` and `npm run start:split` do. */
const BIN = join(REPO_ROOT, 'dist', 'bin');

beforeAll(() => {
  if (!existsSync(join(BIN, 'start.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it)');
});

// Loading the code alone takes a while on a busy machine: allow most of the test's own timeout.
function runUntilExit(script: string, env: Record<string, string>, timeoutMs = 50_000) {
  return new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(BIN, script)], { env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not exit: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('start-up failures are one clear line', () => {
  it('names an unreachable PostgreSQL and how to start it', async () => {
    const port = await freePort();
    const { code, stderr } = await runUntilExit('start.js', { DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/ccp` });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`postgres://postgres:***@127.0.0.1:${port}/ccp`);
    expect(stderr).toMatch(/Start it/);
    expect(stderr).not.toContain('secret');
  });

  it('names an unreachable Redis and how to start it', async () => {
    const port = await freePort();
    const { code, stderr } = await runUntilExit('start.js', { REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`redis://127.0.0.1:${port}`);
    expect(stderr).toMatch(/redis-server/);
  });

  it('rejects invalid configuration, naming the variable', async () => {
    const { code, stderr } = await runUntilExit('start.js', { PORT: 'eighty', REDIS_URL: 'http://nope' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/Invalid configuration: .*PORT/);
    expect(stderr).toMatch(/REDIS_URL/);
  });

  it.each([
    ['LOG_LEVEL', 'loud'],
    ['DB_POOL_MAX', 'lots'],
  ])('says a bad %s in one line, with no stack trace', async (name, value) => {
    const { code, stderr } = await runUntilExit('start.js', { [name]: value });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^platform: Invalid configuration: ${name}`))]);
  });
});

describe('split mode', () => {
  let app: TestApp;
  let split: ChildProcess;
  let splitApi: Api;

  beforeAll(async () => {
    app = await startApp();
    const started = await spawnSplit();
    split = started.child;
    const port = started.port;
    splitApi = new Api(`http://127.0.0.1:${port}`);
    for (let i = 0; ; i++) {
      const ready = await splitApi.get('/ready').catch(() => undefined);
      if (ready?.status === 200) break;
      if (i > 900 || split.exitCode !== null) throw new Error('split mode did not become ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Five processes start, build their schemas and migrate: on a busy 2-core machine that can take a minute.
  }, 240_000);

  afterAll(async () => {
    if (split && split.exitCode === null) {
      const exited = new Promise((r) => split.once('exit', r));
      split.kill('SIGTERM');
      await exited;
    }
    await app?.close();
  });

  it('answers REST calls exactly as the one-process mode does', async () => {
    const doctor = await signUp(splitApi, { registration_role: 'DOCTOR' });
    const created = await doctor.api.post('/api/patients', SAMPLE_PATIENT);
    expect(created.status).toBe(201);
    const viaSplit = await doctor.api.get(`/api/patients/${created.body.data.id}`);
    const inProcess = await app.api.as(doctor.token).get(`/api/patients/${created.body.data.id}`);
    expect(viaSplit.status).toBe(200);
    expect(viaSplit.body).toEqual(inProcess.body);
    const stranger = await signUp(splitApi);
    const hidden = await stranger.api.get(`/api/patients/${created.body.data.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual((await app.api.as(stranger.token).get(`/api/patients/${created.body.data.id}`)).body);
  });

  it('joins subgraphs over HTTP in GraphQL', async () => {
    const doctor = await signUp(splitApi, { registration_role: 'DOCTOR' });
    const org = await doctor.api.post('/api/organizations', { name: 'Split Clinic' });
    const patient = await doctor.api.post(`/api/organizations/${org.body.data.id}/patients`, SAMPLE_PATIENT);
    const res = await doctor.api.graphql('query($id: ID!) { patient(id: $id) { mrn organization { name } } }', {
      id: patient.body.data.id,
    });
    expect(res.body).toEqual({ data: { patient: { mrn: 'MRN-000001', organization: { name: 'Split Clinic' } } } });
  });

  it('asks the owning subgraph over HTTP about a patient named in an admission', async () => {
    const admin = await signUp(splitApi, { registration_role: 'DOCTOR' });
    const org = (await admin.api.post('/api/organizations', { name: 'Split Ward' })).body.data.id;
    const patient = await admin.api.post(`/api/organizations/${org}/patients`, SAMPLE_PATIENT);
    const room = await admin.api.post(`/api/organizations/${org}/rooms`, { name: 'Ward A', type: 'ward' });
    const admissions = `/api/organizations/${org}/admissions`;
    const admitted = await admin.api.post(admissions, { patient_id: patient.body.data.id, room_id: room.body.data.id });
    expect(admitted.status).toBe(201);
    const unknown = await admin.api.post(admissions, { patient_id: randomUUID(), room_id: room.body.data.id });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Patient not found');
  });

  it('stops every process on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => split.once('exit', (code) => r(code)));
    split.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
