import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum NoteStatus {
  draft = 'draft',
  signed = 'signed',
}
registerEnumType(NoteStatus, {
  name: 'ClinicalNoteStatus',
  description: 'draft: being written; signed: final and frozen (amend it with an addendum)',
});

export enum NoteFormat {
  soap = 'soap',
  free_text = 'free_text',
}
registerEnumType(NoteFormat, {
  name: 'ClinicalNoteFormat',
  description: 'soap: subjective, objective, assessment and plan sections; free_text: one text',
});

export const SOAP_SECTIONS = ['subjective', 'objective', 'assessment', 'plan'] as const;
export type SoapSection = (typeof SOAP_SECTIONS)[number];

/** edit: only a draft changes. sign: a clinician who writes the patient's data makes it final; from then on it is frozen. */
export const NOTE = stateMachine<NoteStatus, 'edit' | 'sign'>('clinical note', {
  edit: { from: [NoteStatus.draft], to: NoteStatus.draft },
  sign: { from: [NoteStatus.draft], to: NoteStatus.signed },
});

/** A clinician's note about a patient: SOAP sections or free text; every change is a version, signing freezes it. */
@ObjectType('ClinicalNote', {
  description: "A clinician's note about a patient (SOAP or free text); signed notes are frozen and amended by addenda",
})
@Entity({ tableName: 'clinical_notes' })
@Index({ properties: ['patientId', 'createdAt'] })
export class ClinicalNote extends PatientRecord {
  @Field(() => NoteFormat, { description: 'soap or free_text' })
  @Enum({ items: () => NoteFormat })
  format!: NoteFormat;

  @Field(() => String, { nullable: true, description: 'A title' })
  @Property({ type: 'text', nullable: true })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP: what the patient reports' })
  @Property({ type: 'text', nullable: true })
  subjective?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP: what was observed and measured' })
  @Property({ type: 'text', nullable: true })
  objective?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP: the clinical assessment' })
  @Property({ type: 'text', nullable: true })
  assessment?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP: the plan' })
  @Property({ type: 'text', nullable: true })
  plan?: string | null;

  @Field(() => String, { nullable: true, description: 'Free text: the note' })
  @Property({ type: 'text', nullable: true })
  text?: string | null;

  @Field(() => ID, { nullable: true, description: 'The encounter (clinical record) it belongs to' })
  @Property({ type: 'uuid', nullable: true })
  encounterId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The appointment it belongs to' })
  @Property({ type: 'uuid', nullable: true })
  appointmentId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The recorded session it was written from' })
  @Property({ type: 'uuid', nullable: true })
  recordingId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The signed note this one is an addendum to' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  addendumToId?: string | null;

  @Field(() => NoteStatus, { description: 'draft or signed' })
  @Enum({ items: () => NoteStatus })
  status: Opt<NoteStatus> = NoteStatus.draft;

  @Field(() => Int, { description: 'Starts at 1; every change (signing included) adds one' })
  @Property({ type: 'integer' })
  version: Opt<number> = 1;

  @Field(() => ID, { description: 'Who wrote it' })
  @Index()
  @Property({ type: 'uuid' })
  authorId!: string;

  @Field(() => ID, { nullable: true, description: 'Who changed it last' })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who signed it' })
  @Property({ type: 'uuid', nullable: true })
  signedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was signed' })
  @Property({ type: 'timestamptz', nullable: true })
  signedAt?: Date | null;
}

/** One version of a clinical note, as it was after a change. */
@ObjectType('ClinicalNoteVersion', { description: 'A clinical note as it was after one change' })
@Entity({ tableName: 'clinical_note_versions' })
@Unique({ properties: ['noteId', 'version'] })
export class ClinicalNoteVersion extends BaseRecord {
  @Field(() => ID, { description: 'The note' })
  @Property({ type: 'uuid' })
  noteId!: string;

  @Index()
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => Int, { description: 'The version number' })
  @Property({ type: 'integer' })
  version!: number;

  @Field({ description: 'create, update or sign' })
  @Property({ type: 'text' })
  change!: string;

  @Field(() => GraphQLJSONObject, { description: 'The note after the change' })
  @Property({ type: 'jsonb' })
  snapshot!: Record<string, unknown>;

  @Field(() => ID, { description: 'Who changed it' })
  @Property({ type: 'uuid' })
  changedBy!: string;
}
