import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Directive } from 'type-graphql';
import { byIds } from '../../../shared/model';
import { ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { loadPatient } from '../access/patient-access';
import { Patient } from '../patients/patient.entity';
import { ActionItem } from './action-item.entity';
import { ActionItemService } from './action-item.service';
import { AppointmentRef } from './appointment-ref';
import { Extraction } from './extraction.entity';
import { ExtractionService } from './extraction.service';
import { Recording } from './recording.entity';
import { RecordingService } from './recording.service';
import {
  ActionItemListArgs,
  ActionItemPage,
  CancelActionItemArgs,
  CompleteAudioArgs,
  CreateActionItemInput,
  CreateExtractionInput,
  MarkRecordingReadyArgs,
  RecordingListArgs,
  RecordingPage,
  ReserveAudioArgs,
  StartRecordingInput,
  StartTranscriptionInput,
  SubmitTranscriptInput,
  UpdateActionItemInput,
  UploadReservation,
} from './sessions.types';
import { Transcript } from './transcript.entity';
import { TranscriptService } from './transcript.service';

const patientOf = (ctx: SubgraphContext, row: { patientId: string }) => loadPatient(ctx, row.patientId);

@Resolver(() => Recording)
export class RecordingResolver {
  private readonly service = new RecordingService();
  private readonly transcriptService = new TranscriptService();

  @Mutation(() => Recording, {
    description: "Start recording a clinical session with a patient (clinicians who write the patient's clinical data)",
  })
  startRecording(
    @Arg('input', { description: 'The patient, and optionally the appointment and a title' }) input: StartRecordingInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.start(ctx, input);
  }

  @Query(() => RecordingPage, { description: "The caller's recordings, newest first" })
  myRecordings(@Args() args: RecordingListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => Recording, { nullable: true, description: 'A recording; NOT_FOUND when missing or not readable' })
  recording(@Arg('id', () => ID, { description: 'The recording' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Directive('@inaccessible')
  @Mutation(() => UploadReservation, {
    description:
      'For the REST upload path: may audio be uploaded to this recording now, where does it go, how large may it be (415 type, 413 size)',
  })
  reserveRecordingAudio(
    @Arg('id', () => ID, { description: 'The recording' }) id: string,
    @Args() args: ReserveAudioArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reserveAudio(ctx, id, args);
  }

  @Directive('@inaccessible')
  @Mutation(() => Recording, {
    description: 'For the REST upload path: record the audio it stored (type, size, SHA-256); the recording becomes uploaded',
  })
  completeRecordingAudio(
    @Arg('id', () => ID, { description: 'The recording' }) id: string,
    @Args() args: CompleteAudioArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.completeAudio(ctx, id, args);
  }

  @Mutation(() => Recording, {
    description: 'The clinician is done: the audio is fixed and may be transcribed (or the recording fails when its audio is gone)',
  })
  markRecordingReady(@Args() args: MarkRecordingReadyArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.markReady(ctx, args.id, args.durationSeconds);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() recording: Recording, @Ctx() ctx: SubgraphContext) {
    return patientOf(ctx, recording);
  }

  @FieldResolver(() => AppointmentRef, { nullable: true, description: 'The appointment' })
  appointment(@Root() recording: Recording) {
    return ref(recording.appointmentId);
  }

  @FieldResolver(() => [Transcript], { description: 'Its transcripts, newest first' })
  transcripts(@Root() recording: Recording, @Ctx() ctx: SubgraphContext) {
    return this.transcriptService.forRecording(ctx, recording);
  }
}

@Resolver(() => Transcript)
export class TranscriptResolver {
  private readonly service = new TranscriptService();

  @Mutation(() => Transcript, {
    description:
      'Ask for the transcript of a ready recording: a speech-to-text job, or a wait for a submitted text when no provider is configured',
  })
  startTranscription(
    @Arg('input', { description: 'The recording and its language' }) input: StartTranscriptionInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.start(ctx, input);
  }

  @Query(() => Transcript, { nullable: true, description: 'A transcript; NOT_FOUND when missing or not readable' })
  transcript(@Arg('id', () => ID, { description: 'The transcript' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Transcript, {
    description: "Give a transcript its text (a person, or a provider through a clinician's tool); once completed it is fixed",
  })
  submitTranscript(
    @Arg('id', () => ID, { description: 'The transcript' }) id: string,
    @Arg('input', { description: 'The text, the segments, or both' }) input: SubmitTranscriptInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.submit(ctx, id, input);
  }

  @FieldResolver(() => Recording, { description: 'The recording transcribed' })
  recording(@Root() transcript: Transcript, @Ctx() ctx: SubgraphContext) {
    return ctx.loader<string, Recording>('recording', byIds(ctx.em, Recording)).load(transcript.recordingId);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() transcript: Transcript, @Ctx() ctx: SubgraphContext) {
    return patientOf(ctx, transcript);
  }
}

@Resolver(() => Extraction)
export class ExtractionResolver {
  private readonly service = new ExtractionService();

  @Mutation(() => Extraction, {
    description:
      'Propose structured facts from a completed transcript or a text (the built-in extractor, offline); nothing is written to the chart yet',
  })
  createExtraction(
    @Arg('input', { description: 'A transcript, or a text and its patient' }) input: CreateExtractionInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => Extraction, { nullable: true, description: 'An extraction and its items; NOT_FOUND when missing or not readable' })
  extraction(@Arg('id', () => ID, { description: 'The extraction' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Extraction, {
    description:
      'Write the accepted items to the chart in one transaction (vitals, allergies, draft prescriptions, journey events, follow-up action items); the others are rejected. Once.',
  })
  commitExtraction(
    @Arg('id', () => ID, { description: 'The extraction' }) id: string,
    @Arg('itemIds', () => [ID], { nullable: true, description: 'The items accepted; all when omitted' })
    itemIds: string[] | null | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.commit(ctx, id, itemIds);
  }

  @FieldResolver(() => Transcript, { nullable: true, description: 'The transcript analysed' })
  transcript(@Root() extraction: Extraction, @Ctx() ctx: SubgraphContext) {
    return extraction.transcriptId
      ? ctx.loader<string, Transcript>('transcript', byIds(ctx.em, Transcript)).load(extraction.transcriptId)
      : null;
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() extraction: Extraction, @Ctx() ctx: SubgraphContext) {
    return patientOf(ctx, extraction);
  }
}

@Resolver(() => ActionItem)
export class ActionItemResolver {
  private readonly service = new ActionItemService();

  @Mutation(() => ActionItem, {
    description: "Create an action item for a patient or a recorded session (clinicians who write the patient's clinical data)",
  })
  createActionItem(@Arg('input', { description: 'What, for whom, by when' }) input: CreateActionItemInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => ActionItemPage, { description: 'Action items the caller may read, with filters; soonest due first' })
  actionItems(@Args() args: ActionItemListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ActionItem, { nullable: true, description: 'An action item; NOT_FOUND when missing or not readable' })
  actionItem(@Arg('id', () => ID, { description: 'The action item' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => ActionItem, { description: 'Change an open action item, or mark it done (status done) or open again (status open)' })
  updateActionItem(
    @Arg('id', () => ID, { description: 'The action item' }) id: string,
    @Arg('input', { description: 'The changes' }) input: UpdateActionItemInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => ActionItem, { description: 'Cancel an open action item (kept, with who and why); once' })
  cancelActionItem(@Args() args: CancelActionItemArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, args);
  }

  @FieldResolver(() => Recording, { nullable: true, description: 'The recording it came from' })
  recording(@Root() item: ActionItem, @Ctx() ctx: SubgraphContext) {
    return item.recordingId ? ctx.loader<string, Recording>('recording', byIds(ctx.em, Recording)).load(item.recordingId) : null;
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() item: ActionItem, @Ctx() ctx: SubgraphContext) {
    return patientOf(ctx, item);
  }
}
