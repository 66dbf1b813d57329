import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { Recording } from '../subgraphs/clinical/clinical-sessions/recording.entity';
import { DeadLetter } from '../workers/store';
import { signUp, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';
import { eventually } from './support/wait';

const MAX_BYTES = 64 * 1024;
const CONSULTATION = 'BP 150/95, pulse 88, allergic to penicillin, start amoxicillin 500 mg three times daily for 7 days';
const storageDir = mkdtempSync(join(tmpdir(), 'ccp-objects-'));
const saved = { ...process.env };

let app: TestApp;
let c: Clinic;
let stranger: Awaited<ReturnType<typeof outsider>>;

beforeAll(async () => {
  Object.assign(process.env, { OBJECT_STORAGE_DIR: storageDir, AUDIO_UPLOAD_MAX_BYTES: String(MAX_BYTES) });
  delete process.env.TRANSCRIPTION_URL;
  resetConfig();
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
});
afterAll(async () => {
  await app.close();
  for (const k of ['OBJECT_STORAGE_DIR', 'AUDIO_UPLOAD_MAX_BYTES', 'TRANSCRIPTION_URL']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetConfig();
  rmSync(storageDir, { recursive: true, force: true });
});

/** Bytes standing in for audio: the platform checks the declared type, not the codec. */
const audio = (size = 4096, seed = 'a') => Buffer.alloc(size, seed);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    : [];

function upload(api: Api, path: string, body: Buffer | string, type = 'audio/wav') {
  return api.request('POST', path, undefined, { raw: body, headers: type ? { 'content-type': type } : {} });
}

async function multipart(
  token: string,
  path: string,
  parts: { fields?: Record<string, string>; file?: { bytes: Buffer; type: string; name?: string } },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(parts.fields ?? {})) form.append(k, v);
  if (parts.file)
    form.append('audio', new Blob([new Uint8Array(parts.file.bytes)], { type: parts.file.type }), parts.file.name ?? 'visit.webm');
  const res = await fetch(app.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: await res.json() };
}

/** A body sent in chunks with no Content-Length, as a recorder streaming live would. */
async function streamed(token: string, path: string, chunks: number, chunkSize: number) {
  const chunk = new Uint8Array(chunkSize).fill(98);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ >= chunks) return controller.close();
      controller.enqueue(chunk);
    },
  });
  const res = await fetch(app.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'audio/ogg' },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: await res.json() };
}

async function startRecording(api: Api = c.doctor.api, fields: Record<string, unknown> = {}) {
  const res = await api.post('/api/sessions/recordings', { patient_id: c.patientId, title: 'Consultation', ...fields });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; status: string };
}

async function readyRecording(bytes = audio()) {
  const rec = await startRecording();
  expect((await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, bytes)).status).toBe(200);
  const ready = await c.doctor.api.post(`/api/sessions/recordings/${rec.id}/ready`, { duration_seconds: 12.5 });
  expect(ready.status).toBe(200);
  return ready.body.data as { id: string; status: string };
}

function useTranscriptionServer(url: string | undefined) {
  if (url) process.env.TRANSCRIPTION_URL = url;
  else delete process.env.TRANSCRIPTION_URL;
  resetConfig();
}

describe('recordings', () => {
  it('starts a recording for a patient, lists it as mine, and reads it', async () => {
    const rec = await startRecording(c.doctor.api, { title: 'Follow-up visit' });
    expect(rec).toMatchObject({
      status: 'recording',
      kind: 'consultation',
      patient_id: c.patientId,
      organization_id: c.orgId,
      clinician_id: c.doctor.user.id,
      title: 'Follow-up visit',
    });
    const mine = await c.doctor.api.get('/api/sessions/recordings?limit=100');
    expect(mine.status).toBe(200);
    expect(mine.body.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    expect(mine.body.data.map((r: { id: string }) => r.id)).toContain(rec.id);
    // The nurse did not record it: not in her list, though she may read it.
    expect((await c.nurse.api.get('/api/sessions/recordings')).body.data.map((r: { id: string }) => r.id)).not.toContain(rec.id);
    expect((await c.nurse.api.get(`/api/sessions/recordings/${rec.id}`)).body.data).toMatchObject({ id: rec.id, status: 'recording' });
    const filtered = await c.doctor.api.get(`/api/sessions/recordings?status=ready&patient_id=${c.patientId}`);
    expect(filtered.body.data.map((r: { id: string }) => r.id)).not.toContain(rec.id);
  });

  it('refuses callers without a token (401), without a clinical role (403) and from another organization (404)', async () => {
    const rec = await startRecording();
    expect((await app.api.post('/api/sessions/recordings', { patient_id: c.patientId })).status).toBe(401);
    expect((await app.api.get('/api/sessions/recordings')).status).toBe(401);
    expect((await c.billing.api.post('/api/sessions/recordings', { patient_id: c.patientId })).status).toBe(403);
    expect((await c.billing.api.get(`/api/sessions/recordings/${rec.id}`)).status).toBe(403);
    const foreign = await stranger.api.post('/api/sessions/recordings', { patient_id: c.patientId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await stranger.api.get(`/api/sessions/recordings/${rec.id}`)).status).toBe(404);
    expect((await upload(stranger.api, `/api/sessions/recordings/${rec.id}/audio`, audio())).status).toBe(404);
    expect((await upload(c.billing.api, `/api/sessions/recordings/${rec.id}/audio`, audio())).status).toBe(403);
    expect((await upload(app.api, `/api/sessions/recordings/${rec.id}/audio`, audio())).status).toBe(401);
    expect((await stranger.api.post(`/api/sessions/recordings/${rec.id}/ready`)).status).toBe(404);
  });

  it('validates input: ids, the appointment, the title, the status filter', async () => {
    expect((await c.doctor.api.get('/api/sessions/recordings/not-a-uuid')).status).toBe(404);
    expect((await c.doctor.api.get(`/api/sessions/recordings/${randomUUID()}`)).status).toBe(404);
    const noPatient = await c.doctor.api.post('/api/sessions/recordings', {});
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.error.details).toEqual([{ field: 'patient_id', message: 'is required' }]);
    const badAppointment = await c.doctor.api.post('/api/sessions/recordings', { patient_id: c.patientId, appointment_id: 'x' });
    expect(badAppointment.status).toBe(400);
    expect(badAppointment.body.error.details[0].field).toBe('appointment_id');
    expect((await c.doctor.api.post('/api/sessions/recordings', { patient_id: c.patientId, appointment_id: randomUUID() })).status).toBe(
      404,
    );
    expect((await c.doctor.api.post('/api/sessions/recordings', { patient_id: c.patientId, title: '   ' })).status).toBe(400);
    expect((await c.doctor.api.get('/api/sessions/recordings?status=lost')).status).toBe(400);
    expect((await c.doctor.api.get('/api/sessions/recordings?patient_id=nope')).status).toBe(400);
  });
});

