import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

const storageDir = mkdtempSync(join(tmpdir(), 'ccp-notes-objects-'));
const saved = { ...process.env };

let app: TestApp;
let c: Clinic;
let stranger: Awaited<ReturnType<typeof outsider>>;

beforeAll(async () => {
  process.env.OBJECT_STORAGE_DIR = storageDir;
  delete process.env.TRANSCRIPTION_URL;
  resetConfig();
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
});
afterAll(async () => {
  await app.close();
  if (saved.OBJECT_STORAGE_DIR === undefined) delete process.env.OBJECT_STORAGE_DIR;
  else process.env.OBJECT_STORAGE_DIR = saved.OBJECT_STORAGE_DIR;
  if (saved.TRANSCRIPTION_URL !== undefined) process.env.TRANSCRIPTION_URL = saved.TRANSCRIPTION_URL;
  resetConfig();
  rmSync(storageDir, { recursive: true, force: true });
});

const SOAP = { subjective: 'Headache for 3 days', objective: 'BP 150/95', assessment: 'Hypertension', plan: 'Start amlodipine 5 mg daily' };

async function note(api: Api = c.doctor.api, fields: Record<string, unknown> = SOAP) {
  const res = await api.post('/api/clinical/notes', { patient_id: c.patientId, title: 'Visit', ...fields });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; version: number; status: string };
}

