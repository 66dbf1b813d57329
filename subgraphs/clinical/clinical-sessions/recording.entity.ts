import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum RecordingStatus {
  recording = 'recording',
  uploaded = 'uploaded',
  ready = 'ready',
  failed = 'failed',
}
registerEnumType(RecordingStatus, {
  name: 'RecordingStatus',
  description:
    'recording: started, no audio yet; uploaded: audio stored; ready: the clinician finished it, it may be transcribed; failed: its audio could not be kept',
});

export enum RecordingKind {
  consultation = 'consultation',
  dictation = 'dictation',
}
registerEnumType(RecordingKind, { name: 'RecordingKind', description: 'A recorded consultation, or the audio of one dictation segment' });

/**
 * upload: audio is stored (again, replacing the previous upload, until the recording is ready). mark_ready: the
 * clinician is done; the audio is fixed and may be transcribed. fail: the stored audio could not be found or did not
 * match what was recorded of it when it was to be made ready.
 */
export const RECORDING = stateMachine<RecordingStatus, 'upload' | 'mark_ready' | 'fail'>('recording', {
  upload: { from: [RecordingStatus.recording, RecordingStatus.uploaded], to: RecordingStatus.uploaded },
  mark_ready: { from: [RecordingStatus.uploaded], to: RecordingStatus.ready },
  fail: { from: [RecordingStatus.recording, RecordingStatus.uploaded], to: RecordingStatus.failed },
});

/** A recorded clinical session (a consultation, or one dictated segment): its audio is kept in object storage. */
@ObjectType('Recording', { description: 'A recorded clinical session; its audio is kept in object storage with its checksum' })
@Entity({ tableName: 'session_recordings' })
@Index({ properties: ['clinicianId', 'createdAt'] })
@Index({ properties: ['patientId', 'createdAt'] })
export class Recording extends PatientRecord {
  @Field(() => RecordingKind, { description: 'consultation (started by a clinician) or dictation (a dictated segment)' })
  @Enum({ items: () => RecordingKind })
  kind: Opt<RecordingKind> = RecordingKind.consultation;

  @Field(() => String, { nullable: true, description: 'What the session was about' })
  @Property({ type: 'text', nullable: true })
  title?: string | null;

  @Field(() => ID, { nullable: true, description: 'The appointment the session belongs to' })
  @Property({ type: 'uuid', nullable: true })
  appointmentId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The dictation session this audio is a segment of (kind dictation)' })
  @Property({ type: 'uuid', nullable: true })
  dictationId?: string | null;

  @Field(() => ID, { description: 'The clinician who recorded it' })
  @Property({ type: 'uuid' })
  clinicianId!: string;

  @Field(() => RecordingStatus, { description: 'Where the recording is: recording, uploaded, ready or failed' })
  @Enum({ items: () => RecordingStatus })
  status: Opt<RecordingStatus> = RecordingStatus.recording;

  @Field(() => String, { nullable: true, description: 'Media type of the audio, such as audio/wav' })
  @Property({ type: 'text', nullable: true })
  contentType?: string | null;

  @Field(() => Float, { nullable: true, description: 'Size of the audio in bytes' })
  @Property({ type: 'double', nullable: true })
  sizeBytes?: number | null;

  @Field(() => String, { nullable: true, description: 'Lowercase hex SHA-256 of the audio as stored' })
  @Property({ type: 'text', nullable: true })
  checksumSha256?: string | null;

  /** Where the audio is in object storage; never shown. */
  @Property({ type: 'text', nullable: true })
  storageKey?: string | null;

  @Field(() => Float, { nullable: true, description: 'Length of the audio in seconds, as the client reports it' })
  @Property({ type: 'double', nullable: true })
  durationSeconds?: number | null;

  @Field(() => Date, { nullable: true, description: 'When the current audio was stored' })
  @Property({ type: 'timestamptz', nullable: true })
  uploadedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was marked ready' })
  @Property({ type: 'timestamptz', nullable: true })
  readyAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the recording failed' })
  @Property({ type: 'text', nullable: true })
  failureReason?: string | null;
}
