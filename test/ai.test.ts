import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clock } from '../shared/clock';
import { OutboxEvent } from '../shared/outbox';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { flushAudit } from '../shared/audit/audit-trail';
import { LabResult, LabResultReviewStatus } from '../subgraphs/clinical/labs/lab.entity';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };
let admin: Api;
let orgAdmin: SignedUp;

/** A tiny model server on loopback speaking the Open Inference Protocol and OpenAI-compatible chat completions. */
interface Seen {
  path: string;
  authorization?: string;
  body: any;
}
let server: Server;
let base: string;
let unreachable: string;
const seen: Seen[] = [];

function modelServer(req: IncomingMessage, res: ServerResponse) {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const body = raw ? JSON.parse(raw) : null;
    seen.push({ path: req.url!, authorization: req.headers.authorization, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const infer = /^\/v2\/models\/([^/]+)\/infer$/.exec(req.url!);
    if (infer?.[1] === 'slow') return void setTimeout(() => json(200, { model_name: 'slow', outputs: [] }), 5000).unref();
    if (infer?.[1] === 'broken') return json(500, { error: 'CUDA out of memory' });
    if (infer?.[1] === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('not json at all');
    }
    if (infer?.[1] === 'wrong-shape') return json(200, { model_name: 'x', result: 'malignant' });
    if (infer?.[1] === 'moved') {
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
      return void res.end();
    }
    if (infer) {
      return json(200, {
        model_name: decodeURIComponent(infer[1]),
        model_version: '3',
        id: body.id,
        outputs: [{ name: 'probabilities', shape: [1, 2], datatype: 'FP32', data: [0.12, 0.88] }],
      });
    }
    if (req.url === '/v1/chat/completions') {
      return json(200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `Echo: ${JSON.stringify(body.messages.at(-1).content).slice(0, 80)}` },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    }
    json(404, { error: 'not found' });
  });
}

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  admin = await signInAdmin(app.api);
  orgAdmin = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, orgAdmin.user.id, 'ORG:ADMIN');
  server = createServer(modelServer);
  base = await listen(server);
  const closed = createServer();
  unreachable = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  clock.reset();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

