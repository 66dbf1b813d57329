import { Arg, Args, Ctx, Directive, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import { byIds, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageArgs } from '../../../shared/model';
import { ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { loadPatient } from '../access/patient-access';
import { AppointmentRef } from '../clinical-sessions/appointment-ref';
import { Recording } from '../clinical-sessions/recording.entity';
import { ReserveAudioArgs, UploadReservation } from '../clinical-sessions/sessions.types';
import { Transcript } from '../clinical-sessions/transcript.entity';
import { ClinicalRecord } from '../clinical-records/clinical-record.entity';
import { Patient } from '../patients/patient.entity';
import { ClinicalNote, ClinicalNoteVersion } from './clinical-note.entity';
import { ClinicalNoteService } from './clinical-note.service';
import {
  AddDictationAudioArgs,
  AddDictationTextArgs,
  ClinicalNoteConnection,
  ClinicalNotePage,
  CreateClinicalNoteInput,
  DictationSegmentPage,
  MergeDictationArgs,
  PatientNoteListArgs,
  StartDictationInput,
  UpdateClinicalNoteInput,
  UpdateClinicalNotePayload,
} from './clinical-note.types';
import { DictationSegment, DictationSession } from './dictation.entity';
import { DictationService } from './dictation.service';

const load = <T extends { id: string }>(ctx: SubgraphContext, name: string, entity: new () => T, id: string | null | undefined) =>
  id ? ctx.loader<string, T>(name, byIds(ctx.em, entity)).load(id) : null;

@Resolver(() => ClinicalNote)
export class ClinicalNoteResolver {
  private readonly service = new ClinicalNoteService();

  @Mutation(() => ClinicalNote, {
    description:
      "Write a draft note (SOAP or free text) for a patient, or an addendum to a signed note (clinicians who write the patient's clinical data)",
  })
  createClinicalNote(@Arg('input', { description: 'The note' }) input: CreateClinicalNoteInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => ClinicalNote, { nullable: true, description: 'A clinical note; NOT_FOUND when missing or not readable' })
  clinicalNote(@Arg('id', () => ID, { description: 'The note' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Query(() => ClinicalNotePage, { description: "A patient's clinical notes, newest first" })
  patientClinicalNotes(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: PatientNoteListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @PayloadMutation(UpdateClinicalNotePayload, {
    description:
      'Change a draft note (a new version). A signed note is frozen; that, a stale expectedVersion or a bad field is a user error',
  })
  updateClinicalNote(
    @Arg('id', () => ID, { description: 'The note' }) id: string,
    @Arg('input', { description: 'The changes' }) input: UpdateClinicalNoteInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => ClinicalNote, {
    description: "Sign a draft note: final and frozen; amend it with an addendum. Clinicians who write the patient's clinical data; once",
  })
  signClinicalNote(@Arg('id', () => ID, { description: 'The note' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.sign(ctx, id);
  }

  @FieldResolver(() => [ClinicalNoteVersion], { description: 'Every version, oldest first' })
  versions(@Root() note: ClinicalNote, @Ctx() ctx: SubgraphContext) {
    return this.service.versions(ctx, note);
  }

  @FieldResolver(() => [ClinicalNote], { description: 'The addenda written to this note, oldest first' })
  addenda(@Root() note: ClinicalNote, @Ctx() ctx: SubgraphContext) {
    return this.service.addenda(ctx, note);
  }

  @FieldResolver(() => ClinicalNote, { nullable: true, description: 'The signed note this addendum amends' })
  addendumTo(@Root() note: ClinicalNote, @Ctx() ctx: SubgraphContext) {
    return load(ctx, 'clinical-note', ClinicalNote, note.addendumToId);
  }

  @FieldResolver(() => ClinicalRecord, { nullable: true, description: 'The encounter' })
  encounter(@Root() note: ClinicalNote, @Ctx() ctx: SubgraphContext) {
    return load(ctx, 'clinical-record', ClinicalRecord, note.encounterId);
  }

  @FieldResolver(() => Recording, { nullable: true, description: 'The recorded session' })
  recording(@Root() note: ClinicalNote, @Ctx() ctx: SubgraphContext) {
    return load(ctx, 'recording', Recording, note.recordingId);
  }

  @FieldResolver(() => AppointmentRef, { nullable: true, description: 'The appointment' })
  appointment(@Root() note: ClinicalNote) {
    return ref(note.appointmentId);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() note: ClinicalNote, @Ctx() ctx: SubgraphContext) {
    return loadPatient(ctx, note.patientId);
  }
}

@Resolver(() => DictationSession)
export class DictationResolver {
  private readonly service = new DictationService();

  @Mutation(() => DictationSession, {
    description:
      "Start dictating for a patient, optionally into one of their draft notes (clinicians who write the patient's clinical data)",
  })
  startDictation(@Arg('input', { description: 'The patient and the note' }) input: StartDictationInput, @Ctx() ctx: SubgraphContext) {
    return this.service.start(ctx, input);
  }

  @Query(() => DictationSession, { nullable: true, description: 'A dictation; NOT_FOUND when missing or not readable' })
  dictation(@Arg('id', () => ID, { description: 'The dictation' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Query(() => DictationSegmentPage, { description: "A dictation's segments, in order" })
  dictationSegments(
    @Arg('id', () => ID, { description: 'The dictation' }) id: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.segments(ctx, id, args);
  }

  @Mutation(() => DictationSegment, { description: 'Add a typed segment; the same segment sent again at its place answers the one kept' })
  addDictationSegment(@Args() args: AddDictationTextArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.addText(ctx, args);
  }

  @Directive('@inaccessible')
  @Mutation(() => UploadReservation, {
    description: 'For the REST upload path: may an audio segment be added, where does it go, how large may it be',
  })
  reserveDictationAudio(
    @Arg('id', () => ID, { description: 'The dictation' }) id: string,
    @Args() args: ReserveAudioArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reserveAudio(ctx, id, args);
  }

  @Directive('@inaccessible')
  @Mutation(() => DictationSegment, {
    description: 'For the REST upload path: add the audio segment it stored; it is transcribed like any recording',
  })
  addDictationAudioSegment(
    @Arg('id', () => ID, { description: 'The dictation' }) id: string,
    @Args() args: AddDictationAudioArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.addAudio(ctx, id, args);
  }

  @Mutation(() => ClinicalNote, {
    description:
      'Merge the segments, in order, into a draft note (appended) or a new free-text draft; every audio segment needs its transcript. Once',
  })
  mergeDictation(@Args() args: MergeDictationArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.merge(ctx, args);
  }

  @FieldResolver(() => ClinicalNote, { nullable: true, description: 'The note it merges (or merged) into' })
  note(@Root() dictation: DictationSession, @Ctx() ctx: SubgraphContext) {
    return load(ctx, 'clinical-note', ClinicalNote, dictation.mergedNoteId ?? dictation.noteId);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() dictation: DictationSession, @Ctx() ctx: SubgraphContext) {
    return loadPatient(ctx, dictation.patientId);
  }
}

@Resolver(() => DictationSegment)
export class DictationSegmentResolver {
  private readonly service = new DictationService();

  @FieldResolver(() => String, { nullable: true, description: "The segment's text: typed, or its transcript's once completed" })
  text(@Root() segment: DictationSegment, @Ctx() ctx: SubgraphContext) {
    return this.service.textOf(ctx, segment);
  }

  @FieldResolver(() => Transcript, { nullable: true, description: 'The transcript of an audio segment' })
  transcript(@Root() segment: DictationSegment, @Ctx() ctx: SubgraphContext) {
    return load(ctx, 'transcript', Transcript, segment.transcriptId);
  }
}

/** `appointment { clinicalNotes }`: the notes of each appointment, batched across appointments. */
@Resolver(() => AppointmentRef)
export class AppointmentClinicalNotesResolver {
  private readonly service = new ClinicalNoteService();

  @FieldResolver(() => ClinicalNoteConnection, {
    nullable: true,
    description:
      "Clinical notes written for the appointment (each with its encounter's clinical record), newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller who may not read the patient's",
  })
  @Directive('@requires(fields: "patientId organizationId")')
  clinicalNotes(@Root() appointment: AppointmentRef, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.forAppointment(ctx, appointment, args);
  }

  @FieldResolver(() => [ClinicalRecord], {
    nullable: true,
    description: `The clinical records (encounters) the appointment's notes document, newest first, at most \`first\`; batched across appointments. Clinical data: null with a FORBIDDEN error for a caller who may not read the patient's`,
  })
  @Directive('@requires(fields: "patientId organizationId")')
  clinicalRecords(
    @Root() appointment: AppointmentRef,
    @Arg('first', () => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `How many, 1 to ${MAX_PAGE_SIZE}` }) first: number,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.encountersForAppointment(ctx, appointment, first);
  }
}