describe('audio upload', () => {
  it('streams a raw audio body to storage and keeps its type, size and SHA-256', async () => {
    const rec = await startRecording();
    const bytes = audio(10_000, 'q');
    const res = await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, bytes, 'audio/wav');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: rec.id,
      status: 'uploaded',
      content_type: 'audio/wav',
      size_bytes: 10_000,
      checksum_sha256: sha256(bytes),
      uploaded_at: expect.any(String),
    });
    const stored = await app.em('clinical').findOneOrFail(Recording, { id: rec.id });
    const files = filesUnder(join(storageDir, 'recordings', rec.id));
    expect(files).toHaveLength(1);
    expect(files[0].endsWith(stored.storageKey!.split('/').pop()!)).toBe(true);
    expect(sha256(readFileSync(files[0]))).toBe(sha256(bytes));
    // Uploading again replaces it; the first copy goes.
    const again = audio(2048, 'z');
    const second = await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, again, 'audio/mpeg;codecs=mp3');
    expect(second.body.data).toMatchObject({ content_type: 'audio/mpeg', size_bytes: 2048, checksum_sha256: sha256(again) });
    await eventually(async () => filesUnder(join(storageDir, 'recordings', rec.id)).length === 1, 'the replaced audio to go');
  });

  it('takes the file of a multipart body, with its own type', async () => {
    const rec = await startRecording();
    const bytes = audio(5000, 'm');
    const res = await multipart(c.doctor.token, `/api/sessions/recordings/${rec.id}/audio`, {
      fields: { note: 'x' },
      file: { bytes, type: 'audio/webm' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'uploaded',
      content_type: 'audio/webm',
      size_bytes: 5000,
      checksum_sha256: sha256(bytes),
    });
    const noFile = await multipart(c.doctor.token, `/api/sessions/recordings/${rec.id}/audio`, { fields: { note: 'x' } });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.code).toBe('VALIDATION_ERROR');
    const wrong = await multipart(c.doctor.token, `/api/sessions/recordings/${rec.id}/audio`, {
      file: { bytes, type: 'image/png', name: 'x.png' },
    });
    expect(wrong.status).toBe(415);
  });

  it('answers 415 for a type that is not accepted audio, and 400 for an empty body', async () => {
    const rec = await startRecording();
    for (const type of ['text/plain', 'application/json', 'video/mp4', 'application/octet-stream', '']) {
      const res = await upload(
        c.doctor.api,
        `/api/sessions/recordings/${rec.id}/audio`,
        type === 'application/json' ? '{"a":1}' : audio(100),
        type,
      );
      expect({ type, status: res.status, code: res.body.error.code }).toEqual({ type, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect((await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, Buffer.alloc(0))).status).toBe(400);
    expect((await c.doctor.api.get(`/api/sessions/recordings/${rec.id}`)).body.data.status).toBe('recording');
  });

  it('answers 413 past the size limit, declared or streamed, and keeps nothing', async () => {
    const rec = await startRecording();
    const declared = await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, audio(MAX_BYTES + 1));
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const live = await streamed(c.doctor.token, `/api/sessions/recordings/${rec.id}/audio`, 40, 4096);
    expect(live.status).toBe(413);
    expect(live.body).toEqual({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(String(MAX_BYTES)) },
    });
    expect(filesUnder(join(storageDir, 'recordings', rec.id))).toEqual([]);
    expect((await c.doctor.api.get(`/api/sessions/recordings/${rec.id}`)).body.data.status).toBe('recording');
    // Exactly the limit is fine, streamed too.
    expect((await streamed(c.doctor.token, `/api/sessions/recordings/${rec.id}/audio`, 16, 4096)).status).toBe(200);
  });

  it('refuses a completion that names no stored upload (GraphQL callers cannot forge one)', async () => {
    const rec = await startRecording();
    const complete = `mutation($id: ID!, $key: String!) { completeRecordingAudio(id: $id, key: $key, contentType: "audio/wav", sizeBytes: 10, checksumSha256: "${'0'.repeat(64)}") { id status } }`;
    const other = await c.doctor.api.graphql(complete, { id: rec.id, key: `recordings/${randomUUID()}/${randomUUID()}` });
    expect(other.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const reserved = await c.doctor.api.graphql(
      'mutation($id: ID!) { reserveRecordingAudio(id: $id, contentType: "audio/wav", declaredBytes: 10) { key maxBytes } }',
      { id: rec.id },
    );
    expect(reserved.body.data.reserveRecordingAudio).toEqual({
      key: expect.stringMatching(new RegExp(`^recordings/${rec.id}/`)),
      maxBytes: MAX_BYTES,
    });
    const nothing = await c.doctor.api.graphql(complete, { id: rec.id, key: reserved.body.data.reserveRecordingAudio.key });
    expect(nothing.body.errors[0]).toMatchObject({
      message: expect.stringContaining('no stored audio'),
      extensions: { code: 'VALIDATION_ERROR' },
    });
    expect((await c.doctor.api.get(`/api/sessions/recordings/${rec.id}`)).body.data.status).toBe('recording');
  });

  it('marks a recording ready once it has audio, then takes no more audio', async () => {
    const rec = await startRecording();
    const early = await c.doctor.api.post(`/api/sessions/recordings/${rec.id}/ready`);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/recording that is recording/);
    await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, audio());
    expect((await c.doctor.api.post(`/api/sessions/recordings/${rec.id}/ready`, { duration_seconds: -1 })).status).toBe(400);
    const ready = await c.doctor.api.post(`/api/sessions/recordings/${rec.id}/ready`, { duration_seconds: 42 });
    expect(ready.body.data).toMatchObject({ status: 'ready', duration_seconds: 42, ready_at: expect.any(String) });
    expect((await c.doctor.api.post(`/api/sessions/recordings/${rec.id}/ready`)).status).toBe(409);
    expect((await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, audio())).status).toBe(409);
  });

  it('fails a recording whose stored audio is gone when it is to be made ready', async () => {
    const rec = await startRecording();
    await upload(c.doctor.api, `/api/sessions/recordings/${rec.id}/audio`, audio());
    for (const f of filesUnder(join(storageDir, 'recordings', rec.id))) rmSync(f);
    const res = await c.doctor.api.post(`/api/sessions/recordings/${rec.id}/ready`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'failed', failure_reason: 'The stored audio is missing' });
  });
});

