import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '../shared/config';
import { LabResult } from '../subgraphs/clinical/labs/lab.entity';
import { signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

/**
 * Lab results from real senders: public ORU^R01 sample messages (test/data/hl7, sources in SOURCES.md) through the
 * REST intake and GraphQL. Its own object storage directory (embedded PDF reports are kept there): standalone.
 */
const DATA = join(__dirname, 'data', 'hl7');
const storageDir = mkdtempSync(join(tmpdir(), 'ccp-hl7-objects-'));
const saved = process.env.OBJECT_STORAGE_DIR;

let app: TestApp;
let c: Clinic;
let tech: SignedUp;
let mrn: string;

beforeAll(async () => {
  process.env.OBJECT_STORAGE_DIR = storageDir;
  resetConfig();
  app = await startApp();
  c = await clinic(app);
  tech = await signUp(app.api, { registration_role: 'LAB_TECHNICIAN' });
  await addMember(app, c.orgId, tech.user.id, 'ORG:LAB_TECHNICIAN');
  mrn = (await c.doctor.api.get(`/api/patients/${c.patientId}`)).body.data.mrn;
});
afterAll(async () => {
  await app.close();
  if (saved === undefined) delete process.env.OBJECT_STORAGE_DIR;
  else process.env.OBJECT_STORAGE_DIR = saved;
  resetConfig();
  rmSync(storageDir, { recursive: true, force: true });
});

const newOrder = async (testType = 'cbc') => {
  const res = await c.doctor.api.post('/api/labs', { patient_id: c.patientId, test_type: testType });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  return res.body.data.id as string;
};

/** A sample message with the clinic's patient in PID-3 and `order` in the first OBR-2 (SOURCES.md). */
const sample = (file: string, order = '') =>
  readFileSync(join(DATA, file), 'utf8').replaceAll('{{PATIENT}}', mrn).replaceAll('{{ORDER_1}}', order);

const ingest = (text: string, api: Api = tech.api) =>
  api.post('/api/lab/hl7-ingest', undefined, { raw: text, headers: { 'content-type': 'application/hl7-v2' } });

const orderOf = async (id: string) => (await c.doctor.api.get(`/api/labs/${id}`)).body.data;
const segments = (ack: string) => ack.split('\r');

describe('duplicates are keyed by sender (MSH-3, MSH-4) and control id (MSH-10)', () => {
  it('answers a redelivery as the first time, and refuses other content under the same key (AE, nothing stored)', async () => {
    const first = await newOrder('malaria_rdt');
    const campylobacter = sample('elr-campylobacter.hl7', first);
    const stored = await ingest(campylobacter);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({
      acknowledgment_code: 'AA',
      message_control_id: '1234567890',
      patient_id: c.patientId,
      lab_order_ids: [first],
      duplicate: false,
      not_stored: [],
    });
    expect(stored.body.data.result_ids).toHaveLength(1);
    expect(await orderOf(first)).toMatchObject({ status: 'in_progress' });

    // Delivered again, framed by MLLP and with CRLF: the first answer again, nothing stored twice.
    const again = await ingest(`\x0b${campylobacter.replaceAll('\r', '\r\n')}\x1c\r`);
    expect(again.body.data).toMatchObject({
      acknowledgment_code: 'AA',
      duplicate: true,
      patient_id: c.patientId,
      lab_order_ids: [first],
      result_ids: stored.body.data.result_ids,
    });
    expect(await app.em('clinical').count(LabResult, { labOrderId: first })).toBe(1);

    // The same sender's other message under the same control id (both published with 1234567890): AE, not lost.
    const second = await newOrder();
    const reused = await ingest(sample('elr-hepatitis-c.hl7', second));
    expect(reused.status).toBe(200);
    expect(reused.body.data).toMatchObject({
      acknowledgment_code: 'AE',
      duplicate: false,
      reason: expect.stringMatching(/Control id 1234567890 already used for another message; nothing stored/),
      patient_id: null,
      lab_order_id: null,
      result_ids: [],
      not_stored: [expect.stringMatching(/Lab1\^1234\^CLIA.*was already used for another message.*new control id/)],
    });
    const [, msa, err] = segments(reused.body.data.ack);
    expect(msa).toMatch(/^MSA\|AE\|1234567890\|Control id 1234567890 already used/);
    expect(err).toMatch(/^ERR\|\|MSH\^1\^10\|205\^Duplicate key identifier\^HL70357\|E\|/);
    // Nothing of the first message (its patient, its order) in the answer to the second.
    expect(reused.text).not.toContain(first);
    expect(reused.text).not.toContain(c.patientId);
    expect(await app.em('clinical').count(LabResult, { labOrderId: second })).toBe(0);
    expect(await orderOf(second)).toMatchObject({ status: 'ordered', results: [] });
  });

  it('accepts the same control id from another sender', async () => {
    const [a, b] = [await newOrder(), await newOrder()];
    const numeric = sample('webchart-oru-numeric.hl7', a);
    expect((await ingest(numeric)).body.data).toMatchObject({ acknowledgment_code: 'AA', message_control_id: '59689' });
    // The same published message as another laboratory would send it: only MSH-3 and MSH-4 differ.
    const other = await ingest(sample('webchart-oru-numeric.hl7', b).replace('|SendingApp|SendingFac|', '|OtherLab|Other Facility|'));
    expect(other.body.data).toMatchObject({ acknowledgment_code: 'AA', duplicate: false, lab_order_ids: [b] });
    expect(other.body.data.result_ids).toHaveLength(14);
    expect((await orderOf(b)).results).toHaveLength(14);
  });

  it('stores a message delivered twice at once only once', async () => {
    const order = await newOrder();
    const text = sample('python-hl7-oru.hl7', order);
    const [one, two] = await Promise.all([ingest(text), ingest(text)]);
    expect([one.body.data.acknowledgment_code, two.body.data.acknowledgment_code]).toEqual(['AA', 'AA']);
    expect([one.body.data.duplicate, two.body.data.duplicate].sort()).toEqual([false, true]);
    expect(one.body.data.result_ids).toEqual(two.body.data.result_ids);
    expect(await app.em('clinical').count(LabResult, { labOrderId: order })).toBe(2);
  });

  it('compares results stored before senders were recorded by their content', async () => {
    const order = await newOrder();
    const text = sample('nhapi-oru-ft-escapes.hl7', order).replace('|EBzH1711114101206|', '|LEGACY-1|');
    // A result as stored before this change: no message, the control id only.
    const em = app.em('clinical');
    em.create(LabResult, {
      labOrderId: order,
      patientId: c.patientId,
      organizationId: c.orgId,
      code: 'ehipack',
      valueType: 'FT',
      value: 'This\nis\nA Test\nMoreText\nSomeMoreText',
      abnormal: false,
      critical: false,
      resultStatus: 'F',
      messageControlId: 'LEGACY-1',
      sequence: 1,
      reviewStatus: 'not_required' as never,
    });
    await em.flush();
    const same = await ingest(text);
    expect(same.body.data).toMatchObject({ acknowledgment_code: 'AA', duplicate: true, lab_order_ids: [order] });
    const other = await ingest(text.replace('A Test', 'Another test'));
    expect(other.body.data).toMatchObject({ acknowledgment_code: 'AE', result_ids: [] });
    expect(await em.count(LabResult, { labOrderId: order })).toBe(1);
  });

  it('answers the same through GraphQL', async () => {
    const order = await newOrder();
    const text = sample('nist-oru-lead.hl7', order).replace('|NIST-100929110701660|', '|NIST-GRAPHQL|');
    const query = 'mutation($m: String!) { ingestLabMessage(message: $m) { acknowledgmentCode duplicate resultIds notStored } }';
    const first = await tech.api.graphql(query, { m: text });
    const second = await tech.api.graphql(query, { m: text });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.ingestLabMessage).toMatchObject({ acknowledgmentCode: 'AA', duplicate: false, notStored: [] });
    expect(second.body.data.ingestLabMessage).toEqual({ ...first.body.data.ingestLabMessage, duplicate: true });
  });
});