describe('clinical notes', () => {
  it("writes a SOAP note and a free-text note, reads them, and lists the patient's newest first", async () => {
    const soap = await note();
    expect(soap).toMatchObject({
      format: 'soap',
      status: 'draft',
      version: 1,
      ...SOAP,
      text: null,
      author_id: c.doctor.user.id,
      patient_id: c.patientId,
      organization_id: c.orgId,
    });
    const free = await note(c.nurse.api, { text: 'Dressing changed, wound clean.' });
    expect(free).toMatchObject({ format: 'free_text', text: 'Dressing changed, wound clean.', subjective: null });
    expect((await c.nurse.api.get(`/api/clinical/notes/${soap.id}`)).body.data).toMatchObject({ id: soap.id, addenda: [] });
    const list = await c.doctor.api.get(`/api/clinical/notes/patient/${c.patientId}?limit=100`);
    expect(list.status).toBe(200);
    const ids = list.body.data.map((n: { id: string }) => n.id);
    expect(ids.indexOf(free.id)).toBeLessThan(ids.indexOf(soap.id));
    expect(list.body.meta.total).toBeGreaterThanOrEqual(2);
    expect(
      (await c.doctor.api.get(`/api/clinical/notes/patient/${c.patientId}?status=signed&limit=100`)).body.data.map(
        (n: { id: string }) => n.id,
      ),
    ).not.toContain(soap.id);
  });

  it('keeps a version per change and refuses a stale edit', async () => {
    const n = await note();
    const edited = await c.doctor.api.patch(`/api/clinical/notes/${n.id}`, { plan: 'Start amlodipine 10 mg daily', expected_version: 1 });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ version: 2, plan: 'Start amlodipine 10 mg daily', updated_by: c.doctor.user.id });
    const stale = await c.doctor.api.patch(`/api/clinical/notes/${n.id}`, { plan: 'x', expected_version: 1 });
    expect(stale.status).toBe(409);
    const versions = await c.doctor.api.graphql('query($id: ID!) { clinicalNote(id: $id) { versions { version change snapshot } } }', {
      id: n.id,
    });
    expect(versions.body.data.clinicalNote.versions.map((v: { version: number; change: string }) => `${v.version}:${v.change}`)).toEqual([
      '1:create',
      '2:update',
    ]);
    expect(versions.body.data.clinicalNote.versions[0].snapshot.plan).toBe(SOAP.plan);
  });

  it('signs a note once; a signed note is frozen, and amended by an addendum linked to it', async () => {
    const n = await note();
    const signed = await c.doctor.api.post(`/api/clinical/notes/${n.id}/sign`);
    expect(signed.status).toBe(200);
    expect(signed.body.data).toMatchObject({ status: 'signed', signed_by: c.doctor.user.id, signed_at: expect.any(String), version: 2 });
    const [event] = await app.em('clinical').find(OutboxEvent, { topic: 'svc.clinical.note_signed', payload: { note_id: n.id } });
    expect(event.payload).toEqual({
      note_id: n.id,
      patient_id: c.patientId,
      organization_id: c.orgId,
      signed_by: c.doctor.user.id,
      version: 2,
      format: 'soap',
      addendum_to_id: null,
    });

    const twice = await c.doctor.api.post(`/api/clinical/notes/${n.id}/sign`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot sign a clinical note that is signed');
    const edit = await c.doctor.api.patch(`/api/clinical/notes/${n.id}`, { plan: 'changed my mind' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.message).toBe('Cannot edit a clinical note that is signed');
    expect((await c.doctor.api.get(`/api/clinical/notes/${n.id}`)).body.data.plan).toBe(SOAP.plan);

    const addendum = await c.nurse.api.post('/api/clinical/notes', { addendum_to_id: n.id, text: 'Lab results back: normal.' });
    expect(addendum.status).toBe(201);
    expect(addendum.body.data).toMatchObject({ addendum_to_id: n.id, patient_id: c.patientId, format: 'free_text', status: 'draft' });
    expect((await c.doctor.api.get(`/api/clinical/notes/${n.id}`)).body.data.addenda).toEqual([
      expect.objectContaining({ id: addendum.body.data.id }),
    ]);
    const signedAddendum = await c.nurse.api.post(`/api/clinical/notes/${addendum.body.data.id}/sign`);
    expect(signedAddendum.status).toBe(200);
    expect(
      await app
        .em('clinical')
        .count(OutboxEvent, { topic: 'svc.clinical.note_signed', payload: { note_id: addendum.body.data.id, addendum_to_id: n.id } }),
    ).toBe(1);

    const draft = await note();
    const toDraft = await c.doctor.api.post('/api/clinical/notes', { addendum_to_id: draft.id, text: 'x' });
    expect(toDraft.status).toBe(409);
    const otherPatient = (
      await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
        first_name: 'Yaw',
        last_name: 'Boateng',
        date_of_birth: '1980-01-01',
        gender: 'male',
      })
    ).body.data.id;
    expect((await c.doctor.api.post('/api/clinical/notes', { addendum_to_id: n.id, patient_id: otherPatient, text: 'x' })).status).toBe(
      400,
    );
  });

  it('validates the content, the format and the links', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await c.doctor.api.post('/api/clinical/notes', { patient_id: c.patientId, ...body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    };
    await bad({}, 'text');
    await bad({ format: 'soap' }, 'subjective');
    await bad({ format: 'soap', subjective: 'x', text: 'y' }, 'text');
    await bad({ format: 'free_text', text: 'y', plan: 'z' }, 'plan');
    await bad({ format: 'letter', text: 'x' }, 'format');
    await bad({ text: '   ' }, 'text');
    await bad({ text: 'x'.repeat(50_001) }, 'text');
    await bad({ text: 'x', encounter_id: 'nope' }, 'encounter_id');
    await bad({ text: 'x', appointment_id: 'nope' }, 'appointment_id');
    const res = await c.doctor.api.post('/api/clinical/notes', { text: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('patient_id');
    const otherPatient = (
      await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
        first_name: 'Ama',
        last_name: 'Asante',
        date_of_birth: '1985-01-01',
        gender: 'female',
      })
    ).body.data.id;
    const record = (await c.doctor.api.post('/api/clinical-records', { patient_id: otherPatient, encounter_type: 'consultation' })).body
      .data;
    await bad({ text: 'x', encounter_id: record.id }, 'encounter_id');
    const own = (await c.doctor.api.post('/api/clinical-records', { patient_id: c.patientId, encounter_type: 'consultation' })).body.data;
    expect(
      (await c.doctor.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'x', encounter_id: own.id })).body.data.encounter_id,
    ).toBe(own.id);
    expect(
      (await c.doctor.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'x', encounter_id: randomUUID() })).status,
    ).toBe(404);
    const n = await note();
    const freeTextOnSoap = await c.doctor.api.patch(`/api/clinical/notes/${n.id}`, { text: 'no' });
    expect(freeTextOnSoap.status).toBe(400);
    const emptied = await c.doctor.api.patch(`/api/clinical/notes/${n.id}`, {
      subjective: null,
      objective: null,
      assessment: null,
      plan: null,
    });
    expect(emptied.status).toBe(400);
    expect((await c.doctor.api.patch(`/api/clinical/notes/${n.id}`, { expected_version: 0 })).status).toBe(400);
  });

  it('refuses callers without a token (401), without a clinical role (403) and from another organization (404)', async () => {
    const n = await note();
    expect((await app.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'x' })).status).toBe(401);
    expect((await app.api.get(`/api/clinical/notes/${n.id}`)).status).toBe(401);
    expect((await c.billing.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'x' })).status).toBe(403);
    expect((await c.billing.api.get(`/api/clinical/notes/${n.id}`)).status).toBe(403);
    expect((await c.billing.api.post(`/api/clinical/notes/${n.id}/sign`)).status).toBe(403);
    expect((await stranger.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'x' })).status).toBe(404);
    expect((await stranger.api.get(`/api/clinical/notes/${n.id}`)).status).toBe(404);
    expect((await stranger.api.patch(`/api/clinical/notes/${n.id}`, { plan: 'x' })).status).toBe(404);
    expect((await stranger.api.post(`/api/clinical/notes/${n.id}/sign`)).status).toBe(404);
    expect((await stranger.api.get(`/api/clinical/notes/patient/${c.patientId}`)).status).toBe(404);
    expect((await stranger.api.post('/api/clinical/notes', { addendum_to_id: n.id, text: 'x' })).status).toBe(404);
    expect((await c.doctor.api.get(`/api/clinical/notes/${randomUUID()}`)).status).toBe(404);
    expect((await c.doctor.api.get('/api/clinical/notes/patient/nope')).status).toBe(404);
    expect((await c.doctor.api.get(`/api/clinical/notes/${n.id}`)).body.data.status).toBe('draft');
  });
});