/** A speech-to-text server on loopback speaking the OpenAI-compatible transcription API. */
class TranscriptionServer {
  mode: 'ok' | 'error' | 'refuse' = 'ok';
  requests: { path: string; auth?: string; fields: Record<string, string>; file?: { sha256: string; type: string; size: number } }[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const seen: (typeof this.requests)[number] = { path: req.url ?? '', auth: req.headers.authorization, fields: {} };
    await new Promise<void>((resolve) => {
      const bb = busboy({ headers: req.headers });
      bb.on('field', (k, v) => (seen.fields[k] = v));
      bb.on('file', (_n, stream, info) => {
        const hash = createHash('sha256');
        let size = 0;
        stream.on('data', (d: Buffer) => {
          hash.update(d);
          size += d.length;
        });
        stream.on('end', () => (seen.file = { sha256: hash.digest('hex'), type: info.mimeType, size }));
      });
      bb.on('close', resolve);
      req.pipe(bb);
    });
    this.requests.push(seen);
    res.setHeader('content-type', 'application/json');
    if (this.mode === 'error') return res.writeHead(503).end(JSON.stringify({ error: { message: 'model is loading' } }));
    if (this.mode === 'refuse') return res.writeHead(400).end(JSON.stringify({ error: { message: 'could not decode audio' } }));
    res.writeHead(200).end(
      JSON.stringify({
        task: 'transcribe',
        language: 'english',
        duration: 9.5,
        text: ` ${CONSULTATION}`,
        segments: [
          { id: 0, start: 0, end: 4.2, text: ' BP 150/95, pulse 88,' },
          { id: 1, start: 4.2, end: 9.5, text: ' allergic to penicillin, start amoxicillin 500 mg three times daily for 7 days' },
        ],
      }),
    );
  }
}

