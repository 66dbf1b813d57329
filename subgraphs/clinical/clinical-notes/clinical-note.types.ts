import { ConnectionOf } from '../../../shared/connection';
import { Max, Min } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { PayloadOf } from '../../../shared/user-errors';
import { IsText } from '../../../shared/validation';
import { CompleteAudioArgs } from '../clinical-sessions/sessions.types';
import { ClinicalNote, NoteFormat, NoteStatus } from './clinical-note.entity';
import { DictationSegment } from './dictation.entity';

const SECTION = 20000;
const TEXT = 50000;

@InputType({ description: 'A clinical note to write: SOAP sections or a free text, for a patient, or as an addendum to a signed note' })
export class CreateClinicalNoteInput {
  @Field(() => ID, { nullable: true, description: "The patient; the signed note's for an addendum" })
  patientId?: string;

  @Field(() => NoteFormat, { nullable: true, description: 'soap or free_text; soap when a section is given, else free_text' })
  format?: NoteFormat;

  @Field({ nullable: true, description: '200 characters at most' })
  @IsText(200)
  title?: string;

  @Field({ nullable: true, description: `SOAP subjective (${SECTION} characters at most)` })
  @IsText(SECTION)
  subjective?: string;

  @Field({ nullable: true, description: `SOAP objective (${SECTION} characters at most)` })
  @IsText(SECTION)
  objective?: string;

  @Field({ nullable: true, description: `SOAP assessment (${SECTION} characters at most)` })
  @IsText(SECTION)
  assessment?: string;

  @Field({ nullable: true, description: `SOAP plan (${SECTION} characters at most)` })
  @IsText(SECTION)
  plan?: string;

  @Field({ nullable: true, description: `Free text (${TEXT} characters at most)` })
  @IsText(TEXT)
  text?: string;

  @Field(() => ID, { nullable: true, description: "The encounter (one of the patient's clinical records)" })
  encounterId?: string;

  @Field(() => ID, { nullable: true, description: "The appointment (one of the patient's)" })
  appointmentId?: string;

  @Field(() => ID, { nullable: true, description: "The recorded session (one of the patient's recordings)" })
  recordingId?: string;

  @Field(() => ID, { nullable: true, description: 'The signed note this one amends' })
  addendumToId?: string;
}

@InputType({ description: 'Changes to a draft note; every field optional, cleared with null' })
export class UpdateClinicalNoteInput {
  @Field(() => String, { nullable: true, description: '200 characters at most' })
  @IsText(200)
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP subjective' })
  @IsText(SECTION)
  subjective?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP objective' })
  @IsText(SECTION)
  objective?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP assessment' })
  @IsText(SECTION)
  assessment?: string | null;

  @Field(() => String, { nullable: true, description: 'SOAP plan' })
  @IsText(SECTION)
  plan?: string | null;

  @Field(() => String, { nullable: true, description: 'Free text' })
  @IsText(TEXT)
  text?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'The version being edited; when the record is at another, the change is refused (STALE_VERSION; 409 on REST)',
  })
  @Min(1, { message: 'must be at least 1' })
  expectedVersion?: number;
}

@ObjectType({
  description: 'What updateClinicalNote answers: the changed note, or what the user must fix (a stale expectedVersion, a signed note)',
})
export class UpdateClinicalNotePayload extends PayloadOf(ClinicalNote, 'clinicalNote') {}

@ArgsType()
export class PatientNoteListArgs extends PageArgs {
  @Field(() => NoteStatus, { nullable: true, description: 'Only notes in this state' })
  status?: NoteStatus;
}

@ObjectType()
export class ClinicalNotePage extends PageOf(ClinicalNote) {}

@ObjectType({ description: 'Clinical notes by cursor, newest first' })
export class ClinicalNoteConnection extends ConnectionOf(ClinicalNote, 'ClinicalNote') {}

// --- dictation -------------------------------------------------------------------------------------------------------

export enum NoteSection {
  subjective = 'subjective',
  objective = 'objective',
  assessment = 'assessment',
  plan = 'plan',
}
registerEnumType(NoteSection, { name: 'ClinicalNoteSection', description: 'A SOAP section' });

@InputType({ description: 'A dictation to start' })
export class StartDictationInput {
  @Field(() => ID, { description: 'The patient; the caller must write their clinical data' })
  patientId!: string;

  @Field(() => ID, { nullable: true, description: "A draft note of the patient's to merge into; a new note when omitted" })
  noteId?: string;

  @Field({ nullable: true, description: '200 characters at most' })
  @IsText(200)
  title?: string;
}

@ArgsType()
export class AddDictationTextArgs {
  @Field(() => ID, { description: 'The dictation' })
  id!: string;

  @Field({ description: 'What was dictated (20,000 characters at most)' })
  @IsText(20000)
  text!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Its place, from 1 (the next one when omitted); sending the same segment again answers the one kept',
  })
  @Min(1, { message: 'must be at least 1' })
  @Max(10000, { message: 'must be at most 10000' })
  sequence?: number;
}

@ArgsType()
export class AddDictationAudioArgs extends CompleteAudioArgs {
  @Field(() => Int, { nullable: true, description: 'Its place, from 1 (the next one when omitted)' })
  @Min(1, { message: 'must be at least 1' })
  @Max(10000, { message: 'must be at most 10000' })
  sequence?: number;
}

@ArgsType()
export class MergeDictationArgs {
  @Field(() => ID, { description: 'The dictation' })
  id!: string;

  @Field(() => ID, { nullable: true, description: "A draft note to merge into instead of the dictation's own (a new note when neither)" })
  noteId?: string;

  @Field(() => NoteSection, { nullable: true, description: 'The section of a SOAP note the text goes to (required for one)' })
  section?: NoteSection;

  @Field({ nullable: true, description: 'Title of a new note (200 characters at most)' })
  @IsText(200)
  title?: string;
}

@ObjectType()
export class DictationSegmentPage extends PageOf(DictationSegment) {}
