import { LockMode } from '@mikro-orm/core';
import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { byIds, isUuid, paginate, type PageArgs, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { writablePatient } from '../access/patient-access';
import { readableRow, writableRow } from '../access/patient-rows';
import { discardAudio, reserveAudio, verifyStoredAudio } from '../clinical-sessions/audio';
import { Recording, RecordingKind, RecordingStatus } from '../clinical-sessions/recording.entity';
import type { ReserveAudioArgs, UploadReservation } from '../clinical-sessions/sessions.types';
import { requestTranscript } from '../clinical-sessions/transcript.service';
import { Transcript, TranscriptStatus } from '../clinical-sessions/transcript.entity';
import { ClinicalNote, NoteFormat, NoteStatus } from './clinical-note.entity';
import { ClinicalNoteService } from './clinical-note.service';
import type { AddDictationAudioArgs, AddDictationTextArgs, MergeDictationArgs, StartDictationInput } from './clinical-note.types';
import { DICTATION, DictationSegment, DictationSegmentKind, DictationSession } from './dictation.entity';

const RESOURCE = 'dictation';
const WHAT = 'Dictation';
const dictationPrefix = (id: string) => `dictations/${id}`;

/** A draft note of the patient's, to merge into: 404 when hidden, 400 when another patient's, 409 once signed. */
async function draftNoteOf(ctx: SubgraphContext, noteId: string, patientId: string, field = 'noteId'): Promise<ClinicalNote> {
  if (!isUuid(noteId)) throw errors.invalidField(field, 'must be a note id');
  const note = await readableRow(ctx, ClinicalNote, noteId, 'Clinical note');
  if (note.patientId !== patientId) throw errors.invalidField(field, "must be one of the patient's notes");
  if (note.status !== NoteStatus.draft) throw errors.conflict('A signed note is frozen; dictate into a new note, or write an addendum');
  return note;
}

export class DictationService {
  private readonly notes = new ClinicalNoteService();

  async start(ctx: SubgraphContext, input: StartDictationInput): Promise<DictationSession> {
    const patient = await writablePatient(ctx, input.patientId);
    if (input.noteId) await draftNoteOf(ctx, input.noteId, patient.id);
    const dictation = ctx.em.create(DictationSession, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      title: input.title?.trim() ?? null,
      noteId: input.noteId ?? null,
      clinicianId: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, dictation, { note_id: dictation.noteId });
    await ctx.em.flush();
    return dictation;
  }

  async get(ctx: SubgraphContext, id: string): Promise<DictationSession> {
    const dictation = await readableRow(ctx, DictationSession, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [dictation]);
    return dictation;
  }

  /** A typed segment. The same segment sent again (same place, same text) answers the one kept; another at its place is a 409. */
  async addText(ctx: SubgraphContext, args: AddDictationTextArgs): Promise<DictationSegment> {
    const text = args.text.trim();
    return this.add(
      ctx,
      args.id,
      args.sequence,
      DictationSegmentKind.text,
      (existing) => existing.typedText === text,
      (tx, dictation, sequence) =>
        tx.em.create(DictationSegment, this.segmentOf(tx, dictation, sequence, { kind: DictationSegmentKind.text, typedText: text })),
    );
  }

  /** For the REST upload path: may an audio segment be added now, where does it go, how large may it be. */
  async reserveAudio(ctx: SubgraphContext, id: string, args: ReserveAudioArgs): Promise<UploadReservation> {
    const dictation = await writableRow(ctx, DictationSession, id, WHAT);
    DICTATION.next(dictation.status, 'add_segment');
    return reserveAudio(dictationPrefix(dictation.id), args.contentType, args.declaredBytes);
  }

  /**
   * For the REST upload path: an audio segment, stored already. It becomes a ready recording of kind dictation and goes
   * to speech-to-text (or waits for its transcript to be submitted), like any recording.
   */
  async addAudio(ctx: SubgraphContext, id: string, args: AddDictationAudioArgs): Promise<DictationSegment> {
    const dictation = await writableRow(ctx, DictationSession, id, WHAT);
    await verifyStoredAudio(dictationPrefix(dictation.id), args);
    let duplicate = false;
    const segment = await this.add(
      ctx,
      dictation.id,
      args.sequence,
      DictationSegmentKind.audio,
      async (existing, em) => {
        // The same audio sent again to the same place: the segment kept answers, the second copy goes.
        const recording = existing.recordingId ? await em.findOne(Recording, { id: existing.recordingId }) : null;
        if (recording?.checksumSha256 !== args.checksumSha256) return false;
        // The copy just stored goes, never the one the segment keeps (a caller naming that key again).
        duplicate = recording.storageKey !== args.key;
        return true;
      },
      (tx, d, sequence) => {
        const now = clock.now();
        const recording = tx.em.create(Recording, {
          patientId: d.patientId,
          organizationId: d.organizationId ?? null,
          kind: RecordingKind.dictation,
          dictationId: d.id,
          title: d.title ?? null,
          clinicianId: tx.viewer!.userId,
          status: RecordingStatus.ready,
          storageKey: args.key,
          contentType: args.contentType.toLowerCase(),
          sizeBytes: args.sizeBytes,
          checksumSha256: args.checksumSha256,
          uploadedAt: now,
          readyAt: now,
        });
        auditRowChange(tx, 'upload', 'recording', recording, {
          content_type: recording.contentType,
          size_bytes: recording.sizeBytes,
          checksum_sha256: recording.checksumSha256,
        });
        const transcript = requestTranscript(tx, recording, null);
        return tx.em.create(
          DictationSegment,
          this.segmentOf(tx, d, sequence, { kind: DictationSegmentKind.audio, recordingId: recording.id, transcriptId: transcript.id }),
        );
      },
    );
    if (duplicate) discardAudio(args.key);
    return segment;
  }

  /** The segments in order. */
  async segments(ctx: SubgraphContext, id: string, args: PageArgs): Promise<PageResult<DictationSegment>> {
    const dictation = await readableRow(ctx, DictationSession, id, WHAT);
    const page = await paginate(ctx.em, DictationSegment, { dictationId: dictation.id }, args, { sequence: 'asc' });
    auditRowsRead(ctx, 'list', 'dictation_segment', page.items);
    return page;
  }

  /**
   * Merges the segments, in order, into the dictation's draft note (or the one named), appended to its text or to a
   * SOAP section, or into a new free-text draft. Every audio segment needs its completed transcript first. Once.
   */
  async merge(ctx: SubgraphContext, args: MergeDictationArgs): Promise<ClinicalNote> {
    const found = await writableRow(ctx, DictationSession, args.id, WHAT);
    const targetId = args.noteId ?? found.noteId;
    if (targetId) await draftNoteOf(ctx, targetId, found.patientId);
    return ctx.em.transactional(async (em) => {
      const tx: SubgraphContext = { ...ctx, em };
      const dictation = await em.findOneOrFail(DictationSession, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      dictation.status = DICTATION.next(dictation.status, 'merge');
      const segments = await em.find(DictationSegment, { dictationId: dictation.id }, { orderBy: { sequence: 'asc' } });
      if (!segments.length) throw errors.conflict('The dictation has no segments to merge');
      const transcripts = new Map(
        (await em.find(Transcript, { id: { $in: segments.flatMap((s) => (s.transcriptId ? [s.transcriptId] : [])) } })).map((t) => [
          t.id,
          t,
        ]),
      );
      const waiting = segments.filter(
        (s) => s.kind === DictationSegmentKind.audio && transcripts.get(s.transcriptId!)?.status !== TranscriptStatus.completed,
      );
      if (waiting.length) {
        throw errors.conflict(
          `Segment${waiting.length > 1 ? 's' : ''} ${waiting.map((s) => s.sequence).join(', ')} ${waiting.length > 1 ? 'are' : 'is'} waiting for ${waiting.length > 1 ? 'their transcripts' : 'its transcript'} (${waiting.map((s) => s.transcriptId).join(', ')})`,
        );
      }
      const text = segments
        .map((s) => (s.kind === DictationSegmentKind.text ? s.typedText! : transcripts.get(s.transcriptId!)!.text!))
        .join('\n\n');
      let note: ClinicalNote;
      if (targetId) {
        note = await em.findOneOrFail(ClinicalNote, { id: targetId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (note.status !== NoteStatus.draft)
          throw errors.conflict('A signed note is frozen; dictate into a new note, or write an addendum');
        await this.notes.append(tx, note, text, args.section);
      } else {
        if (args.section) throw errors.invalidField('section', 'is for merging into a SOAP note; a new note is free text');
        const patient = await writablePatient(tx, dictation.patientId);
        note = await this.notes.insert(tx, patient, {
          format: NoteFormat.free_text,
          title: args.title?.trim() ?? dictation.title ?? null,
          text,
        });
      }
      dictation.mergedNoteId = note.id;
      dictation.mergedBy = ctx.viewer!.userId;
      dictation.mergedAt = clock.now();
      auditRowChange(tx, 'merge', RESOURCE, dictation, { note_id: note.id, segments: segments.length });
      return note;
    });
  }

  /** The text of a segment: typed, or its transcript's once completed (null until then). */
  async textOf(ctx: SubgraphContext, segment: DictationSegment): Promise<string | null> {
    if (segment.kind === DictationSegmentKind.text) return segment.typedText ?? null;
    if (!segment.transcriptId) return null;
    const transcript = await ctx.loader<string, Transcript>('transcript', byIds(ctx.em, Transcript)).load(segment.transcriptId);
    return transcript?.status === TranscriptStatus.completed ? (transcript.text ?? null) : null;
  }

  private segmentOf(tx: SubgraphContext, d: DictationSession, sequence: number, fields: Partial<DictationSegment>): DictationSegment {
    return {
      patientId: d.patientId,
      organizationId: d.organizationId ?? null,
      dictationId: d.id,
      sequence,
      createdBy: tx.viewer!.userId,
      ...fields,
    } as DictationSegment;
  }

  /**
   * Adds a segment at `sequence` (the next place when omitted) under the dictation's row lock. A segment already at
   * that place answers again when `same` says it is the one sent (a retry), else it is a 409.
   */
  private async add(
    ctx: SubgraphContext,
    id: string,
    sequence: number | undefined,
    kind: DictationSegmentKind,
    same: (existing: DictationSegment, em: EntityManager) => boolean | Promise<boolean>,
    create: (tx: SubgraphContext, dictation: DictationSession, sequence: number) => DictationSegment,
  ): Promise<DictationSegment> {
    const found = await writableRow(ctx, DictationSession, id, WHAT);
    return ctx.em.transactional(async (em) => {
      const tx: SubgraphContext = { ...ctx, em };
      const dictation = await em.findOneOrFail(DictationSession, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (sequence !== undefined) {
        const existing = await em.findOne(DictationSegment, { dictationId: dictation.id, sequence });
        if (existing) {
          if (existing.kind === kind && (await same(existing, em))) return existing;
          throw errors.conflict(`Segment ${sequence} of this dictation is already another one`);
        }
      }
      dictation.status = DICTATION.next(dictation.status, 'add_segment');
      const last = await em.findOne(DictationSegment, { dictationId: dictation.id }, { orderBy: { sequence: 'desc' } });
      const segment = create(tx, dictation, sequence ?? (last?.sequence ?? 0) + 1);
      dictation.segmentCount += 1;
      auditRowChange(tx, 'add_segment', RESOURCE, dictation, { segment_id: segment.id, sequence: segment.sequence, kind });
      return segment;
    });
  }
}