describe('updateClinicalNote in GraphQL: expected failures are userErrors', () => {
  const update = `mutation($id: ID!, $input: UpdateClinicalNoteInput!) {
    updateClinicalNote(id: $id, input: $input) { clinicalNote { id version plan } userErrors { field message code } }
  }`;

  it('answers a stale expectedVersion, a signed note and a bad field as userErrors with the note null', async () => {
    const n = await note();
    const ok = await c.doctor.api.graphql(update, { id: n.id, input: { plan: 'Recheck in 2 weeks', expectedVersion: 1 } });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateClinicalNote).toEqual({ clinicalNote: { id: n.id, version: 2, plan: 'Recheck in 2 weeks' }, userErrors: [] });
    const stale = await c.doctor.api.graphql(update, { id: n.id, input: { plan: 'x', expectedVersion: 1 } });
    expect(stale.body.errors).toBeUndefined();
    expect(stale.body.data.updateClinicalNote).toEqual({
      clinicalNote: null,
      userErrors: [{ field: null, message: 'The note is at version 2, not 1; reload it and try again', code: 'STALE_VERSION' }],
    });
    const bad = await c.doctor.api.graphql(update, { id: n.id, input: { title: 'x'.repeat(201) } });
    expect(bad.body.data.updateClinicalNote).toEqual({
      clinicalNote: null,
      userErrors: [{ field: ['input', 'title'], message: expect.any(String), code: 'INVALID' }],
    });
    expect((await c.doctor.api.post(`/api/clinical/notes/${n.id}/sign`)).status).toBe(200);
    const frozen = await c.doctor.api.graphql(update, { id: n.id, input: { plan: 'changed my mind' } });
    expect(frozen.body.data.updateClinicalNote).toEqual({
      clinicalNote: null,
      userErrors: [{ field: null, message: 'Cannot edit a clinical note that is signed', code: 'ILLEGAL_TRANSITION' }],
    });
    // What the user cannot fix stays a top-level error.
    const missing = await c.doctor.api.graphql(update, { id: randomUUID(), input: { plan: 'x' } });
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('dictation', () => {
  const segment = (id: string, body: Record<string, unknown>, api: Api = c.doctor.api) =>
    api.post(`/api/clinical/dictation/${id}/segments`, body);

  async function dictation(fields: Record<string, unknown> = {}) {
    const res = await c.doctor.api.post('/api/clinical/dictation', { patient_id: c.patientId, title: 'Ward round', ...fields });
    expect(res.status).toBe(201);
    return res.body.data as { id: string };
  }

  it('merges text segments, in order, into a new draft note; once', async () => {
    const d = await dictation();
    expect(d).toMatchObject({ status: 'active', segment_count: 0, clinician_id: c.doctor.user.id });
    const first = await segment(d.id, { text: 'Patient seen on the ward round.' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ sequence: 1, kind: 'text', text: 'Patient seen on the ward round.' });
    // Sent out of order: the third before the second.
    expect((await segment(d.id, { text: 'Plan: discharge tomorrow.', sequence: 3 })).body.data.sequence).toBe(3);
    const second = (await segment(d.id, { text: 'Comfortable, eating well.', sequence: 2 })).body.data;
    expect(second.sequence).toBe(2);
    // A retry of the same segment answers the one kept; another text at its place is a conflict.
    const retry = await segment(d.id, { text: 'Comfortable, eating well.', sequence: 2 });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(second.id);
    expect((await segment(d.id, { text: 'Something else', sequence: 2 })).status).toBe(409);
    const listed = await c.doctor.api.get(`/api/clinical/dictation/${d.id}/segments`);
    expect(listed.body.data.map((s: { sequence: number }) => s.sequence)).toEqual([1, 2, 3]);
    expect(listed.body.meta.total).toBe(3);

    const merged = await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, {});
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({
      format: 'free_text',
      status: 'draft',
      title: 'Ward round',
      text: 'Patient seen on the ward round.\n\nComfortable, eating well.\n\nPlan: discharge tomorrow.',
      patient_id: c.patientId,
    });
    expect((await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, {})).status).toBe(409);
    expect((await segment(d.id, { text: 'Late addition' })).status).toBe(409);
  });

  it("merges into a draft SOAP note's section, never into a signed note", async () => {
    const n = (await c.doctor.api.post('/api/clinical/notes', { patient_id: c.patientId, subjective: 'Cough' })).body.data;
    const d = await dictation({ note_id: n.id });
    await segment(d.id, { text: 'Chest clear on auscultation.' });
    const noSection = await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, {});
    expect(noSection.status).toBe(400);
    expect(noSection.body.error.details[0].field).toBe('section');
    const merged = await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, { section: 'objective' });
    expect(merged.body.data).toMatchObject({ id: n.id, objective: 'Chest clear on auscultation.', subjective: 'Cough', version: 2 });

    const signed = (await c.doctor.api.post('/api/clinical/notes', { patient_id: c.patientId, text: 'Final' })).body.data;
    await c.doctor.api.post(`/api/clinical/notes/${signed.id}/sign`);
    expect((await c.doctor.api.post('/api/clinical/dictation', { patient_id: c.patientId, note_id: signed.id })).status).toBe(409);
    const e = await dictation();
    await segment(e.id, { text: 'x' });
    expect((await c.doctor.api.post(`/api/clinical/dictation/${e.id}/merge`, { note_id: signed.id })).status).toBe(409);
    expect((await c.doctor.api.post(`/api/clinical/dictation/${e.id}/merge`, { note_id: randomUUID() })).status).toBe(404);
  });

  it('takes audio segments, which wait for their transcript before a merge', async () => {
    const d = await dictation();
    await segment(d.id, { text: 'Typed first.' });
    const wrongType = await c.doctor.api.request('POST', `/api/clinical/dictation/${d.id}/segments`, undefined, {
      raw: 'hello',
      headers: { 'content-type': 'text/csv' },
    });
    expect(wrongType.status).toBe(415);
    const bytes = Buffer.alloc(3000, 'd');
    const audio = await c.doctor.api.request('POST', `/api/clinical/dictation/${d.id}/segments?sequence=2`, undefined, {
      raw: bytes,
      headers: { 'content-type': 'audio/webm' },
    });
    expect(audio.status).toBe(201);
    expect(audio.body.data).toMatchObject({
      sequence: 2,
      kind: 'audio',
      text: null,
      recording_id: expect.any(String),
      transcript_id: expect.any(String),
      transcript: { status: 'pending' },
    });
    // The same audio again at its place is a retry.
    const retry = await c.doctor.api.request('POST', `/api/clinical/dictation/${d.id}/segments?sequence=2`, undefined, {
      raw: bytes,
      headers: { 'content-type': 'audio/webm' },
    });
    expect(retry.body.data.id).toBe(audio.body.data.id);
    const recording = (await c.doctor.api.get(`/api/sessions/recordings/${audio.body.data.recording_id}`)).body.data;
    expect(recording).toMatchObject({ kind: 'dictation', dictation_id: d.id, status: 'ready', size_bytes: 3000 });
    // Its audio cannot be replaced through the recording.
    expect(
      (
        await c.doctor.api.request('POST', `/api/sessions/recordings/${recording.id}/audio`, undefined, {
          raw: bytes,
          headers: { 'content-type': 'audio/webm' },
        })
      ).status,
    ).toBe(409);

    const waiting = await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, {});
    expect(waiting.status).toBe(409);
    expect(waiting.body.error.message).toContain(audio.body.data.transcript_id);
    await c.doctor.api.post(`/api/sessions/transcripts/${audio.body.data.transcript_id}`, { text: 'Then dictated.' });
    expect((await c.doctor.api.get(`/api/clinical/dictation/${d.id}/segments`)).body.data[1].text).toBe('Then dictated.');
    const merged = await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, {});
    expect(merged.body.data.text).toBe('Typed first.\n\nThen dictated.');
  });

  it('validates input and refuses outsiders', async () => {
    const d = await dictation();
    expect((await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, {})).status).toBe(409);
    expect((await segment(d.id, {})).status).toBe(400);
    expect((await segment(d.id, { text: 'x', sequence: 0 })).status).toBe(400);
    expect((await segment(d.id, { text: '' })).status).toBe(400);
    expect((await c.doctor.api.post('/api/clinical/dictation', {})).status).toBe(400);
    expect((await c.doctor.api.post(`/api/clinical/dictation/${d.id}/merge`, { section: 'history' })).status).toBe(400);
    expect((await segment(randomUUID(), { text: 'x' })).status).toBe(404);
    expect((await stranger.api.post('/api/clinical/dictation', { patient_id: c.patientId })).status).toBe(404);
    expect((await segment(d.id, { text: 'x' }, stranger.api)).status).toBe(404);
    expect((await stranger.api.get(`/api/clinical/dictation/${d.id}/segments`)).status).toBe(404);
    expect((await stranger.api.post(`/api/clinical/dictation/${d.id}/merge`, {})).status).toBe(404);
    expect((await c.billing.api.post('/api/clinical/dictation', { patient_id: c.patientId })).status).toBe(403);
    expect((await segment(d.id, { text: 'x' }, c.billing.api)).status).toBe(403);
    expect((await app.api.post(`/api/clinical/dictation/${d.id}/segments`, { text: 'x' })).status).toBe(401);
    expect(
      (
        await app.api.request('POST', `/api/clinical/dictation/${d.id}/segments`, undefined, {
          raw: Buffer.alloc(10),
          headers: { 'content-type': 'audio/wav' },
        })
      ).status,
    ).toBe(401);
  });
});
