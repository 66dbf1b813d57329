import { randomUUID } from 'node:crypto';
import { OutboxEvent } from '../shared/outbox';
import { LabResult } from '../subgraphs/clinical/labs/lab.entity';
import { signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

let app: TestApp;
let c: Clinic;
let tech: SignedUp;
let mrn: string;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  tech = await signUp(app.api, { registration_role: 'LAB_TECHNICIAN' });
  await addMember(app, c.orgId, tech.user.id, 'ORG:LAB_TECHNICIAN');
  mrn = (await c.doctor.api.get(`/api/patients/${c.patientId}`)).body.data.mrn;
});
afterAll(() => app.close());

const newOrder = async (fields: Record<string, unknown> = {}) => {
  const res = await c.doctor.api.post('/api/labs', { patient_id: c.patientId, test_type: 'cbc', priority: 'urgent', ...fields });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  return res.body.data as { id: string; status: string };
};

/** An ORU^R01 as a laboratory information system sends it (CR between segments). */
function oru(o: { order: string; patient?: string; obx: string[]; controlId?: string; type?: string }): {
  text: string;
  controlId: string;
} {
  const controlId = o.controlId ?? `MSG${randomUUID().slice(0, 8)}`;
  const text = [
    `MSH|^~\\&|LIS|CENTRAL LAB|CCP|CLINIC|20261122083000||${o.type ?? 'ORU^R01^ORU_R01'}|${controlId}|P|2.5.1`,
    `PID|1||${o.patient ?? mrn}^^^CLINIC^MR||Odhiambo^Amina||19880615|F`,
    `ORC|RE|${o.order}`,
    `OBR|1|${o.order}|LAB-778|58410-2^CBC panel^LN|||20261122080000`,
    ...o.obx,
  ].join('\r');
  return { text, controlId };
}

const HGB = 'OBX|1|NM|718-7^Hemoglobin^LN||13.2|g/dL|12.0-15.5|N|||F|||20261122081500';
const POTASSIUM_PANIC = 'OBX|2|NM|2823-3^Potassium^LN||6.8|mmol/L|3.5-5.1|H|||F';
const PLATELETS_LL = 'OBX|3|NM|777-3^Platelets^LN||15|10*3/uL|150-400|LL|||F';
const MALARIA_PRELIM = 'OBX|1|CWE|70569-9^Malaria RDT^LN||POS^Positive^L||Negative|A|||P';

const ingest = (text: string, api: Api = tech.api, contentType = 'text/plain') =>
  api.post('/api/lab/hl7-ingest', undefined, { raw: text, headers: { 'content-type': contentType } });

