import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum TranscriptStatus {
  pending = 'pending',
  completed = 'completed',
  failed = 'failed',
}
registerEnumType(TranscriptStatus, {
  name: 'TranscriptStatus',
  description: 'pending: waiting for speech-to-text or for a submitted transcript; completed: has its text; failed: speech-to-text gave up',
});

export enum TranscriptSource {
  speech_to_text = 'speech_to_text',
  submitted = 'submitted',
}
registerEnumType(TranscriptSource, {
  name: 'TranscriptSource',
  description: 'Who wrote the text: the speech-to-text provider, or a person who submitted it',
});

/**
 * complete: the text arrives, from the speech-to-text job or submitted by a person (a failed transcript may still be
 * completed by hand). fail: speech-to-text gave up after its retries (the job is then in the dead letter queue).
 */
export const TRANSCRIPT = stateMachine<TranscriptStatus, 'complete' | 'fail'>('transcript', {
  complete: { from: [TranscriptStatus.pending, TranscriptStatus.failed], to: TranscriptStatus.completed },
  fail: { from: [TranscriptStatus.pending], to: TranscriptStatus.failed },
});

/** One stretch of speech: who spoke, when, and what was said. Kept in the transcript's row. */
@ObjectType({ description: 'A stretch of speech in a transcript: speaker, start and end in seconds, text' })
export class TranscriptSegment {
  @Field(() => String, { nullable: true, description: 'Who spoke (clinician, patient, a name, or a diarization label); null when unknown' })
  speaker!: string | null;

  @Field(() => Float, { nullable: true, description: 'Seconds from the start of the recording' })
  startSeconds!: number | null;

  @Field(() => Float, { nullable: true, description: 'Seconds from the start of the recording' })
  endSeconds!: number | null;

  @Field({ description: 'What was said' })
  text!: string;
}

/** The text of a recording, from speech-to-text or submitted by a person. */
@ObjectType('Transcript', { description: "The text of a recording, with its segments' speakers and times" })
@Entity({ tableName: 'session_transcripts' })
@Index({ properties: ['recordingId', 'createdAt'] })
export class Transcript extends PatientRecord {
  @Field(() => ID, { description: 'The recording transcribed' })
  @Property({ type: 'uuid' })
  recordingId!: string;

  @Field(() => TranscriptStatus, { description: 'pending, completed or failed' })
  @Enum({ items: () => TranscriptStatus })
  status: Opt<TranscriptStatus> = TranscriptStatus.pending;

  @Field(() => String, { nullable: true, description: 'What a pending transcript waits for, or what happened to it, in words' })
  @Property({ type: 'text', nullable: true })
  statusDetail?: string | null;

  @Field(() => TranscriptSource, { nullable: true, description: 'Who wrote the text (once completed)' })
  @Enum({ items: () => TranscriptSource, nullable: true })
  source?: TranscriptSource | null;

  @Field(() => String, { nullable: true, description: 'The speech-to-text model that wrote it' })
  @Property({ type: 'text', nullable: true })
  model?: string | null;

  @Field(() => String, { nullable: true, description: 'Language of the speech (ISO 639-1), asked for or detected' })
  @Property({ type: 'text', nullable: true })
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'The whole text (once completed)' })
  @Property({ type: 'text', nullable: true })
  text?: string | null;

  @Field(() => [TranscriptSegment], { description: 'The segments in time order; empty until completed' })
  @Property({ type: 'json' })
  segments: Opt<TranscriptSegment[]> = [];

  @Field(() => Int, { description: 'Speech-to-text attempts made' })
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Field(() => ID, { description: 'Who asked for it' })
  @Property({ type: 'uuid' })
  requestedBy!: string;

  @Field(() => ID, { nullable: true, description: 'Who submitted the text (source submitted)' })
  @Property({ type: 'uuid', nullable: true })
  submittedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was completed' })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;
}
