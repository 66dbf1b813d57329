import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { lockedChange } from '../../../shared/locked-change';
import { emitEvent } from '../../../shared/outbox';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readableRow, writableRow } from '../access/patient-rows';
import { Recording, RecordingStatus } from './recording.entity';
import { TRANSCRIPT_COMPLETED, TRANSCRIPTION_REQUESTED } from './sessions.events';
import type { StartTranscriptionInput, SubmitTranscriptInput } from './sessions.types';
import { NO_PROVIDER, speechToText } from './speech-to-text';
import { TRANSCRIPT, Transcript, TranscriptSource, TranscriptStatus, type TranscriptSegment } from './transcript.entity';

const RESOURCE = 'transcript';
const WHAT = 'Transcript';

/** The transcript-completed event and the audit entry, with the change's transaction. */
export function transcriptCompleted(ctx: SubgraphContext, em: EntityManager, t: Transcript): void {
  auditRowChange({ ...ctx, em }, 'complete', RESOURCE, t, { source: t.source, segments: t.segments.length, model: t.model ?? null });
  emitEvent(em, 'clinical', TRANSCRIPT_COMPLETED, {
    transcript_id: t.id,
    recording_id: t.recordingId,
    patient_id: t.patientId,
    organization_id: t.organizationId ?? null,
    source: t.source!,
    segment_count: t.segments.length,
  });
}

/**
 * A pending transcript of a ready recording and its speech-to-text job, with the caller's transaction (`tx`). Without a
 * provider the transcript says it waits for a submitted text.
 */
export function requestTranscript(tx: SubgraphContext, recording: Recording, language: string | null): Transcript {
  const stt = speechToText();
  const transcript = tx.em.create(Transcript, {
    patientId: recording.patientId,
    organizationId: recording.organizationId ?? null,
    recordingId: recording.id,
    language,
    statusDetail: stt ? `Queued for speech-to-text (${stt.model})` : NO_PROVIDER,
    requestedBy: tx.viewer!.userId,
  });
  auditRowChange(tx, 'create', RESOURCE, transcript, { recording_id: recording.id, provider: stt ? stt.model : null });
  emitEvent(tx.em, 'clinical', TRANSCRIPTION_REQUESTED, {
    transcript_id: transcript.id,
    recording_id: recording.id,
    patient_id: recording.patientId,
    organization_id: recording.organizationId ?? null,
    language,
  });
  return transcript;
}

export class TranscriptService {
  /**
   * Asks for the transcript of a ready recording: a speech-to-text job on the bus. Without a provider the job has
   * nothing to do and the transcript says it waits for a submitted text. One pending or completed transcript per
   * recording (ask again after one failed).
   */
  async start(ctx: SubgraphContext, input: StartTranscriptionInput): Promise<Transcript> {
    if (!isUuid(input.recordingId)) throw errors.invalidField('recordingId', 'must be a recording id');
    const found = await writableRow(ctx, Recording, input.recordingId, 'Recording');
    let transcript!: Transcript;
    await lockedChange(ctx, Recording, found.id, async (tx, recording) => {
      if (recording.status !== RecordingStatus.ready) {
        throw errors.conflict(`Only a ready recording can be transcribed; this one is ${recording.status}`);
      }
      const existing = await tx.em.findOne(Transcript, { recordingId: recording.id, status: { $ne: TranscriptStatus.failed } });
      if (existing) throw errors.duplicate(`The recording already has a ${existing.status} transcript (${existing.id})`);
      transcript = requestTranscript(tx, recording, input.language ?? null);
    });
    return transcript;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Transcript> {
    const transcript = await readableRow(ctx, Transcript, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [transcript]);
    return transcript;
  }

  /** A person (or a provider's callback, as a clinician's tool) gives the text; a completed transcript is fixed. */
  async submit(ctx: SubgraphContext, id: string, input: SubmitTranscriptInput): Promise<Transcript> {
    const found = await writableRow(ctx, Transcript, id, WHAT);
    const segments: TranscriptSegment[] = (input.segments ?? []).map((s) => ({
      speaker: s.speaker?.trim() ?? null,
      startSeconds: s.startSeconds ?? null,
      endSeconds: s.endSeconds ?? null,
      text: s.text.trim(),
    }));
    const issues: FieldIssue[] = [];
    segments.forEach((s, i) => {
      if (s.startSeconds !== null && s.endSeconds !== null && s.endSeconds < s.startSeconds) {
        issues.push({ field: `segments.${i}.endSeconds`, message: 'must not be before startSeconds' });
      }
    });
    const text = input.text?.trim() ?? segments.map((s) => (s.speaker ? `${s.speaker}: ${s.text}` : s.text)).join('\n');
    if (!text) issues.push({ field: 'text', message: 'or segments is required' });
    if (issues.length) throw errors.validation(issues);
    return lockedChange(ctx, Transcript, found.id, (tx, t) => {
      t.status = TRANSCRIPT.next(t.status, 'complete');
      t.text = text;
      t.segments = segments;
      t.source = TranscriptSource.submitted;
      t.model = null;
      t.language = input.language ?? t.language ?? null;
      t.submittedBy = tx.viewer!.userId;
      t.completedAt = clock.now();
      t.statusDetail = null;
      transcriptCompleted(tx, tx.em, t);
    });
  }

  /** The recording's transcripts, newest first (a few: one per request), batched across recordings. */
  forRecording(ctx: SubgraphContext, recording: Recording): Promise<Transcript[]> {
    return ctx
      .loader<string, Transcript[]>('transcripts-of-recording', async (ids) => {
        const rows = await ctx.em.find(Transcript, { recordingId: { $in: [...ids] } }, { orderBy: { createdAt: 'desc', id: 'asc' } });
        return ids.map((id) => rows.filter((t) => t.recordingId === id));
      })
      .load(recording.id)
      .then((list) => {
        auditRowsRead(ctx, 'list', RESOURCE, list ?? []);
        return list ?? [];
      });
  }
}
