import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '../shared/config';
import { SCHEMA_DIR } from '../shared/paths';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, type Clinic } from './support/clinic';

/**
 * What a GraphQL client builds on: the published schema, persisted queries (automatic, and trusted documents in
 * production), and error codes to branch on. This suite starts a second platform in trusted-documents mode.
 */

let app: TestApp;
let user: SignedUp;
let c: Clinic;

beforeAll(async () => {
  app = await startApp();
  user = await signUp(app.api);
  c = await clinic(app);
});
afterAll(() => app.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('the published schema', () => {
  const published = readFileSync(join(SCHEMA_DIR, 'public.graphql'), 'utf8');

  it('is served at GET /graphql/schema.graphql, without a token, exactly as schema/public.graphql holds it', async () => {
    const res = await app.api.get('/graphql/schema.graphql', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text.trimEnd()).toBe(published.trimEnd());
  });

  it('holds no federation machinery and no internal field', () => {
    for (const internal of [
      /\bjoin__/,
      /\blink__/,
      /\b_Service\b/,
      /\b_entities\b/,
      /\b_Any\b/,
      /@inaccessible/,
      /\bfhirRead\b/,
      /\bfhirSearch\b/,
      /\breserveRecordingAudio\b/,
      /\bcompleteRecordingAudio\b/,
      /\breserveDictationAudio\b/,
      /\baddDictationAudioSegment\b/,
    ]) {
      expect([internal.source, internal.test(published)]).toEqual([internal.source, false]);
    }
    expect(published).toMatch(/type Query \{/);
    expect(published).toMatch(/\bpatient\(/);
  });

  it('answers an internal field on /graphql as unknown, while the adapters that use it keep working', async () => {
    const res = await c.doctor.api.graphql('query($id: ID!) { fhirRead(resourceType: Patient, id: $id) }', { id: c.patientId });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors[0].message).toMatch(/Cannot query field "fhirRead"/);
    // The FHIR API reads through the same field on the adapters' executor.
    const fhir = await c.doctor.api.get(`/fhir/R4/Patient/${c.patientId}`);
    expect(fhir.status).toBe(200);
    expect(JSON.parse(fhir.text)).toMatchObject({ resourceType: 'Patient', id: c.patientId });
  });
});

describe('automatic persisted queries', () => {
  it('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND, registers the query sent with it, then runs it by hash over GET and POST', async () => {
    const query = `query Me${Date.now()} { me { id email } }`;
    const hash = sha256(query);
    const miss = await user.api.post('/graphql', { extensions: persisted(hash) });
    expect(miss.status).toBe(200);
    expect(miss.body.errors).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);
    const getMiss = await user.api.get(`/graphql?${new URLSearchParams({ extensions: JSON.stringify(persisted(hash)) })}`);
    expect(getMiss.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    const register = await user.api.post('/graphql', { query, extensions: persisted(hash) });
    expect(register.body).toEqual({ data: { me: { id: user.user.id, email: user.user.email } } });

    const byGet = await user.api.get(`/graphql?${new URLSearchParams({ extensions: JSON.stringify(persisted(hash)) })}`);
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual({ data: { me: { id: user.user.id, email: user.user.email } } });
    const byPost = await user.api.post('/graphql', { extensions: persisted(hash) });
    expect(byPost.body).toEqual(byGet.body);
  });

  it('refuses a query whose hash does not match it, and registers nothing', async () => {
    const query = '{ me { id } }';
    const wrong = sha256('something else');
    const res = await user.api.post('/graphql', { query, extensions: persisted(wrong) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const after = await user.api.post('/graphql', { extensions: persisted(wrong) });
    expect(after.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});

describe('errors a client can branch on', () => {
  it('says why a stale expectedVersion failed: a STALE_VERSION user error in the payload', async () => {
    const created = await c.doctor.api.post('/api/clinical-records', {
      patient_id: c.patientId,
      encounter_type: 'consultation',
      chief_complaint: 'Cough',
    });
    expect(created.status).toBe(201);
    const update =
      'mutation($id: ID!, $v: Int) { updateClinicalRecord(id: $id, input: { notes: "x", expectedVersion: $v }) { clinicalRecord { version } userErrors { field message code } } }';
    const ok = await c.doctor.api.graphql(update, { id: created.body.data.id, v: 1 });
    expect(ok.body.data.updateClinicalRecord.clinicalRecord.version).toBe(2);
    const stale = await c.doctor.api.graphql(update, { id: created.body.data.id, v: 1 });
    expect(stale.body.errors).toBeUndefined();
    expect(stale.body.data.updateClinicalRecord.clinicalRecord).toBeNull();
    const [userError] = stale.body.data.updateClinicalRecord.userErrors;
    expect(userError).toEqual({ field: null, message: expect.stringMatching(/version 2, not 1/), code: 'STALE_VERSION' });
    // REST answers as before: 409 with the envelope.
    const rest = await c.doctor.api.patch(`/api/clinical-records/${created.body.data.id}`, { notes: 'y', expected_version: 1 });
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({ success: false, error: { code: 'CONFLICT', message: userError.message } });
  });

  it('says why a CONFLICT: an illegal transition, with the state and the action', async () => {
    const order = await c.doctor.api.post('/api/imaging', {
      patient_id: c.patientId,
      modality: 'CR',
      body_part: 'chest',
      laterality: 'none',
      clinical_indication: 'Productive cough for three weeks; rule out TB',
    });
    expect(order.status).toBe(201);
    const cancel = 'mutation($id: ID!) { cancelImagingOrder(id: $id) { status } }';
    expect((await c.doctor.api.graphql(cancel, { id: order.body.data.id })).body.data.cancelImagingOrder.status).toBe('cancelled');
    const again = await c.doctor.api.graphql(cancel, { id: order.body.data.id });
    expect(again.body.errors[0].message).toBe('Cannot cancel an imaging order that is cancelled');
    expect(again.body.errors[0].extensions).toEqual({
      code: 'CONFLICT',
      reason: 'ILLEGAL_TRANSITION',
      from: 'cancelled',
      action: 'cancel',
    });
  });

  it("says why a CONFLICT: a duplicate, as the code of a payload mutation's user error", async () => {
    const add = `mutation($p: ID!) {
      recordAllergy(patientId: $p, input: { substance: "Penicillin" }) { allergy { id } userErrors { field code } }
    }`;
    expect((await c.doctor.api.graphql(add, { p: c.patientId })).body.data.recordAllergy.userErrors).toEqual([]);
    const dup = await c.doctor.api.graphql(add, { p: c.patientId });
    expect(dup.body.errors).toBeUndefined();
    expect(dup.body.data.recordAllergy).toEqual({ allergy: null, userErrors: [{ field: null, code: 'DUPLICATE' }] });
  });
});

describe('trusted documents', () => {
  const listed = 'query TrustedMe { me { id email } }';
  let dir: string;
  let trusted: TestApp;
  let caller: SignedUp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trusted-'));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: sha256(listed), name: 'TrustedMe', type: 'query', body: listed }],
      }),
    );
    process.env.GRAPHQL_TRUSTED_DOCUMENTS = manifest;
    resetConfig();
    try {
      trusted = await startApp({ workers: false });
    } finally {
      delete process.env.GRAPHQL_TRUSTED_DOCUMENTS;
      resetConfig();
    }
    caller = await signUp(trusted.api);
  });
  afterAll(async () => {
    await trusted?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a listed document by id, over POST and GET, and in full', async () => {
    const expected = { data: { me: { id: caller.user.id, email: caller.user.email } } };
    expect((await caller.api.post('/graphql', { extensions: persisted(sha256(listed)) })).body).toEqual(expected);
    const get = await caller.api.get(`/graphql?${new URLSearchParams({ extensions: JSON.stringify(persisted(sha256(listed))) })}`);
    expect(get.body).toEqual(expected);
    expect((await caller.api.graphql(listed)).body).toEqual(expected);
  });

  it('refuses an unlisted id, an unlisted query and an attempt to register one, with codes of their own', async () => {
    const other = '{ me { id } }';
    const unknownId = await caller.api.post('/graphql', { extensions: persisted(sha256(other)) });
    expect(unknownId.status).toBe(400);
    expect(unknownId.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const register = await caller.api.post('/graphql', { query: other, extensions: persisted(sha256(other)) });
    expect(register.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const full = await caller.api.graphql(other);
    expect(full.status).toBe(400);
    expect(full.body.errors[0].extensions.code).toBe('QUERY_NOT_IN_SAFELIST');
    const get = await caller.api.get(`/graphql?${new URLSearchParams({ query: other })}`);
    expect(get.body.errors[0].extensions.code).toBe('QUERY_NOT_IN_SAFELIST');
  });

  it('leaves the REST adapter and the published schema working', async () => {
    const me = await caller.api.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(caller.user.id);
    expect((await trusted.api.get('/graphql/schema.graphql')).status).toBe(200);
  });
});