describe('transcripts', () => {
  it('waits for a submitted transcript when no speech-to-text provider is configured, and says so', async () => {
    useTranscriptionServer(undefined);
    const rec = await readyRecording();
    const res = await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id, language: 'en' });
    expect(res.status).toBe(201);
    const t = res.body.data;
    expect(t).toMatchObject({
      recording_id: rec.id,
      patient_id: c.patientId,
      status: 'pending',
      language: 'en',
      text: null,
      segments: [],
      status_detail: expect.stringContaining('TRANSCRIPTION_URL'),
    });
    // The job ran, found no provider, and left it waiting.
    await eventually(
      async () =>
        (await app.em('clinical').findOne(OutboxEvent, { topic: 'svc.sessions.transcription_requested', payload: { transcript_id: t.id } }))
          ?.publishedAt,
      'the job to be published',
    );
    expect((await c.nurse.api.get(`/api/sessions/transcripts/${t.id}`)).body.data).toMatchObject({
      status: 'pending',
      status_detail: expect.stringContaining('submitted'),
    });
    const again = await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(t.id);

    const submitted = await c.nurse.api.post(`/api/sessions/transcripts/${t.id}`, {
      segments: [
        { speaker: 'clinician', start_seconds: 0, end_seconds: 3.5, text: 'BP 150/95, pulse 88.' },
        { speaker: 'patient', start_seconds: 3.5, end_seconds: 6, text: 'I am allergic to penicillin.' },
      ],
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({
      status: 'completed',
      source: 'submitted',
      submitted_by: c.nurse.user.id,
      text: 'clinician: BP 150/95, pulse 88.\npatient: I am allergic to penicillin.',
      segments: [
        { speaker: 'clinician', start_seconds: 0, end_seconds: 3.5, text: 'BP 150/95, pulse 88.' },
        { speaker: 'patient', start_seconds: 3.5, end_seconds: 6, text: 'I am allergic to penicillin.' },
      ],
      status_detail: null,
    });
    const [event] = await app
      .em('clinical')
      .find(OutboxEvent, { topic: 'svc.sessions.transcript_completed', payload: { transcript_id: t.id } });
    expect(event.payload).toEqual({
      transcript_id: t.id,
      recording_id: rec.id,
      patient_id: c.patientId,
      organization_id: c.orgId,
      source: 'submitted',
      segment_count: 2,
    });
    const twice = await c.nurse.api.post(`/api/sessions/transcripts/${t.id}`, { text: 'again' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('CONFLICT');
  });

  it("takes a provider's callback made with an organization API key", async () => {
    const orgAdmin = await signUp(app.api, { registration_role: 'STAFF' });
    await addMember(app, c.orgId, orgAdmin.user.id, 'ORG:ADMIN');
    const key = async (scopes: string[]) =>
      (await orgAdmin.api.post('/api/developer/keys', { name: 'scribe', scopes, organization_id: c.orgId })).body.data.key as string;
    const rec = await readyRecording();
    const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).body.data;
    const readOnly = await app.api.post(
      `/api/sessions/transcripts/${t.id}`,
      { text: 'x' },
      { headers: { 'x-api-key': await key(['clinical:read']) } },
    );
    expect(readOnly.status).toBe(403);
    const res = await app.api.post(
      `/api/sessions/transcripts/${t.id}`,
      { text: CONSULTATION },
      { headers: { 'x-api-key': await key(['clinical:read', 'clinical:write']) } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', source: 'submitted', submitted_by: orgAdmin.user.id });
  });

  it('refuses to transcribe a recording that is not ready, and validates what is submitted', async () => {
    const rec = await startRecording();
    expect((await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).status).toBe(409);
    expect((await c.doctor.api.post('/api/sessions/transcripts', { recording_id: 'nope' })).status).toBe(400);
    expect((await c.doctor.api.post('/api/sessions/transcripts', { recording_id: randomUUID() })).status).toBe(404);
    const ready = await readyRecording();
    expect((await c.doctor.api.post('/api/sessions/transcripts', { recording_id: ready.id, language: 'English' })).status).toBe(400);
    expect((await stranger.api.post('/api/sessions/transcripts', { recording_id: ready.id })).status).toBe(404);
    expect((await c.billing.api.post('/api/sessions/transcripts', { recording_id: ready.id })).status).toBe(403);
    const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: ready.id })).body.data;
    expect((await c.doctor.api.post(`/api/sessions/transcripts/${t.id}`, {})).status).toBe(400);
    const backwards = await c.doctor.api.post(`/api/sessions/transcripts/${t.id}`, {
      segments: [{ text: 'x', start_seconds: 5, end_seconds: 2 }],
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.details[0].field).toMatch(/end_seconds/);
    expect((await stranger.api.post(`/api/sessions/transcripts/${t.id}`, { text: 'forged' })).status).toBe(404);
    expect((await stranger.api.get(`/api/sessions/transcripts/${t.id}`)).status).toBe(404);
    expect((await app.api.get(`/api/sessions/transcripts/${t.id}`)).status).toBe(401);
  });

  describe('through a speech-to-text server', () => {
    const stt = new TranscriptionServer();
    beforeAll(() => stt.start());
    afterAll(async () => {
      useTranscriptionServer(undefined);
      await stt.close();
    });

    it('streams the audio to the provider and keeps the text with timed segments', async () => {
      stt.mode = 'ok';
      useTranscriptionServer(`${stt.url}/v1`);
      process.env.TRANSCRIPTION_API_KEY = 'stt-test-key';
      resetConfig();
      const bytes = audio(20_000, 's');
      const rec = await readyRecording(bytes);
      const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).body.data;
      expect(t.status_detail).toMatch(/Queued for speech-to-text/);
      const done = await eventually(async () => {
        const r = await c.doctor.api.get(`/api/sessions/transcripts/${t.id}`);
        return r.body.data.status === 'completed' && r.body.data;
      }, 'the transcript');
      delete process.env.TRANSCRIPTION_API_KEY;
      expect(done).toMatchObject({
        source: 'speech_to_text',
        model: 'whisper-1',
        language: 'en',
        text: CONSULTATION,
        attempts: 1,
        segments: [
          { speaker: null, start_seconds: 0, end_seconds: 4.2, text: 'BP 150/95, pulse 88,' },
          { speaker: null, start_seconds: 4.2, end_seconds: 9.5, text: expect.stringContaining('amoxicillin') },
        ],
      });
      const seen = stt.requests.at(-1)!;
      expect(seen).toMatchObject({
        path: '/v1/audio/transcriptions',
        auth: 'Bearer stt-test-key',
        fields: { model: 'whisper-1', response_format: 'verbose_json' },
      });
      expect(seen.file).toEqual({ sha256: sha256(bytes), type: 'audio/wav', size: 20_000 });
      expect(
        await app
          .em('clinical')
          .count(OutboxEvent, { topic: 'svc.sessions.transcript_completed', payload: { transcript_id: t.id, source: 'speech_to_text' } }),
      ).toBe(1);
    });

    it('retries a failing provider, then fails the transcript and puts the job in the dead letter queue', async () => {
      stt.mode = 'error';
      useTranscriptionServer(stt.url);
      const rec = await readyRecording();
      const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).body.data;
      const failed = await eventually(
        async () => {
          const r = await c.doctor.api.get(`/api/sessions/transcripts/${t.id}`);
          return r.body.data.status === 'failed' && r.body.data;
        },
        'the transcript to fail',
        45_000,
      );
      expect(failed).toMatchObject({ attempts: 3, status_detail: expect.stringMatching(/^Speech-to-text failed: .*503/) });
      const letter = await eventually(
        async () =>
          (await app.em('platform').find(DeadLetter, { topic: 'svc.sessions.transcription_requested' })).find((d) =>
            d.originalPayload.includes(t.id),
          ),
        'the dead letter',
      );
      expect(letter.error).toMatch(/503/);
      // A person may still complete a failed transcript; asking again is allowed too.
      expect((await c.doctor.api.post(`/api/sessions/transcripts/${t.id}`, { text: CONSULTATION })).body.data.status).toBe('completed');
    });

    it('fails at once when the provider refuses the audio', async () => {
      stt.mode = 'refuse';
      useTranscriptionServer(stt.url);
      const rec = await readyRecording();
      const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).body.data;
      const failed = await eventually(async () => {
        const r = await c.doctor.api.get(`/api/sessions/transcripts/${t.id}`);
        return r.body.data.status === 'failed' && r.body.data;
      }, 'the transcript to fail');
      expect(failed).toMatchObject({ attempts: 1, status_detail: expect.stringContaining('could not decode audio') });
      const again = await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id });
      expect(again.status).toBe(201);
    });
  });
});

