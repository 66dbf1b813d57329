import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum DictationStatus {
  active = 'active',
  merged = 'merged',
}
registerEnumType(DictationStatus, { name: 'DictationStatus', description: 'active: taking segments; merged: its text went into a note' });

export enum DictationSegmentKind {
  text = 'text',
  audio = 'audio',
}
registerEnumType(DictationSegmentKind, {
  name: 'DictationSegmentKind',
  description: 'Typed text, or audio transcribed through speech-to-text',
});

/** add_segment: while active. merge: the segments, in order, go into a draft note; once. */
export const DICTATION = stateMachine<DictationStatus, 'add_segment' | 'merge'>('dictation', {
  add_segment: { from: [DictationStatus.active], to: DictationStatus.active },
  merge: { from: [DictationStatus.active], to: DictationStatus.merged },
});

/** A dictation: segments of text or audio a clinician adds in order, merged into a draft note. */
@ObjectType('Dictation', { description: 'A dictation session: segments of text or audio, merged in order into a draft note' })
@Entity({ tableName: 'dictation_sessions' })
@Index({ properties: ['patientId', 'createdAt'] })
export class DictationSession extends PatientRecord {
  @Field(() => String, { nullable: true, description: 'A title' })
  @Property({ type: 'text', nullable: true })
  title?: string | null;

  @Field(() => ID, { nullable: true, description: 'The draft note to merge into (a new one when null)' })
  @Property({ type: 'uuid', nullable: true })
  noteId?: string | null;

  @Field(() => DictationStatus, { description: 'active or merged' })
  @Enum({ items: () => DictationStatus })
  status: Opt<DictationStatus> = DictationStatus.active;

  @Field(() => ID, { description: 'The clinician dictating' })
  @Property({ type: 'uuid' })
  clinicianId!: string;

  @Field(() => Int, { description: 'Segments added' })
  @Property({ type: 'integer' })
  segmentCount: Opt<number> = 0;

  @Field(() => ID, { nullable: true, description: 'The note the segments were merged into' })
  @Property({ type: 'uuid', nullable: true })
  mergedNoteId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who merged it' })
  @Property({ type: 'uuid', nullable: true })
  mergedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was merged' })
  @Property({ type: 'timestamptz', nullable: true })
  mergedAt?: Date | null;
}

/** One segment of a dictation, at its place in the order. */
@ObjectType('DictationSegment', { description: 'One segment of a dictation: text, or audio and its transcript' })
@Entity({ tableName: 'dictation_segments' })
@Unique({ properties: ['dictationId', 'sequence'] })
export class DictationSegment extends PatientRecord {
  @Field(() => ID, { description: 'The dictation' })
  @Property({ type: 'uuid' })
  dictationId!: string;

  @Field(() => Int, { description: 'Its place in the order, from 1' })
  @Property({ type: 'integer' })
  sequence!: number;

  @Field(() => DictationSegmentKind, { description: 'text or audio' })
  @Enum({ items: () => DictationSegmentKind })
  kind!: DictationSegmentKind;

  /** Typed text; for audio, the transcript's text is read when it is needed. */
  @Property({ type: 'text', nullable: true })
  typedText?: string | null;

  @Field(() => ID, { nullable: true, description: 'The recording of an audio segment' })
  @Property({ type: 'uuid', nullable: true })
  recordingId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The transcript of an audio segment' })
  @Property({ type: 'uuid', nullable: true })
  transcriptId?: string | null;

  @Field(() => ID, { description: 'Who added it' })
  @Property({ type: 'uuid' })
  createdBy!: string;
}
