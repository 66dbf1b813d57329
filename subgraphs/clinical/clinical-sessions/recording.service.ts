import type { FilterQuery } from '@mikro-orm/core';
import { objectStorage } from '../../../shared/adapters/object-storage';
import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { byIds, isUuid, paginate, type PageResult } from '../../../shared/model';
import { lockedChange } from '../../../shared/locked-change';
import { requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { requireAppointmentOf } from './appointment-ref';
import { discardAudio, reserveAudio, verifyStoredAudio } from './audio';
import { RECORDING, Recording, RecordingKind, RecordingStatus } from './recording.entity';
import type { CompleteAudioArgs, RecordingListArgs, ReserveAudioArgs, StartRecordingInput } from './sessions.types';
import type { UploadReservation } from './sessions.types';

const RESOURCE = 'recording';
const WHAT = 'Recording';
export const recordingPrefix = (id: string) => `recordings/${id}`;

export class RecordingService {
  /** Clinicians who write the patient's clinical data start a recording; its audio comes next. */
  async start(ctx: SubgraphContext, input: StartRecordingInput): Promise<Recording> {
    const patient = await writablePatient(ctx, input.patientId);
    if (input.appointmentId) await requireAppointmentOf(ctx, input.appointmentId, patient);
    const recording = ctx.em.create(Recording, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      kind: RecordingKind.consultation,
      title: input.title?.trim() ?? null,
      appointmentId: input.appointmentId ?? null,
      clinicianId: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, recording, { kind: recording.kind, appointment_id: recording.appointmentId });
    await ctx.em.flush();
    return recording;
  }

  /** The caller's own recordings (of patients they may still read), newest first. */
  async mine(ctx: SubgraphContext, args: RecordingListArgs): Promise<PageResult<Recording>> {
    const viewer = requireUser(ctx.viewer);
    if (args.patientId !== undefined && args.patientId !== null && !isUuid(args.patientId))
      throw errors.invalidField('patientId', 'must be a patient id');
    const scope = await readableScope<Recording>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const where: FilterQuery<Recording>[] = [scope, { clinicianId: viewer.userId }];
    if (args.patientId) where.push({ patientId: args.patientId });
    if (args.status) where.push({ status: args.status });
    const page = await paginate(ctx.em, Recording, { $and: where }, args);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Recording> {
    const recording = await readableRow(ctx, Recording, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [recording]);
    return recording;
  }

  /** May audio be uploaded now, and where does it go? For the REST upload path, before a byte is read. */
  async reserveAudio(ctx: SubgraphContext, id: string, args: ReserveAudioArgs): Promise<UploadReservation> {
    const recording = await this.uploadable(ctx, id);
    return reserveAudio(recordingPrefix(recording.id), args.contentType, args.declaredBytes);
  }

  /** Records the audio the REST upload path stored: type, size and checksum; an earlier upload is replaced. */
  async completeAudio(ctx: SubgraphContext, id: string, args: CompleteAudioArgs): Promise<Recording> {
    const found = await this.uploadable(ctx, id);
    await verifyStoredAudio(recordingPrefix(found.id), args);
    let replaced: string | null | undefined;
    const recording = await lockedChange(ctx, Recording, found.id, (tx, r) => {
      r.status = RECORDING.next(r.status, 'upload');
      replaced = r.storageKey !== args.key ? r.storageKey : null;
      r.storageKey = args.key;
      r.contentType = args.contentType.toLowerCase();
      r.sizeBytes = args.sizeBytes;
      r.checksumSha256 = args.checksumSha256;
      r.uploadedAt = clock.now();
      auditRowChange(tx, 'upload', RESOURCE, r, {
        content_type: r.contentType,
        size_bytes: r.sizeBytes,
        checksum_sha256: r.checksumSha256,
      });
    });
    discardAudio(replaced);
    return recording;
  }

  /**
   * The clinician is done: the audio becomes fixed and may be transcribed. The stored audio is checked first; when it
   * is gone or no longer the size recorded, the recording fails instead (and says why).
   */
  async markReady(ctx: SubgraphContext, id: string, durationSeconds?: number | null): Promise<Recording> {
    const found = await writableRow(ctx, Recording, id, WHAT);
    RECORDING.next(found.status, 'mark_ready');
    const stored = found.storageKey ? await objectStorage().stat(found.storageKey) : null;
    const intact = !!stored && stored.size === found.sizeBytes;
    return lockedChange(ctx, Recording, found.id, (tx, r) => {
      if (intact) {
        r.status = RECORDING.next(r.status, 'mark_ready');
        r.readyAt = clock.now();
        if (durationSeconds !== undefined && durationSeconds !== null) r.durationSeconds = durationSeconds;
        auditRowChange(tx, 'ready', RESOURCE, r, { duration_seconds: r.durationSeconds ?? null });
      } else {
        r.status = RECORDING.next(r.status, 'fail');
        r.failureReason = stored ? 'The stored audio is not the size that was uploaded' : 'The stored audio is missing';
        auditRowChange(tx, 'fail', RESOURCE, r, { reason: r.failureReason });
      }
    });
  }

  /** The recording, batched per request; it was authorized through what refers to it. */
  load(ctx: SubgraphContext, id: string): Promise<Recording | null> {
    return ctx.loader<string, Recording>('recording', byIds(ctx.em, Recording)).load(id);
  }

  /** A consultation recording the caller may write, in a state that takes audio. */
  private async uploadable(ctx: SubgraphContext, id: string): Promise<Recording> {
    const recording = await writableRow(ctx, Recording, id, WHAT);
    if (recording.kind !== RecordingKind.consultation)
      throw errors.conflict('The audio of a dictation segment is added through its dictation');
    RECORDING.next(recording.status, 'upload');
    return recording;
  }
}

export { RecordingStatus };