describe('extractions', () => {
  async function extraction(text = CONSULTATION, api: Api = c.doctor.api) {
    const res = await api.post('/api/sessions/extractions', { patient_id: c.patientId, text });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  it('commits the short consultation: the vitals, the allergy and a draft prescription, in the chart', async () => {
    // A patient of their own, so the chart starts empty.
    const patientId = (
      await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
        first_name: 'Kofi',
        last_name: 'Mensah',
        date_of_birth: '1970-02-01',
        gender: 'male',
      })
    ).body.data.id;
    const created = await c.doctor.api.post('/api/sessions/extractions', { patient_id: patientId, text: CONSULTATION });
    expect(created.status).toBe(201);
    const x = created.body.data;
    expect(x).toMatchObject({
      status: 'proposed',
      patient_id: patientId,
      extractor: expect.stringMatching(/^builtin/),
      source_text: CONSULTATION,
    });
    expect(x.items.map((i: { kind: string }) => i.kind)).toEqual(['vital_sign', 'vital_sign', 'allergy', 'medication']);
    expect(x.items[3]).toMatchObject({
      status: 'proposed',
      span: { text: 'start amoxicillin 500 mg three times daily for 7 days' },
      confidence: expect.any(Number),
      medication: {
        name: 'Amoxicillin',
        rxnorm_code: '723',
        dose: 500,
        unit: 'mg',
        frequency: 'three times daily',
        frequency_code: 'TID',
        duration: '7 days',
        action: 'start',
      },
    });
    expect((await c.nurse.api.get(`/api/sessions/extractions/${x.id}`)).body.data.items).toHaveLength(4);

    const committed = await c.doctor.api.post(`/api/sessions/extractions/${x.id}/commit`, {});
    expect(committed.status).toBe(200);
    expect(committed.body.data).toMatchObject({ status: 'committed', committed_by: c.doctor.user.id });
    const byKind = Object.fromEntries(
      committed.body.data.items.map((i: { kind: string; record_type: string }) => [i.kind + ':' + i.record_type, i]),
    );
    expect(Object.values(byKind).every((i) => (i as { status: string }).status === 'committed')).toBe(true);

    const vitals = (await c.doctor.api.get(`/api/vitals?patient_id=${patientId}`)).body.data;
    expect(vitals).toHaveLength(1);
    expect(vitals[0]).toMatchObject({
      blood_pressure_systolic: 150,
      blood_pressure_diastolic: 95,
      heart_rate: 88,
      recorded_by: c.doctor.user.id,
    });
    const allergies = (await c.doctor.api.get(`/api/patients/${patientId}/allergies`)).body.data;
    expect(allergies).toEqual([expect.objectContaining({ substance: 'Penicillin', category: 'medication', status: 'active' })]);
    const prescriptions = (await c.doctor.api.get(`/api/prescriptions?patient_id=${patientId}`)).body.data;
    expect(prescriptions).toEqual([
      expect.objectContaining({
        medication: 'Amoxicillin',
        dosage: '500 mg',
        frequency: 'three times daily',
        duration: '7 days',
        status: 'draft',
        prescriber_id: c.doctor.user.id,
      }),
    ]);
    const journey = (await c.doctor.api.get(`/api/patients/${patientId}/journey?limit=100`)).body.data;
    expect(journey.map((e: { title: string }) => e.title)).toContain('note: Consultation facts committed to the chart');
    const [event] = await app
      .em('clinical')
      .find(OutboxEvent, { topic: 'svc.sessions.extraction_committed', payload: { extraction_id: x.id } });
    expect(event.payload).toMatchObject({
      patient_id: patientId,
      committed_by: c.doctor.user.id,
      vital_ids: [vitals[0].id],
      allergy_ids: [allergies[0].id],
      prescription_ids: [prescriptions[0].id],
      rejected_item_ids: [],
    });

    const twice = await c.doctor.api.post(`/api/sessions/extractions/${x.id}/commit`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toMatch(/extraction that is committed/);
    expect((await c.doctor.api.get(`/api/vitals?patient_id=${patientId}`)).body.data).toHaveLength(1);
  });

  it('commits once when two commits race: one writes, the other is a 409', async () => {
    const patientId = (
      await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
        first_name: 'Abena',
        last_name: 'Darko',
        date_of_birth: '1975-07-07',
        gender: 'female',
      })
    ).body.data.id;
    const x = (await c.doctor.api.post('/api/sessions/extractions', { patient_id: patientId, text: CONSULTATION })).body.data;
    const results = await Promise.all([
      c.doctor.api.post(`/api/sessions/extractions/${x.id}/commit`),
      c.nurse.api.post(`/api/sessions/extractions/${x.id}/commit`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await c.doctor.api.get(`/api/vitals?patient_id=${patientId}`)).body.data).toHaveLength(1);
    expect((await c.doctor.api.get(`/api/prescriptions?patient_id=${patientId}`)).body.data).toHaveLength(1);
    expect(
      await app.em('clinical').count(OutboxEvent, { topic: 'svc.sessions.extraction_committed', payload: { extraction_id: x.id } }),
    ).toBe(1);
  });

  it('writes only the accepted items; a rejected item is never written', async () => {
    const patientId = (
      await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
        first_name: 'Esi',
        last_name: 'Owusu',
        date_of_birth: '1991-05-05',
        gender: 'female',
      })
    ).body.data.id;
    const x = (await c.nurse.api.post('/api/sessions/extractions', { patient_id: patientId, text: CONSULTATION })).body.data;
    const allergy = x.items.find((i: { kind: string }) => i.kind === 'allergy');
    const res = await c.nurse.api.post(`/api/sessions/extractions/${x.id}/commit`, { item_ids: [allergy.id] });
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((i: { kind: string; status: string }) => `${i.kind}:${i.status}`)).toEqual([
      'vital_sign:rejected',
      'vital_sign:rejected',
      'allergy:committed',
      'medication:rejected',
    ]);
    expect((await c.doctor.api.get(`/api/vitals?patient_id=${patientId}`)).body.data).toEqual([]);
    expect((await c.doctor.api.get(`/api/prescriptions?patient_id=${patientId}`)).body.data).toEqual([]);
    expect((await c.doctor.api.get(`/api/patients/${patientId}/allergies`)).body.data).toHaveLength(1);
    // The chart has the allergy now: a second extraction finds it already recorded, and writes it once.
    const y = (await c.nurse.api.post('/api/sessions/extractions', { patient_id: patientId, text: 'Known allergy to penicillin (rash).' }))
      .body.data;
    const again = (await c.nurse.api.post(`/api/sessions/extractions/${y.id}/commit`)).body.data;
    expect(again.items[0]).toMatchObject({ kind: 'allergy', status: 'already_recorded', record_type: 'allergy' });
    expect((await c.doctor.api.get(`/api/patients/${patientId}/allergies`)).body.data).toHaveLength(1);
  });

  it('extracts from a completed transcript, problems and follow-ups included', async () => {
    const rec = await readyRecording();
    const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).body.data;
    const pending = await c.doctor.api.post('/api/sessions/extractions', { transcript_id: t.id });
    expect(pending.status).toBe(409);
    await c.doctor.api.post(`/api/sessions/transcripts/${t.id}`, { text: 'Known hypertension, no fever. Temp 37.2. Review in 2 weeks.' });
    const res = await c.doctor.api.post('/api/sessions/extractions', { transcript_id: t.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ transcript_id: t.id, recording_id: rec.id, patient_id: c.patientId });
    expect(res.body.data.items.map((i: { kind: string }) => i.kind)).toEqual(['problem', 'vital_sign', 'follow_up']);
    expect(res.body.data.items[0].problem).toEqual({
      name: 'Hypertension',
      icd10_code: 'I10',
      icd10_display: 'Essential (primary) hypertension',
    });
    expect(res.body.data.items[2].follow_up).toMatchObject({ interval_days: 14, due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const committed = (await c.doctor.api.post(`/api/sessions/extractions/${res.body.data.id}/commit`)).body.data;
    const followUp = committed.items[2];
    expect(followUp).toMatchObject({ status: 'committed', record_type: 'action_item' });
    const item = (await c.doctor.api.get(`/api/sessions/action-items/${followUp.record_id}`)).body.data;
    expect(item).toMatchObject({
      status: 'open',
      assignee_id: c.doctor.user.id,
      recording_id: rec.id,
      extraction_id: res.body.data.id,
      due_date: followUp.follow_up.due_date,
    });
    expect(committed.items[0]).toMatchObject({ status: 'committed', record_type: 'journey_event' });
  });

  it('validates input and guards who may extract and commit', async () => {
    const x = await extraction();
    expect((await c.doctor.api.post('/api/sessions/extractions', {})).status).toBe(400);
    const both = await c.doctor.api.post('/api/sessions/extractions', { text: 'x', transcript_id: randomUUID(), patient_id: c.patientId });
    expect(both.status).toBe(400);
    const noPatient = await c.doctor.api.post('/api/sessions/extractions', { text: 'BP 120/80' });
    expect(noPatient.body.error.details).toEqual([{ field: 'patient_id', message: 'is required with text' }]);
    expect((await c.doctor.api.post('/api/sessions/extractions', { transcript_id: randomUUID() })).status).toBe(404);
    expect((await c.doctor.api.post('/api/sessions/extractions', { patient_id: c.patientId, text: 'x'.repeat(100_001) })).status).toBe(400);
    const unknownItem = await c.doctor.api.post(`/api/sessions/extractions/${x.id}/commit`, { item_ids: [randomUUID()] });
    expect(unknownItem.status).toBe(400);
    expect(unknownItem.body.error.details[0].field).toBe('item_ids.0');
    expect((await c.doctor.api.post(`/api/sessions/extractions/${x.id}/commit`, { item_ids: 'all' })).status).toBe(400);
    expect((await c.billing.api.post('/api/sessions/extractions', { patient_id: c.patientId, text: CONSULTATION })).status).toBe(403);
    expect((await c.billing.api.post(`/api/sessions/extractions/${x.id}/commit`)).status).toBe(403);
    expect((await stranger.api.post('/api/sessions/extractions', { patient_id: c.patientId, text: CONSULTATION })).status).toBe(404);
    expect((await stranger.api.get(`/api/sessions/extractions/${x.id}`)).status).toBe(404);
    expect((await stranger.api.post(`/api/sessions/extractions/${x.id}/commit`)).status).toBe(404);
    expect((await app.api.post(`/api/sessions/extractions/${x.id}/commit`)).status).toBe(401);
    expect((await c.doctor.api.get(`/api/sessions/extractions/${x.id}`)).body.data.status).toBe('proposed');
  });
});