let seq = 0;
async function register(fields: Record<string, unknown>): Promise<any> {
  const res = await admin.post('/api/ai/models', {
    name: `model-${++seq}`,
    version: '1.0.0',
    task: 'general',
    runtime: 'kserve_v2',
    endpoint: base,
    validation_reference: 'Local evaluation on 500 cases, 2026 (test fixture)',
    timeout_ms: 2000,
    ...fields,
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return res.body.data;
}

async function newPatient(fields: Record<string, unknown> = {}): Promise<string> {
  const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
    ...SAMPLE_PATIENT,
    email: `${randomUUID().slice(0, 8)}@example.test`,
    ...fields,
  });
  if (res.status !== 201) throw new Error(`patient: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** The audit rows of AI calls to one model. */
async function auditsOf(modelId: string): Promise<AuditEvent[]> {
  await flushAudit(app.em('clinical'));
  return app.em('clinical').find(AuditEvent, { action: 'ai_inference', resourceId: modelId }, { orderBy: { createdAt: 'asc' } });
}

const DISCLAIMER = /supports and does not replace clinical judgement/;

describe('built-in models', () => {
  it('differential diagnosis names the model, its version, the inputs used and the disclaimer; every call is audited', async () => {
    const res = await c.doctor.api.post('/api/ai/diagnosis', {
      symptoms: ['fever', 'rigors', 'headache', 'body aches', 'purple elbows'],
      age: 30,
      sex: 'female',
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.model).toMatchObject({
      name: 'ccp-differential-kb',
      version: '1.0.0',
      task: 'diagnosis',
      runtime: 'builtin',
      validation_reference: expect.stringMatching(/Not clinically validated/),
    });
    expect(data.disclaimer).toMatch(DISCLAIMER);
    expect(data.inputs_used).toMatchObject({ symptoms: ['fever', 'chills', 'headache', 'muscle_pain'], age: 30, sex: 'female' });
    expect(data.unrecognized_symptoms).toEqual(['purple elbows']);
    expect(data.differential[0]).toMatchObject({
      condition: 'Malaria',
      icd10: 'B54',
      match_score: expect.any(Number),
      source: expect.stringMatching(/who\.int/),
    });
    expect(data.differential.length).toBeLessThanOrEqual(5);
    const [audit] = (await auditsOf(data.model.id)).slice(-1);
    expect(audit).toMatchObject({
      actorId: c.doctor.user.id,
      details: { task: 'diagnosis', model: 'ccp-differential-kb', version: '1.0.0', outcome: 'ok' },
    });
  });

  it("takes age and sex from the patient, audits the call on the patient's record, and hides patients from outsiders", async () => {
    const patientId = await newPatient();
    const res = await c.nurse.api.post('/api/ai/diagnosis', { symptoms: ['stiff neck', 'fever', 'headache'], patient_id: patientId });
    expect(res.body.data.inputs_used).toMatchObject({ age: expect.any(Number), sex: 'female' });
    expect(res.body.data.differential[0]).toMatchObject({ condition: 'Meningitis', urgency: 'emergency', red_flags: ['neck stiffness'] });
    const audits = await auditsOf(res.body.data.model.id);
    expect(audits.some((a) => a.patientId === patientId)).toBe(true);
    expect((await stranger.api.post('/api/ai/diagnosis', { symptoms: ['fever'], patient_id: patientId })).status).toBe(404);
    expect((await c.billing.api.post('/api/ai/diagnosis', { symptoms: ['fever'], patient_id: patientId })).status).toBe(403);
  });

  it('refuses anonymous callers and bad input', async () => {
    expect((await app.api.post('/api/ai/diagnosis', { symptoms: ['fever'] })).status).toBe(401);
    const field = async (path: string, body: unknown) => {
      const res = await c.doctor.api.post(path, body);
      expect(res.status).toBe(400);
      return res.body.error.details?.[0]?.field;
    };
    expect(await field('/api/ai/diagnosis', { symptoms: [] })).toBe('symptoms');
    expect(await field('/api/ai/diagnosis', {})).toBe('symptoms');
    expect(await field('/api/ai/diagnosis', { symptoms: ['fever'], age: 200 })).toBe('age');
    expect(await field('/api/ai/diagnosis', { symptoms: ['fever'], sex: 'x' })).toBe('sex');
    expect(await field('/api/ai/diagnosis', { symptoms: ['fever'], max_results: 0 })).toBe('max_results');
    expect(await field('/api/ai/lab-interpretation', {})).toBe('results');
    expect(await field('/api/ai/lab-interpretation', { results: [{ code: '718-7', value: 'low', unit: 'g/dL' }] })).toBe(
      'results[0].value',
    );
    expect(await field('/api/ai/risk-stratification', {})).toBe('pooled_cohort_equations');
    expect(await field('/api/ai/risk-stratification', { qsofa: { respiratory_rate: 22, systolic_blood_pressure: 100 } })).toBe(
      'qsofa.altered_mentation',
    );
    expect((await c.doctor.api.post('/api/ai/diagnosis', { symptoms: ['fever'], model_id: randomUUID() })).status).toBe(404);
  });

  it('interprets lab results against reference intervals and panic limits, with patterns', async () => {
    const res = await c.doctor.api.post('/api/ai/lab-interpretation', {
      sex: 'female',
      results: [
        { code: '718-7', value: 9.1, unit: 'g/dL' },
        { name: 'MCV', value: 71, unit: 'fL' },
        { code: '2823-3', value: 6.6, unit: 'mmol/L', reference_range: '3.5-5.1' },
        { code: '9999-9', value: 1, unit: 'x' },
      ],
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.model).toMatchObject({ name: 'ccp-lab-rules', version: '1.0.0' });
    expect(data.disclaimer).toMatch(DISCLAIMER);
    expect(data.results.map((r: { status: string }) => r.status)).toEqual(['low', 'low', 'critical_high', 'unknown']);
    expect(data.results[2]).toMatchObject({ critical: true, reference_source: 'laboratory', low: 3.5, high: 5.1 });
    expect(data.patterns.map((p: { key: string }) => p.key)).toEqual(['anaemia', 'hyperkalaemia']);
    expect(data.patterns[0].name).toMatch(/^Microcytic anaemia, moderate/);
    expect(data.patterns[0].source).toMatch(/WHO/);
  });

  it("with a patient only, reads the patient's latest results", async () => {
    const patientId = await newPatient();
    const em = app.em('clinical');
    for (const [code, display, value, unit, minutes] of [
      ['718-7', 'Hemoglobin', 12.9, 'g/dL', 60],
      ['718-7', 'Hemoglobin', 7.4, 'g/dL', 5],
      ['787-2', 'MCV', 104, 'fL', 5],
    ] as const) {
      em.create(LabResult, {
        labOrderId: randomUUID(),
        patientId,
        organizationId: c.orgId,
        code,
        codeSystem: 'LN',
        display,
        valueType: 'NM',
        value: String(value),
        numericValue: value,
        unit,
        abnormal: false,
        critical: false,
        resultStatus: 'F',
        observedAt: new Date(Date.now() - minutes * 60_000),
        messageControlId: randomUUID(),
        sequence: 1,
        reviewStatus: LabResultReviewStatus.not_required,
      });
    }
    await em.flush();
    const res = await c.doctor.api.post('/api/ai/lab-interpretation', { patient_id: patientId });
    expect(res.status).toBe(200);
    expect(res.body.data.inputs_used).toMatchObject({ results_from: 'patient_record', sex: 'female' });
    // Both results came in one message with the same sequence: their order is not the point here.
    expect(res.body.data.results.map((r: { value: number }) => r.value).sort((a: number, b: number) => a - b)).toEqual([7.4, 104]);
    expect(res.body.data.patterns[0].name).toMatch(/^Macrocytic anaemia, severe/);
    const empty = await newPatient();
    expect((await c.doctor.api.post('/api/ai/lab-interpretation', { patient_id: empty })).body.error.details[0].field).toBe('results');
  });

  it('computes the validated scores with their sources', async () => {
    const res = await c.doctor.api.post('/api/ai/risk-stratification', {
      pooled_cohort_equations: {
        age: 55,
        sex: 'male',
        race: 'african_american',
        total_cholesterol: 213,
        hdl_cholesterol: 50,
        systolic_blood_pressure: 120,
        treated_for_hypertension: false,
        smoker: false,
        diabetes: false,
      },
      cha2ds2_vasc: {
        age: 72,
        sex: 'female',
        congestive_heart_failure: false,
        hypertension: true,
        diabetes: true,
        stroke_or_tia: false,
        vascular_disease: false,
      },
      qsofa: { respiratory_rate: 24, systolic_blood_pressure: 95, altered_mentation: false },
      lace: { length_of_stay_days: 5, acute_admission: true, charlson_index: 2, emergency_visits: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.model).toMatchObject({ name: 'ccp-risk-scores', version: '1.0.0' });
    expect(res.body.data.scores.map((s: { score: string; value: number; category: string }) => [s.score, s.value, s.category])).toEqual([
      ['pooled_cohort_equations', 6.1, 'borderline'],
      ['cha2ds2_vasc', 4, 'high'],
      ['qsofa', 2, 'high'],
      ['lace', 10, 'high'],
    ]);
    expect(res.body.data.scores[0].source).toMatch(/Goff/);
    expect(res.body.data.scores[3].inputs.points).toEqual({ length_of_stay: 4, acuity: 3, comorbidity: 2, emergency_visits: 1 });
  });

  it('fills age and sex from the patient; a high qSOFA for a patient raises a critical score once', async () => {
    const patientId = await newPatient({ date_of_birth: '1950-03-01' });
    const qsofa = { respiratory_rate: 26, systolic_blood_pressure: 90, altered_mentation: true };
    const res = await c.doctor.api.post('/api/ai/risk-stratification', {
      patient_id: patientId,
      cha2ds2_vasc: {
        congestive_heart_failure: false,
        hypertension: false,
        diabetes: false,
        stroke_or_tia: false,
        vascular_disease: false,
      },
      qsofa,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.scores[0]).toMatchObject({ score: 'cha2ds2_vasc', value: 3, inputs: { sex: 'female', age: expect.any(Number) } });
    await c.doctor.api.post('/api/ai/risk-stratification', { patient_id: patientId, qsofa });
    const events = await app.em('clinical').find(OutboxEvent, { topic: 'svc.cds.critical_score', payload: { patient_id: patientId } });
    expect(events.map((e) => e.payload)).toEqual([expect.objectContaining({ score: 'qsofa', value: 3, risk: 'high' })]);
    // The pooled cohort equations are not extrapolated outside 40-79 years.
    const young = await newPatient({ date_of_birth: '2000-01-01' });
    const pce = {
      race: 'white',
      total_cholesterol: 200,
      hdl_cholesterol: 50,
      systolic_blood_pressure: 120,
      treated_for_hypertension: false,
      smoker: false,
      diabetes: false,
    };
    const out = await c.doctor.api.post('/api/ai/risk-stratification', { patient_id: young, pooled_cohort_equations: pce });
    expect(out.status).toBe(400);
    expect(out.body.error.details[0].field).toBe('pooled_cohort_equations.age');
    expect((await c.doctor.api.post('/api/ai/risk-stratification', { pooled_cohort_equations: pce })).body.error.details[0].field).toBe(
      'pooled_cohort_equations.age',
    );
  });
});

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('external models', () => {
  it('cancer detection without an image model says so clearly (503) and invents nothing', async () => {
    const res = await c.doctor.api.post('/api/ai/cancer-detection', { image_base64: PNG, content_type: 'image/png' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/No cancer detection model is registered.*will not invent a result/),
      },
    });
  });

  it('cancer detection runs a registered KServe v2 image model at its address, and answers what it said', async () => {
    const model = await register({ name: 'derm-lesion-classifier', version: '2.1.0', task: 'cancer_detection', remote_model: 'derm' });
    const before = seen.length;
    const res = await c.doctor.api.post('/api/ai/cancer-detection', {
      image_base64: PNG,
      content_type: 'image/png',
      body_site: 'skin',
      modality: 'dermoscopy',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.model).toMatchObject({ id: model.id, name: 'derm-lesion-classifier', version: '2.1.0', runtime: 'kserve_v2' });
    expect(res.body.data.output).toMatchObject({ model_name: 'derm', outputs: [{ name: 'probabilities', data: [0.12, 0.88] }] });
    expect(res.body.data.inputs_used).toMatchObject({
      content_type: 'image/png',
      image_bytes: expect.any(Number),
      image_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(res.body.data.disclaimer).toMatch(DISCLAIMER);
    const call = seen.slice(before)[0];
    expect(call.path).toBe('/v2/models/derm/infer');
    expect(call.body.inputs[0]).toMatchObject({ name: 'image', datatype: 'BYTES', shape: [1], data: [PNG] });
    const field = async (body: Record<string, unknown>) =>
      (await c.doctor.api.post('/api/ai/cancer-detection', { image_base64: PNG, content_type: 'image/png', ...body })).body.error.details[0]
        .field;
    expect(await field({ image_base64: 'not base64!' })).toBe('image_base64');
    expect(await field({ content_type: 'image/jpeg' })).toBe('image_base64');
    expect(await field({ content_type: 'image/gif' })).toBe('content_type');
  });

  it('cloud inference calls an OpenAI-compatible model with its stored key, and a KServe model with tensors', async () => {
    const chat = await register({
      name: 'clinical-summariser',
      runtime: 'openai',
      endpoint: `${base}/v1`,
      remote_model: 'llama-3-8b',
      api_key: 'sk-test-123',
    });
    expect(chat).toMatchObject({ has_credential: true, endpoint: `${base}/v1` });
    expect(JSON.stringify(chat)).not.toMatch(/sk-test-123/);
    const before = seen.length;
    const res = await c.doctor.api.post('/api/ai/cloud-inference', {
      model_id: chat.id,
      messages: [{ role: 'user', content: 'Summarise: fever for 3 days.' }],
      parameters: { temperature: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      model: { id: chat.id, name: 'clinical-summariser', version: '1.0.0' },
      text: expect.stringMatching(/^Echo: /),
      output: { finish_reason: 'stop' },
    });
    expect(seen.slice(before)[0]).toMatchObject({
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-test-123',
      body: { model: 'llama-3-8b', temperature: 0 },
    });

    const tensor = await register({ name: 'sepsis-net' });
    const out = await c.doctor.api.post('/api/ai/cloud-inference', {
      model_id: tensor.id,
      inputs: [{ name: 'vitals', shape: [1, 3], datatype: 'FP32', data: [120, 24, 38.9] }],
    });
    expect(out.status).toBe(200);
    expect(out.body.data.output.outputs[0].data).toEqual([0.12, 0.88]);
    expect(out.body.data.inputs_used).toEqual({ inputs: [{ name: 'vitals', shape: [1, 3], datatype: 'FP32' }], parameters: null });
  });

  it('a model that fails is a 502 and one that does not answer in time a 504, each audited', async () => {
    const call = async (remote: string, timeout = 2000, endpoint = base) => {
      const m = await register({ remote_model: remote, timeout_ms: timeout, endpoint });
      const res = await c.doctor.api.post('/api/ai/cloud-inference', {
        model_id: m.id,
        inputs: [{ name: 'x', shape: [1], datatype: 'FP32', data: [1] }],
      });
      const [audit] = await auditsOf(m.id);
      return { status: res.status, code: res.body.error?.code, message: res.body.error?.message, outcome: audit?.details.outcome };
    };
    expect(await call('broken')).toMatchObject({
      status: 502,
      code: 'BAD_GATEWAY',
      message: expect.stringMatching(/HTTP 500.*CUDA out of memory/),
      outcome: 'bad_gateway',
    });
    expect(await call('garbage')).toMatchObject({ status: 502, message: expect.stringMatching(/not JSON/) });
    expect(await call('wrong-shape')).toMatchObject({
      status: 502,
      message: expect.stringMatching(/not an Open Inference Protocol response/),
    });
    expect(await call('moved')).toMatchObject({ status: 502, message: expect.stringMatching(/redirect.*only the registered address/) });
    expect(await call('anything', 2000, unreachable)).toMatchObject({
      status: 502,
      message: expect.stringMatching(/could not be reached/),
    });
    expect(await call('slow', 200)).toMatchObject({
      status: 504,
      code: 'GATEWAY_TIMEOUT',
      message: expect.stringMatching(/did not answer within 200 ms/),
      outcome: 'gateway_timeout',
    });
  });

  it('checks cloud inference input against the model it names', async () => {
    const tensor = await register({ name: 'checker' });
    const chat = await register({ name: 'chatter', runtime: 'openai', endpoint: `${base}/v1` });
    const builtin = (await c.doctor.api.get('/api/ai/model-info?name=ccp-risk-scores')).body.data[0];
    const field = async (body: Record<string, unknown>) => {
      const res = await c.doctor.api.post('/api/ai/cloud-inference', body);
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ model_id: tensor.id })).toBe('inputs');
    expect(await field({ model_id: tensor.id, inputs: [{ name: 'x', shape: [2], datatype: 'FP32', data: [1] }] })).toBe('inputs.0.data');
    expect(await field({ model_id: tensor.id, inputs: [{ name: 'x', shape: [1], datatype: 'FLOAT', data: [1] }] })).toBe('inputs.0');
    expect(await field({ model_id: tensor.id, inputs: { name: 'x' } })).toBe('inputs');
    expect(await field({ model_id: chat.id })).toBe('messages');
    expect(await field({ model_id: chat.id, messages: [{ role: 'robot', content: 'hi' }] })).toBe('messages.0.role');
    expect(await field({ model_id: builtin.id, inputs: [] })).toBe('model_id');
    expect(await field({ model_id: tensor.id, inputs: [{ name: 'x', shape: [1], datatype: 'FP32', data: [1] }], parameters: [1] })).toBe(
      'parameters',
    );
    expect((await c.doctor.api.post('/api/ai/cloud-inference', { model_id: randomUUID(), inputs: [] })).status).toBe(404);
    expect((await app.api.post('/api/ai/cloud-inference', { model_id: tensor.id })).status).toBe(401);
  });

  it('a registered chat model can serve a built-in task when asked for by id; its answer is its own text', async () => {
    const m = await register({ name: 'dx-llm', task: 'diagnosis', runtime: 'openai', endpoint: `${base}/v1` });
    const res = await c.doctor.api.post('/api/ai/diagnosis', { symptoms: ['fever', 'cough'], model_id: m.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      model: { id: m.id, runtime: 'openai' },
      differential: [],
      text: expect.stringMatching(/^Echo: /),
    });
    // The built-in model stays the default; a model of another task is refused.
    expect((await c.doctor.api.post('/api/ai/diagnosis', { symptoms: ['fever'] })).body.data.model.name).toBe('ccp-differential-kb');
    expect(
      (await c.doctor.api.post('/api/ai/lab-interpretation', { results: [{ code: '718-7', value: 9, unit: 'g/dL' }], model_id: m.id })).body
        .error.details[0].field,
    ).toBe('model_id');
  });
});

describe('model registry', () => {
  const valid = {
    name: 'cxr-tb',
    version: '0.9.0',
    task: 'cancer_detection',
    runtime: 'kserve_v2',
    endpoint: 'http://127.0.0.1:1/models',
    validation_reference: 'Not yet validated locally',
  };

  it('administrators register models; a name and version once', async () => {
    const res = await admin.post('/api/ai/models', valid);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...valid,
      status: 'active',
      timeout_ms: 10000,
      remote_model: 'cxr-tb',
      has_credential: false,
      registered_by: expect.any(String),
    });
    const again = await admin.post('/api/ai/models', valid);
    expect(again.status).toBe(409);
    expect((await admin.post('/api/ai/models', { ...valid, version: '1.0.0' })).status).toBe(201);
  });

  it('answers GraphQL clients a name and version already registered and a bad field as userErrors, the model null', async () => {
    const create = `mutation($input: CreateAiModelInput!) {
      createAiModel(input: $input) { aiModel { name version } userErrors { field message code } }
    }`;
    const name = `gql-${randomUUID().slice(0, 8)}`;
    const input = {
      name,
      version: '1',
      task: 'cancer_detection',
      runtime: 'kserve_v2',
      endpoint: valid.endpoint,
      validationReference: 'None',
    };
    const first = await admin.graphql(create, { input });
    expect(first.body.data.createAiModel).toEqual({ aiModel: { name, version: '1' }, userErrors: [] });
    const again = await admin.graphql(create, { input });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.createAiModel).toEqual({
      aiModel: null,
      userErrors: [{ field: null, message: `Model ${name} 1 is already registered; register a new version`, code: 'DUPLICATE' }],
    });
    const builtin = await admin.graphql(create, { input: { ...input, version: '2', runtime: 'builtin' } });
    expect(builtin.body.data.createAiModel).toEqual({
      aiModel: null,
      userErrors: [{ field: ['input', 'runtime'], message: expect.stringMatching(/^must be kserve_v2 or openai/), code: 'INVALID' }],
    });
  });

  it('refuses other callers and bad registrations', async () => {
    expect((await c.doctor.api.post('/api/ai/models', { ...valid, version: '5' })).status).toBe(403);
    expect((await app.api.post('/api/ai/models', { ...valid, version: '5' })).status).toBe(401);
    const field = async (body: Record<string, unknown>) => {
      const res = await admin.post('/api/ai/models', { ...valid, version: randomUUID().slice(0, 8), ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ endpoint: 'ftp://models.local/x' })).toBe('endpoint');
    expect(await field({ endpoint: 'not a url' })).toBe('endpoint');
    expect(await field({ endpoint: 'http://user:pw@127.0.0.1/' })).toBe('endpoint');
    expect(await field({ runtime: 'builtin' })).toBe('runtime');
    expect(await field({ runtime: 'pytorch' })).toBe('runtime');
    expect(await field({ task: 'astrology' })).toBe('task');
    expect(await field({ name: 'has spaces' })).toBe('name');
    expect(await field({ timeout_ms: 50 })).toBe('timeout_ms');
    expect(await field({ validation_reference: '' })).toBe('validation_reference');
  });

  it('lists the registry (endpoints for its administrators only) and public model metadata', async () => {
    const mine = await c.doctor.api.get('/api/ai/models?limit=100');
    expect(mine.status).toBe(200);
    const names = mine.body.data.map((m: { name: string }) => m.name);
    expect(names).toEqual(expect.arrayContaining(['ccp-differential-kb', 'ccp-lab-rules', 'ccp-risk-scores']));
    expect(mine.body.data.every((m: { endpoint: string | null }) => m.endpoint === null)).toBe(true);
    const asAdmin = await admin.get('/api/ai/models?task=cancer_detection&limit=100');
    expect(asAdmin.body.data.every((m: { task: string }) => m.task === 'cancer_detection')).toBe(true);
    expect(asAdmin.body.data.some((m: { endpoint: string | null }) => m.endpoint?.startsWith('http://127.0.0.1'))).toBe(true);
    const info = await app.api.get('/api/ai/model-info?task=risk_stratification');
    expect(info.status).toBe(200);
    expect(info.body.data).toEqual([
      expect.objectContaining({
        name: 'ccp-risk-scores',
        version: '1.0.0',
        runtime: 'builtin',
        validation_reference: expect.stringMatching(/Goff.*Lip.*Seymour.*van Walraven/),
      }),
    ]);
    expect(info.body.data[0]).not.toHaveProperty('endpoint');
    expect(info.body.meta).toMatchObject({ total: 1 });
    expect((await app.api.get(`/api/ai/model-info?model_id=${info.body.data[0].id}`)).body.data.map((m: { id: string }) => m.id)).toEqual([
      info.body.data[0].id,
    ]);
    expect((await app.api.get('/api/ai/model-info?model_id=nope')).status).toBe(400);
    expect((await app.api.get('/api/ai/models')).status).toBe(401);
    expect((await app.api.get('/api/ai/model-info?task=x')).status).toBe(400);
  });
});

describe('edge devices', () => {
  let modelId: string;
  beforeAll(async () => {
    modelId = (await register({ name: 'edge-malaria-smear', version: '4.2.0', task: 'general' })).id;
  });
  afterEach(() => clock.reset());

  const device = (fields: Record<string, unknown> = {}) => ({
    organization_id: c.orgId,
    serial_number: 'SN-1001',
    name: 'Lab microscope camera',
    model_id: modelId,
    heartbeat_interval_seconds: 60,
    ...fields,
  });

  it('registers, beats and goes offline when the heartbeats stop', async () => {
    const res = await orgAdmin.api.post('/api/ai/devices/register', device({ location: 'Lab 2' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      serial_number: 'SN-1001',
      status: 'registered',
      online: false,
      model: { id: modelId, version: '4.2.0' },
      model_up_to_date: null,
      last_heartbeat_at: null,
    });
    const id = res.body.data.id;
    const beat = await orgAdmin.api.post(`/api/ai/devices/${id}/heartbeat`, { model_version: '4.1.0', status: 'running', message: 'ok' });
    expect(beat.status).toBe(200);
    expect(beat.body.data).toMatchObject({
      status: 'running',
      online: true,
      reported_model_version: '4.1.0',
      model_up_to_date: false,
      last_message: 'ok',
    });
    clock.advance(170_000);
    expect(
      (await orgAdmin.api.get(`/api/ai/devices?organization_id=${c.orgId}`)).body.data.find((d: { id: string }) => d.id === id).status,
    ).toBe('running');
    clock.advance(20_000); // three intervals of 60 s have passed without a heartbeat
    const later = await c.nurse.api.get(`/api/ai/devices?organization_id=${c.orgId}&online=false`);
    expect(later.body.data.find((d: { id: string }) => d.id === id)).toMatchObject({ status: 'offline', online: false });
    expect(
      (await c.nurse.api.get(`/api/ai/devices?organization_id=${c.orgId}&online=true`)).body.data.map((d: { id: string }) => d.id),
    ).not.toContain(id);
    const back = await orgAdmin.api.post(`/api/ai/devices/${id}/heartbeat`, { model_version: '4.2.0', status: 'idle' });
    expect(back.body.data).toMatchObject({ status: 'idle', online: true, model_up_to_date: true });
    expect((await c.nurse.api.get(`/api/ai/devices?online=true`)).body.data.map((d: { id: string }) => d.id)).toContain(id);
    // Registering the same serial number again updates the device.
    const again = await orgAdmin.api.post('/api/ai/devices/register', device({ name: 'Renamed camera' }));
    expect(again.body.data).toMatchObject({ id, name: 'Renamed camera' });
  });

  it("a device's own API key sends its heartbeats", async () => {
    const id = (await orgAdmin.api.post('/api/ai/devices/register', device({ serial_number: 'SN-KEY' }))).body.data.id;
    const key = await orgAdmin.api.post('/api/developer/keys', {
      name: 'Microscope SN-KEY',
      scopes: ['ai-devices:write'],
      organization_id: c.orgId,
    });
    expect(key.status).toBe(201);
    const res = await app.api.post(
      `/api/ai/devices/${id}/heartbeat`,
      { model_version: '4.2.0', status: 'running' },
      { headers: { 'x-api-key': key.body.data.key } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.online).toBe(true);
  });

  it('keeps devices within their organization', async () => {
    const id = (await orgAdmin.api.post('/api/ai/devices/register', device({ serial_number: 'SN-PRIVATE' }))).body.data.id;
    expect((await stranger.api.post('/api/ai/devices/register', device({ serial_number: 'X' }))).status).toBe(404);
    expect((await stranger.api.post(`/api/ai/devices/${id}/heartbeat`, { model_version: '1', status: 'running' })).status).toBe(404);
    expect((await stranger.api.get(`/api/ai/devices?organization_id=${c.orgId}`)).status).toBe(404);
    expect((await stranger.api.get('/api/ai/devices')).body.data.map((d: { id: string }) => d.id)).not.toContain(id);
    expect((await c.nurse.api.post('/api/ai/devices/register', device({ serial_number: 'Y' }))).status).toBe(403);
    expect((await c.nurse.api.post(`/api/ai/devices/${id}/heartbeat`, { model_version: '1', status: 'running' })).status).toBe(403);
    expect((await app.api.get('/api/ai/devices')).status).toBe(401);
  });

  it('validates registrations and heartbeats', async () => {
    const id = (await orgAdmin.api.post('/api/ai/devices/register', device({ serial_number: 'SN-V' }))).body.data.id;
    const field = async (path: string, body: unknown) => {
      const res = await orgAdmin.api.post(path, body);
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field('/api/ai/devices/register', device({ model_id: randomUUID() }))).toBe('model_id');
    expect(await field('/api/ai/devices/register', device({ heartbeat_interval_seconds: 1 }))).toBe('heartbeat_interval_seconds');
    expect(await field('/api/ai/devices/register', device({ serial_number: ' ' }))).toBe('serial_number');
    expect(await field(`/api/ai/devices/${id}/heartbeat`, { model_version: '1', status: 'sleeping' })).toBe('status');
    expect(await field(`/api/ai/devices/${id}/heartbeat`, { status: 'running' })).toBe('model_version');
    expect((await orgAdmin.api.post(`/api/ai/devices/${randomUUID()}/heartbeat`, { model_version: '1', status: 'running' })).status).toBe(
      404,
    );
    expect((await orgAdmin.api.post('/api/ai/devices/not-a-uuid/heartbeat', { model_version: '1', status: 'running' })).status).toBe(404);
    expect((await orgAdmin.api.post('/api/ai/devices/register', device({ organization_id: 'nope' }))).status).toBe(400);
  });
});