describe('lab orders', () => {
  it('creates, reads, lists and updates an order', async () => {
    const res = await c.doctor.api.post('/api/labs', {
      patient_id: c.patientId,
      test_type: 'malaria_rdt',
      priority: 'stat',
      notes: 'Fever 39 C',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: c.patientId,
      organization_id: c.orgId,
      test_type: 'malaria_rdt',
      test_name: expect.stringContaining('Malaria'),
      loinc_code: '70569-9',
      priority: 'stat',
      status: 'ordered',
      notes: 'Fever 39 C',
      ordered_by: c.doctor.user.id,
    });
    const id = res.body.data.id;
    expect((await c.doctor.api.post('/api/labs', { patient_id: c.patientId, test_type: 'tsh' })).body.data.priority).toBe('routine');

    const got = await c.nurse.api.get(`/api/labs/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id, results: [] });
    const forPatient = await c.nurse.api.get(`/api/labs?patient_id=${c.patientId}&status=ordered`);
    expect(forPatient.body.data.map((o: { id: string }) => o.id)).toContain(id);
    expect(forPatient.body.meta.total).toBeGreaterThanOrEqual(2);
    const all = await tech.api.get('/api/labs');
    expect(all.body.data.map((o: { id: string }) => o.id)).toContain(id);
    expect((await c.nurse.api.get('/api/labs?status=cancelled')).body.data.map((o: { id: string }) => o.id)).not.toContain(id);

    const patched = await c.nurse.api.patch(`/api/labs/${id}`, { priority: 'routine', notes: null, test_type: 'cbc' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      priority: 'routine',
      notes: null,
      test_type: 'cbc',
      loinc_code: '58410-2',
      updated_by: c.nurse.user.id,
    });
  });

  it('validates test type, priority and patient', async () => {
    const badType = await c.doctor.api.post('/api/labs', { patient_id: c.patientId, test_type: 'x_ray' });
    expect(badType.status).toBe(400);
    expect(badType.body.error.details[0]).toMatchObject({ field: 'test_type', message: expect.stringContaining('cbc') });
    const badPriority = await c.doctor.api.post('/api/labs', { patient_id: c.patientId, test_type: 'cbc', priority: 'whenever' });
    expect(badPriority.status).toBe(400);
    expect(badPriority.body.error.details[0].field).toBe('priority');
    expect((await c.doctor.api.post('/api/labs', { test_type: 'cbc' })).body.error.details[0].field).toBe('patient_id');
    const { id } = await newOrder();
    const badPatch = await c.doctor.api.patch(`/api/labs/${id}`, { priority: null });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.error.details[0].field).toBe('priority');
  });

  it('cancels only while not resulted, and updates only while ordered', async () => {
    const { id } = await newOrder();
    const cancelled = await c.doctor.api.post(`/api/labs/${id}/cancel`, { reason: 'Duplicate order' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancel_reason: 'Duplicate order', cancelled_by: c.doctor.user.id });
    expect((await c.doctor.api.post(`/api/labs/${id}/cancel`)).status).toBe(409);
    expect((await c.doctor.api.patch(`/api/labs/${id}`, { priority: 'stat' })).status).toBe(409);

    const partial = await newOrder();
    expect((await ingest(oru({ order: partial.id, obx: [MALARIA_PRELIM] }).text)).body.data.acknowledgment_code).toBe('AA');
    expect((await c.doctor.api.get(`/api/labs/${partial.id}`)).body.data.status).toBe('in_progress');
    const patch = await c.doctor.api.patch(`/api/labs/${partial.id}`, { priority: 'stat' });
    expect(patch.status).toBe(409);
    expect(patch.body.error.message).toMatch(/in progress/);
    expect((await c.doctor.api.post(`/api/labs/${partial.id}/cancel`)).body.data.status).toBe('cancelled');

    const done = await newOrder();
    await ingest(oru({ order: done.id, obx: [HGB] }).text);
    const refused = await c.doctor.api.post(`/api/labs/${done.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
  });

  it('refuses other organizations, roles without clinical access and anonymous callers', async () => {
    const { id } = await newOrder();
    const stranger = await outsider(app);
    expect((await stranger.api.get(`/api/labs/${id}`)).status).toBe(404);
    expect((await stranger.api.patch(`/api/labs/${id}`, { priority: 'stat' })).status).toBe(404);
    expect((await stranger.api.post(`/api/labs/${id}/cancel`)).status).toBe(404);
    expect((await stranger.api.post('/api/labs', { patient_id: c.patientId, test_type: 'cbc' })).status).toBe(404);
    expect((await stranger.api.get(`/api/labs?patient_id=${c.patientId}`)).status).toBe(404);
    expect((await stranger.api.get('/api/labs')).body.data.map((o: { id: string }) => o.id)).not.toContain(id);
    expect((await stranger.api.get(`/api/patients/${c.patientId}/lab-results`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/labs/${id}`)).status).toBe(403);
    expect((await c.billing.api.post('/api/labs', { patient_id: c.patientId, test_type: 'cbc' })).status).toBe(403);
    expect((await c.billing.api.get('/api/labs')).body.data).toEqual([]);
    // Laboratory staff read clinical data but do not order tests.
    expect((await tech.api.post('/api/labs', { patient_id: c.patientId, test_type: 'cbc' })).status).toBe(403);
    expect((await app.api.get(`/api/labs/${id}`)).status).toBe(401);
    expect((await app.api.get('/api/labs')).status).toBe(401);
  });
});

describe('HL7v2 result ingest', () => {
  it('stores each OBX with codes, values, units, ranges and flags, marks critical ones and answers AA', async () => {
    const order = await newOrder();
    const msg = oru({ order: order.id, obx: [HGB, POTASSIUM_PANIC, PLATELETS_LL] });
    const res = await ingest(msg.text);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      acknowledgment_code: 'AA',
      message_control_id: msg.controlId,
      reason: null,
      patient_id: c.patientId,
      lab_order_id: order.id,
      result_ids: expect.any(Array),
    });
    expect(res.body.data.result_ids).toHaveLength(3);
    const [msh, msa] = res.body.data.ack.split('\r');
    expect(msh).toMatch(/^MSH\|\^~\\&\|CCP\|CLINIC\|LIS\|CENTRAL LAB\|[\d.]+\|\|ACK\^R01\^ACK\|/);
    expect(msa).toBe(`MSA|AA|${msg.controlId}|OK`);

    const got = (await c.doctor.api.get(`/api/labs/${order.id}`)).body.data;
    expect(got.status).toBe('resulted');
    expect(got.resulted_at).toEqual(expect.any(String));
    const byCode = Object.fromEntries(got.results.map((r: { code: string }) => [r.code, r]));
    expect(byCode['718-7']).toMatchObject({
      code_system: 'LN',
      display: 'Hemoglobin',
      value_type: 'NM',
      value: '13.2',
      numeric_value: 13.2,
      unit: 'g/dL',
      reference_range: '12.0-15.5',
      abnormal_flag: 'N',
      abnormal: false,
      critical: false,
      result_status: 'F',
      observed_at: '2026-11-22T08:15:00.000Z',
      message_control_id: msg.controlId,
      review_status: 'not_required',
    });
    // Flagged only H, but beyond the potassium panic limit; LL is critical by its flag.
    expect(byCode['2823-3']).toMatchObject({ abnormal: true, critical: true, review_status: 'pending_review' });
    expect(byCode['777-3']).toMatchObject({
      abnormal_flag: 'LL',
      critical: true,
      review_status: 'pending_review',
      observed_at: '2026-11-22T08:00:00.000Z',
    });

    const events = await app.em('clinical').find(OutboxEvent, { topic: 'svc.lab.result_received', payload: { lab_order_id: order.id } });
    expect(events).toHaveLength(3);
    const potassium = events.find((e) => e.payload.test_code === '2823-3')!;
    expect(potassium.payload).toEqual({
      lab_result_id: byCode['2823-3'].id,
      lab_order_id: order.id,
      patient_id: c.patientId,
      organization_id: c.orgId,
      test_code: '2823-3',
      abnormal: true,
      critical: true,
    });

    const pending = await c.nurse.api.get(`/api/patients/${c.patientId}/lab-results?review_status=pending_review&limit=100`);
    expect(pending.status).toBe(200);
    expect(pending.body.data.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([byCode['2823-3'].id, byCode['777-3'].id]));
    expect(pending.body.data.every((r: { review_status: string }) => r.review_status === 'pending_review')).toBe(true);
    const forOrder = await c.nurse.api.get(`/api/patients/${c.patientId}/lab-results?lab_order_id=${order.id}`);
    expect(forOrder.body.meta.total).toBe(3);
  });

  it('moves an order to in_progress on preliminary results and to resulted on final ones', async () => {
    const order = await newOrder({ test_type: 'malaria_rdt' });
    const prelim = await ingest(oru({ order: order.id, obx: [MALARIA_PRELIM] }).text, tech.api, 'application/hl7-v2');
    expect(prelim.body.data.acknowledgment_code).toBe('AA');
    const first = (await c.doctor.api.get(`/api/labs/${order.id}`)).body.data;
    expect(first.status).toBe('in_progress');
    expect(first.results[0]).toMatchObject({
      value_type: 'CWE',
      value: 'Positive',
      abnormal_flag: 'A',
      abnormal: true,
      critical: false,
      result_status: 'P',
    });

    const final = oru({ order: order.id, obx: [MALARIA_PRELIM.replace('|||P', '|||F')] });
    // The JSON wrapper is accepted too.
    const res = await tech.api.post('/api/lab/hl7-ingest', { message: final.text });
    expect(res.body.data.acknowledgment_code).toBe('AA');
    expect((await c.doctor.api.get(`/api/labs/${order.id}`)).body.data.status).toBe('resulted');

    const late = await ingest(oru({ order: order.id, obx: [MALARIA_PRELIM] }).text);
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ acknowledgment_code: 'AE', reason: expect.stringMatching(/final results/), result_ids: [] });
  });

  it('is idempotent per message control id', async () => {
    const order = await newOrder();
    const msg = oru({ order: order.id, obx: [HGB, PLATELETS_LL] });
    const first = await ingest(msg.text);
    const again = await ingest(msg.text);
    expect(again.body.data).toMatchObject({ acknowledgment_code: 'AA', result_ids: first.body.data.result_ids, lab_order_id: order.id });
    expect(await app.em('clinical').count(LabResult, { messageControlId: msg.controlId })).toBe(2);
    expect(await app.em('clinical').count(OutboxEvent, { topic: 'svc.lab.result_received', payload: { lab_order_id: order.id } })).toBe(2);
  });

  it('rejects malformed messages with AR and the reason, storing nothing', async () => {
    const order = await newOrder();
    const cases: [string, RegExp][] = [
      ['hello, this is not HL7', /must start with an MSH segment/],
      [oru({ order: order.id, obx: [HGB], type: 'ADT^A01' }).text, /ADT\^A01 is not ORU\^R01/],
      [oru({ order: order.id, obx: [] }).text, /no OBX/],
      [oru({ order: order.id, obx: [HGB.replace('|13.2|', '|high|')] }).text, /must be a number/],
      [oru({ order: order.id, obx: [HGB.replace('|F|||', '||||')] }).text, /OBX-11/],
      [oru({ order: order.id, obx: [HGB.replace('20261122081500', 'yesterday')] }).text, /OBX-14/],
      [oru({ order: order.id, obx: [HGB] }).text.replace(/\rPID[^\r]*/, ''), /PID/],
    ];
    for (const [text, reason] of cases) {
      const res = await ingest(text);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        acknowledgment_code: 'AR',
        reason: expect.stringMatching(reason),
        result_ids: [],
        lab_order_id: null,
      });
      expect(res.body.data.ack.split('\r')[1]).toMatch(/^MSA\|AR\|/);
    }
    const notHl7 = await ingest('hello');
    expect(notHl7.body.data.ack).toMatch(/^MSH\|\^~\\&\|.*\|ACK\|.*\rMSA\|AR\|\|Not an HL7v2 message/);
    expect((await c.doctor.api.get(`/api/labs/${order.id}`)).body.data).toMatchObject({ status: 'ordered', results: [] });

    const empty = await tech.api.post('/api/lab/hl7-ingest', undefined, { raw: '', headers: { 'content-type': 'text/plain' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0].field).toBe('message');
    const missing = await tech.api.post('/api/lab/hl7-ingest', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('message');
    const blank = await ingest('   \r\n');
    expect(blank.status).toBe(400);
    expect(blank.body.error.details[0].field).toBe('message');
  });

  it('answers AE for an unknown order or patient, a cancelled order and another organization, storing nothing', async () => {
    const order = await newOrder();
    const unknownOrder = await ingest(oru({ order: randomUUID(), obx: [HGB] }).text);
    expect(unknownOrder.body.data).toMatchObject({ acknowledgment_code: 'AE', reason: expect.stringMatching(/No lab order/) });
    expect(unknownOrder.body.data.ack.split('\r')[1]).toMatch(/^MSA\|AE\|MSG\w+\|No lab order/);
    const unknownPatient = await ingest(oru({ order: order.id, patient: 'MRN-999999', obx: [HGB] }).text);
    expect(unknownPatient.body.data).toMatchObject({
      acknowledgment_code: 'AE',
      reason: expect.stringMatching(/No patient with identifier MRN-999999/),
    });
    // The patient's UUID is accepted as PID-3 too.
    expect((await ingest(oru({ order: order.id, patient: c.patientId, obx: [HGB] }).text)).body.data.acknowledgment_code).toBe('AA');

    const other = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
      first_name: 'Baraka',
      last_name: 'Otieno',
      date_of_birth: '1990-02-01',
    });
    const otherMrn = other.body.data.mrn;
    const mismatch = await newOrder();
    const wrongPatient = await ingest(oru({ order: mismatch.id, patient: otherMrn, obx: [HGB] }).text);
    expect(wrongPatient.body.data).toMatchObject({ acknowledgment_code: 'AE', reason: expect.stringMatching(/another patient/) });

    const cancelled = await newOrder();
    await c.doctor.api.post(`/api/labs/${cancelled.id}/cancel`);
    const toCancelled = await ingest(oru({ order: cancelled.id, obx: [HGB] }).text);
    expect(toCancelled.body.data).toMatchObject({ acknowledgment_code: 'AE', reason: expect.stringMatching(/cancelled/) });

    // A laboratory of another organization cannot result this clinic's orders, nor learn they exist.
    const stranger = await outsider(app);
    const foreignTech = await signUp(app.api, { registration_role: 'LAB_TECHNICIAN' });
    await addMember(app, stranger.orgId, foreignTech.user.id, 'ORG:LAB_TECHNICIAN');
    const foreign = await ingest(oru({ order: mismatch.id, obx: [HGB] }).text, foreignTech.api);
    expect(foreign.status).toBe(200);
    expect(foreign.body.data).toMatchObject({ acknowledgment_code: 'AE', reason: expect.stringMatching(/No lab order/), patient_id: null });

    expect(await app.em('clinical').count(LabResult, { labOrderId: { $in: [mismatch.id, cancelled.id] } })).toBe(0);
    expect((await c.doctor.api.get(`/api/labs/${mismatch.id}`)).body.data.status).toBe('ordered');
  });

  it('needs a laboratory role or a lab-results key', async () => {
    const order = await newOrder();
    const msg = oru({ order: order.id, obx: [HGB] });
    expect((await ingest(msg.text, app.api)).status).toBe(401);
    expect((await ingest(msg.text, c.doctor.api)).status).toBe(403);
    expect((await ingest(msg.text, c.billing.api)).status).toBe(403);

    const admin = await signUp(app.api, { registration_role: 'STAFF' });
    await addMember(app, c.orgId, admin.user.id, 'ORG:ADMIN');
    const key = await admin.api.post('/api/developer/keys', {
      name: 'LIS bridge',
      scopes: ['lab-results:write'],
      organization_id: c.orgId,
    });
    expect(key.status).toBe(201);
    const res = await app.api.post('/api/lab/hl7-ingest', undefined, {
      raw: msg.text,
      headers: { 'content-type': 'application/hl7-v2', 'x-api-key': key.body.data.key },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ acknowledgment_code: 'AA', lab_order_id: order.id });
    const readOnly = await admin.api.post('/api/developer/keys', { name: 'reader', scopes: ['patients:read'], organization_id: c.orgId });
    const refused = await app.api.post('/api/lab/hl7-ingest', undefined, {
      raw: msg.text,
      headers: { 'content-type': 'text/plain', 'x-api-key': readOnly.body.data.key },
    });
    expect(refused.status).toBe(403);
  });
});

describe('lab result review', () => {
  it('lets a clinician review a result once; critical results wait for it', async () => {
    const order = await newOrder();
    const ids: string[] = (await ingest(oru({ order: order.id, obx: [HGB, POTASSIUM_PANIC] }).text)).body.data.result_ids;
    const results = (await c.doctor.api.get(`/api/labs/${order.id}`)).body.data.results;
    const critical = results.find((r: { critical: boolean }) => r.critical);
    expect(ids).toContain(critical.id);

    const stranger = await outsider(app);
    expect((await stranger.api.post(`/api/lab-results/${critical.id}/review`)).status).toBe(404);
    expect((await c.billing.api.post(`/api/lab-results/${critical.id}/review`)).status).toBe(403);
    expect((await tech.api.post(`/api/lab-results/${critical.id}/review`)).status).toBe(403);
    expect((await app.api.post(`/api/lab-results/${critical.id}/review`)).status).toBe(401);
    expect((await c.doctor.api.post(`/api/lab-results/${randomUUID()}/review`)).status).toBe(404);

    const reviewed = await c.doctor.api.post(`/api/lab-results/${critical.id}/review`, { note: 'Repeat K+ and ECG ordered' });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.data).toMatchObject({
      review_status: 'reviewed',
      reviewed_by: c.doctor.user.id,
      reviewed_at: expect.any(String),
      review_note: 'Repeat K+ and ECG ordered',
    });
    const twice = await c.nurse.api.post(`/api/lab-results/${critical.id}/review`);
    expect(twice.status).toBe(409);
    const normal = results.find((r: { critical: boolean }) => !r.critical);
    expect((await c.nurse.api.post(`/api/lab-results/${normal.id}/review`)).body.data.review_status).toBe('reviewed');
  });

  it('shows the newest results on the patient graph', async () => {
    const order = await newOrder();
    await ingest(oru({ order: order.id, obx: [PLATELETS_LL] }).text);
    const res = await c.doctor.api.graphql(
      'query($id: ID!) { patient(id: $id) { labResults(first: 1) { nodes { code critical labOrderId } } } }',
      {
        id: c.patientId,
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.patient.labResults.nodes).toEqual([{ code: '777-3', critical: true, labOrderId: order.id }]);
    const stranger = await outsider(app);
    const hidden = await stranger.api.graphql('query($id: ID!) { patient(id: $id) { labResults { nodes { id } } } }', { id: c.patientId });
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