describe('action items', () => {
  it('creates, lists with filters, reads, updates, completes and cancels, once', async () => {
    const rec = await startRecording();
    const created = await c.doctor.api.post('/api/sessions/action-items', {
      recording_id: rec.id,
      title: 'Call the lab about the CBC',
      assignee_id: c.nurse.user.id,
      due_date: '2030-01-10',
      priority: 'high',
    });
    expect(created.status).toBe(201);
    const item = created.body.data;
    expect(item).toMatchObject({
      patient_id: c.patientId,
      recording_id: rec.id,
      status: 'open',
      priority: 'high',
      due_date: '2030-01-10',
      assignee_id: c.nurse.user.id,
      created_by: c.doctor.user.id,
    });
    const later = (
      await c.doctor.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'Book a review', due_date: '2030-03-01' })
    ).body.data;

    const mine = await c.nurse.api.get('/api/sessions/action-items?mine=true&limit=100');
    expect(mine.body.data.map((i: { id: string }) => i.id)).toContain(item.id);
    expect(mine.body.data.map((i: { id: string }) => i.id)).not.toContain(later.id);
    const due = (
      await c.doctor.api.get(`/api/sessions/action-items?patient_id=${c.patientId}&due_before=2030-02-01&status=open&limit=100`)
    ).body.data.map((i: { id: string }) => i.id);
    expect(due).toContain(item.id);
    expect(due).not.toContain(later.id);
    const byRecording = await c.doctor.api.get(`/api/sessions/action-items?recording_id=${rec.id}`);
    expect(byRecording.body.data.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect(byRecording.body.meta.total).toBe(1);
    expect((await stranger.api.get('/api/sessions/action-items?limit=100')).body.data.map((i: { id: string }) => i.id)).not.toContain(
      item.id,
    );

    const edited = await c.nurse.api.patch(`/api/sessions/action-items/${item.id}`, {
      title: 'Call the lab',
      description: 'Ask for the platelets',
    });
    expect(edited.body.data).toMatchObject({ title: 'Call the lab', description: 'Ask for the platelets', status: 'open' });
    const done = await c.nurse.api.patch(`/api/sessions/action-items/${item.id}`, { status: 'done' });
    expect(done.body.data).toMatchObject({ status: 'done', completed_by: c.nurse.user.id, completed_at: expect.any(String) });
    const editDone = await c.nurse.api.patch(`/api/sessions/action-items/${item.id}`, { title: 'Too late' });
    expect(editDone.status).toBe(409);
    const reopened = await c.nurse.api.patch(`/api/sessions/action-items/${item.id}`, { status: 'open', title: 'Call the lab again' });
    expect(reopened.body.data).toMatchObject({ status: 'open', title: 'Call the lab again', completed_by: null });

    const cancelled = await c.doctor.api.delete(`/api/sessions/action-items/${item.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelled_by: c.doctor.user.id });
    const twice = await c.doctor.api.delete(`/api/sessions/action-items/${item.id}`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot cancel an action item that is cancelled');
    expect((await c.doctor.api.patch(`/api/sessions/action-items/${item.id}`, { status: 'done' })).status).toBe(409);
    expect((await c.doctor.api.get(`/api/sessions/action-items/${item.id}`)).body.data.status).toBe('cancelled');
  });

  it('validates input and refuses outsiders', async () => {
    const item = (await c.doctor.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'Check' })).body.data;
    expect((await c.doctor.api.post('/api/sessions/action-items', { title: 'Orphan' })).status).toBe(400);
    expect((await c.doctor.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: '' })).status).toBe(400);
    expect(
      (await c.doctor.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'x', due_date: '2030-02-30' })).status,
    ).toBe(400);
    expect((await c.doctor.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'x', priority: 'asap' })).status).toBe(
      400,
    );
    expect(
      (await c.doctor.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'x', assignee_id: 'bob' })).status,
    ).toBe(400);
    expect((await c.doctor.api.patch(`/api/sessions/action-items/${item.id}`, { status: 'cancelled' })).status).toBe(400);
    expect((await c.doctor.api.patch(`/api/sessions/action-items/${item.id}`, { title: null })).status).toBe(400);
    expect((await c.doctor.api.get('/api/sessions/action-items?due_before=soon')).status).toBe(400);
    expect((await c.doctor.api.get(`/api/sessions/action-items/${randomUUID()}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/sessions/action-items/${item.id}`)).status).toBe(404);
    expect((await stranger.api.patch(`/api/sessions/action-items/${item.id}`, { title: 'mine' })).status).toBe(404);
    expect((await stranger.api.delete(`/api/sessions/action-items/${item.id}`)).status).toBe(404);
    expect((await stranger.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'x' })).status).toBe(404);
    expect((await c.billing.api.post('/api/sessions/action-items', { patient_id: c.patientId, title: 'x' })).status).toBe(403);
    expect((await c.billing.api.delete(`/api/sessions/action-items/${item.id}`)).status).toBe(403);
    expect((await app.api.get('/api/sessions/action-items')).status).toBe(401);
  });
});

describe('GraphQL', () => {
  it('serves the same records in camelCase, with their links, and a missing one as null with NOT_FOUND', async () => {
    const rec = await readyRecording();
    const t = (await c.doctor.api.post('/api/sessions/transcripts', { recording_id: rec.id })).body.data;
    const res = await c.doctor.api.graphql(
      `query($id: ID!, $missing: ID!) {
        recording(id: $id) { id status sizeBytes patient { id firstName } transcripts { id status recording { id } } }
        gone: recording(id: $missing) { id }
      }`,
      { id: rec.id, missing: randomUUID() },
    );
    expect(res.body.data.recording).toMatchObject({
      id: rec.id,
      status: 'ready',
      sizeBytes: 4096,
      patient: { id: c.patientId },
      transcripts: [{ id: t.id, status: 'pending', recording: { id: rec.id } }],
    });
    expect(res.body.data.gone).toBeNull();
    expect(res.body.errors[0]).toMatchObject({ path: ['gone'], extensions: { code: 'NOT_FOUND' } });
    const someone = await signUp(app.api);
    const hidden = await someone.api.graphql('query($id: ID!) { recording(id: $id) { id } }', { id: rec.id });
    expect(hidden.body.data.recording).toBeNull();
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