describe('what real laboratories send', () => {
  it('stores the named order of a message with a reflex order without OBR-2, and names what was not stored', async () => {
    const order = await newOrder();
    const text = sample('webchart-oru-cbc-with-reflex.hl7', order);
    const res = await ingest(text);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      acknowledgment_code: 'AE',
      patient_id: c.patientId,
      lab_order_ids: [order],
      reason: expect.stringMatching(/^Stored 14 result\(s\); not stored: OBR 2: OBR-2/),
      not_stored: ['OBR 2: OBR-2 (placer order number) must name the lab order; 2 result(s) not stored'],
    });
    expect(res.body.data.result_ids).toHaveLength(14);
    const [, msa, err, more] = segments(res.body.data.ack);
    expect(msa).toMatch(/^MSA\|AE\|59690\|Stored 14 result\(s\); not stored/);
    expect(err).toBe(
      'ERR||OBR^2^2|101^Required field missing^HL70357|E||||OBR 2: OBR-2 (placer order number) must name the lab order; 2 result(s) not stored',
    );
    expect(more).toBeUndefined();
    expect(await orderOf(order)).toMatchObject({ status: 'resulted' });
    // Sent again: the same answer, nothing stored twice.
    const again = await ingest(text);
    expect(again.body.data).toMatchObject({ acknowledgment_code: 'AE', duplicate: true, result_ids: res.body.data.result_ids });
    expect(segments(again.body.data.ack)[2]).toBe(err);
  });

  it('reads a result carried only in NTE, and keeps NTE comments with their result', async () => {
    const order = await newOrder();
    const res = await ingest(sample('webchart-oru-multiple-ntes.hl7', order));
    expect(res.body.data.acknowledgment_code).toBe('AA');
    const [result] = (await orderOf(order)).results;
    expect(result).toMatchObject({ code: 'LAB6460', display: 'Gene Bone Marrow', value_type: 'TX', value: null, result_status: 'F' });
    expect(result.comment.split('\n')).toHaveLength(59 - 1); // the blank last NTE is dropped
    expect(result.comment).toMatch(/^Physician: SHELDON A PHYSICIAN, MD\n {2}NPI: 1881654887\n/);
    expect(result.comment).toContain('\nKARYOTYPE:      46,XX[20]\n');

    const notes = await newOrder();
    await ingest(sample('webchart-oru-numeric-notes.hl7', notes));
    const [pt, inr] = (await orderOf(notes)).results;
    expect(pt).toMatchObject({ code: 'PT Patient', value: '22.5', comment: null });
    expect(inr.comment).toMatch(/^The optimal INR therapeutic range .*\nthe range is 2\.5 - 3\.5\.\n\nStudies published in NEJM/);
  });

  it('takes an OBX-3 code given only in its alternate components, and keeps alternate codes', async () => {
    const order = await newOrder();
    // The published CBC as a sender giving only the LOINC code (OBX-3.4 to 3.6) of its first result would send it.
    const text = sample('webchart-oru-numeric.hl7', order)
      .replace('|59689|', '|59689-ALT|')
      .replace('|wbc^Wbc^Local^6690-2^Wbc^LN|', '|^^^6690-2^Wbc^LN|');
    expect((await ingest(text)).body.data.acknowledgment_code).toBe('AA');
    const results = (await orderOf(order)).results;
    expect(results[0]).toMatchObject({ code: '6690-2', code_system: 'LN', display: 'Wbc', alternate_code: null });
    expect(results[1]).toMatchObject({ code: 'neutros', code_system: 'Local', alternate_code: '770-8', alternate_code_system: 'LN' });
    expect(results[11]).toMatchObject({ code: 'mch', alternate_code: null });
  });

  it('decodes FT escapes (\\.br\\) and repetitions, coding an OBX without OBX-3 as its OBR', async () => {
    const order = await newOrder();
    expect((await ingest(sample('nhapi-oru-ft-escapes.hl7', order))).body.data.acknowledgment_code).toBe('AA');
    const [result] = (await orderOf(order)).results;
    expect(result).toMatchObject({
      code: 'ehipack',
      display: 'eHippa Acknowlegment',
      value_type: 'FT',
      value: 'This\nis\nA Test\nMoreText\nSomeMoreText',
    });
  });

  it('stores an embedded PDF (ED) as a document the result references', async () => {
    const order = await newOrder();
    const text = sample('webchart-oru-pdf-report.hl7', order);
    const res = await ingest(text);
    expect(res.body.data).toMatchObject({ acknowledgment_code: 'AA', message_control_id: '5209141' });
    const pdf = Buffer.from(/\^\^\^\^([A-Za-z0-9+/=]+)\|/.exec(text)![1], 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [result] = (await orderOf(order)).results;
    expect(result).toMatchObject({
      value_type: 'ED',
      value: `application/pdf document, ${pdf.length} bytes`,
      result_status: 'C',
      document: { content_type: 'application/pdf', size: pdf.length, sha256: createHash('sha256').update(pdf).digest('hex') },
      comment: 'Reference Lab: GENOPTIX\n2110 ROUTHERFORD RD\nCARLSBAD, CA  92008',
    });
    const doc = await c.nurse.api.get(`/api/lab-results/${result.id}/document`);
    expect(doc.status).toBe(200);
    expect(doc.body.data).toMatchObject({ lab_result_id: result.id, content_type: 'application/pdf', size: pdf.length });
    expect(Buffer.from(doc.body.data.data, 'base64').equals(pdf)).toBe(true);

    const gql = await c.doctor.api.graphql('query($id: ID!) { labResult(id: $id) { document { contentType size } } }', { id: result.id });
    expect(gql.body.data.labResult.document).toEqual({ contentType: 'application/pdf', size: pdf.length });
    const stranger = await outsider(app);
    expect((await stranger.api.get(`/api/lab-results/${result.id}/document`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/lab-results/${result.id}/document`)).status).toBe(403);
    const plain = (await orderOf(await storedOrder('python-hl7-oru.hl7'))).results[0];
    expect(plain.document).toBeNull();
    expect((await c.nurse.api.get(`/api/lab-results/${plain.id}/document`)).status).toBe(404);
  });

  it('reads HL7 2.2 to 2.5.1, Z-segments, sub-ids, MLLP framing and CR, LF or CRLF', async () => {
    const nist = await newOrder();
    const framed = `\x0b${sample('nist-oru-lead.hl7', nist).replaceAll('\r', '\r\n')}\x1c\r`;
    expect((await ingest(framed)).body.data.acknowledgment_code).toBe('AA');
    expect((await orderOf(nist)).results[0]).toMatchObject({
      code: '10368-9',
      sub_id: '1',
      numeric_value: 50,
      unit: 'ug/dL',
      reference_range: '<9 mcg/dL:  Acceptable background lead exposure',
      abnormal_flag: 'H',
      observed_at: '2008-08-15T17:30:00.000Z',
    });

    const labcorp = await newOrder();
    expect((await ingest(sample('openlis-labcorp.hl7', labcorp))).body.data.acknowledgment_code).toBe('AA');
    const got = await orderOf(labcorp);
    expect(got.status).toBe('in_progress'); // OBX 1 is X: results cannot be obtained
    expect(
      got.results.map((r: { code: string; value: string | null; result_status: string }) => [r.code, r.value, r.result_status]),
    ).toEqual([
      ['150001', null, 'X'],
      ['001719', 'HTN', 'F'],
      ['169999', 'SPRCS', 'F'],
      ['169998', 'SPRCS', 'F'],
    ]);
    expect(got.results[1].comment).toBe('Result: NEGATIVE by EIA screen.\nNo antibodies to HIV-1 detected.');

    const ghh = await storedOrder('python-hl7-oru.hl7');
    expect((await orderOf(ghh)).results.map((r: { value: string; numeric_value: number | null }) => [r.value, r.numeric_value])).toEqual([
      ['182', 182],
      ['^182', null],
    ]);
  });

  it('refuses batches (FHS/BHS) with AR, and malformed messages with AR, storing nothing', async () => {
    const batch = await ingest(sample('python-hl7-batch.hl7'));
    expect(batch.body.data).toMatchObject({
      acknowledgment_code: 'AR',
      reason: expect.stringMatching(/^Batches \(FHS\/BHS\) are not accepted/),
    });
    expect(segments(batch.body.data.ack)[1]).toMatch(/^MSA\|AR\|\|Batches/);

    const order = await newOrder();
    const text = sample('webchart-oru-numeric-notes.hl7', order);
    for (const [broken, reason] of [
      [text.split('\n')[0], /PID segment is required/],
      [text.replace('|22.5|', '|twenty|'), /OBX 1: OBX-5 must be a number/],
      [text.replace('|ORU^R01|', '|ORU^R03|'), /ORU\^R03 is not ORU\^R01/],
      [text.replace('20120226095400', '2012-02-26'), /OBR-7 is not an HL7 date/],
    ] as const) {
      const res = await ingest(broken);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ acknowledgment_code: 'AR', reason: expect.stringMatching(reason), result_ids: [] });
    }
    expect(await orderOf(order)).toMatchObject({ status: 'ordered', results: [] });
  });

  it('answers every sample without a server error', async () => {
    const files = readdirSync(DATA).filter((f) => f.endsWith('.hl7'));
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const file of files) {
      const res = await ingest(sample(file, await newOrder()));
      expect([file, res.status]).toEqual([file, 200]);
      expect(['AA', 'AE', 'AR']).toContain(res.body.data.acknowledgment_code);
    }
  });
});

/** A fresh order resulted by a sample; its id. */
async function storedOrder(file: string): Promise<string> {
  const order = await newOrder();
  // Each sample's control id is stored once per sender: a copy for another order is another sender's.
  const res = await ingest(sample(file, order).replace(/^MSH\|\^~\\&\|[^|]*\|/, `MSH|^~\\&|COPY-${order.slice(0, 8)}|`));
  if (res.body.data.acknowledgment_code !== 'AA') throw new Error(`${file}: ${res.text}`);
  return order;
}

describe('GET /api/patients/:id/lab-results', () => {
  it("lists the newest message first and a message's results together in OBX order, with sequence and sub_id", async () => {
    const cbc = await storedOrder('webchart-oru-numeric.hl7');
    const inr = await storedOrder('webchart-oru-numeric-notes.hl7');
    const res = await c.nurse.api.get(`/api/patients/${c.patientId}/lab-results?limit=100`);
    expect(res.status).toBe(200);
    const rows: { lab_order_id: string; lab_message_id: string; sequence: number; sub_id: string | null; received_at: string }[] =
      res.body.data;
    expect(rows.every((r) => Number.isInteger(r.sequence) && 'sub_id' in r)).toBe(true);
    // The newest message first, then the one before: never interleaved.
    expect(rows.slice(0, 2).map((r) => [r.lab_order_id, r.sequence])).toEqual([
      [inr, 1],
      [inr, 2],
    ]);
    expect(rows.slice(2, 16).map((r) => r.lab_order_id)).toEqual(Array(14).fill(cbc));
    expect(rows.slice(2, 16).map((r) => r.sequence)).toEqual([...Array(14).keys()].map((i) => i + 1));
    // Every message's results are contiguous and in OBX order, across the whole list.
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      const previous = rows[i - 1];
      if (previous?.lab_message_id === r.lab_message_id) expect(r.sequence).toBeGreaterThan(previous.sequence);
      else {
        expect(seen.has(r.lab_message_id)).toBe(false);
        seen.add(r.lab_message_id);
        if (previous) expect(r.received_at <= previous.received_at).toBe(true);
      }
    });

    const gql = await c.doctor.api.graphql(
      'query($id: ID!) { patientLabResults(patientId: $id, limit: 3) { items { labOrderId sequence subId comment } } }',
      { id: c.patientId },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.patientLabResults.items.map((r: { labOrderId: string; sequence: number }) => [r.labOrderId, r.sequence])).toEqual([
      [inr, 1],
      [inr, 2],
      [cbc, 1],
    ]);
  });
});
