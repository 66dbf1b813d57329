import { ArrayMaxSize, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsText } from '../../../shared/validation';
import { ActionItem, ActionItemPriority, ActionItemStatus } from './action-item.entity';
import { Recording, RecordingStatus } from './recording.entity';

const LANGUAGE = /^[a-z]{2}$/;
const languageMessage = { message: 'must be a two-letter ISO 639-1 language code such as en' };

// --- recordings ------------------------------------------------------------------------------------------------------

@InputType({ description: 'A recording to start' })
export class StartRecordingInput {
  @Field(() => ID, { description: 'The patient of the session; the caller must write their clinical data' })
  patientId!: string;

  @Field(() => ID, { nullable: true, description: "The appointment, one of the patient's" })
  appointmentId?: string;

  @Field({ nullable: true, description: 'What the session is about (200 characters at most)' })
  @IsText(200)
  title?: string;
}

@ArgsType()
export class RecordingListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's" })
  patientId?: string;

  @Field(() => RecordingStatus, { nullable: true, description: 'Only recordings in this state' })
  status?: RecordingStatus;
}

@ObjectType()
export class RecordingPage extends PageOf(Recording) {}

/** Where an upload's bytes go and how many they may be; the REST adapter's upload path asks for it. */
@ObjectType({ description: 'Where an audio upload is to be stored and its size limit (for the REST upload path)' })
export class UploadReservation {
  @Field({ description: 'The object storage key the audio is streamed to' })
  key!: string;

  @Field(() => Float, { description: 'The most bytes the audio may have' })
  maxBytes!: number;
}

@ArgsType()
export class ReserveAudioArgs {
  @Field(() => String, { description: 'Media type of the audio, without parameters (audio/wav)' })
  contentType!: string;

  @Field(() => Float, { nullable: true, description: 'Size the client declared (Content-Length), when it did' })
  declaredBytes?: number | null;
}

@ArgsType()
export class CompleteAudioArgs {
  @Field({ description: 'The key the reservation gave' })
  key!: string;

  @Field({ description: 'Media type of the audio, without parameters' })
  contentType!: string;

  @Field(() => Float, { description: 'Bytes stored' })
  sizeBytes!: number;

  @Field({ description: 'Lowercase hex SHA-256 of the bytes stored' })
  checksumSha256!: string;
}

@ArgsType()
export class MarkRecordingReadyArgs {
  @Field(() => ID, { description: 'The recording' })
  id!: string;

  @Field(() => Float, { nullable: true, description: 'Length of the audio in seconds, 0 to 86400' })
  @Min(0, { message: 'must not be negative' })
  @Max(86400, { message: 'must be at most 86400 seconds' })
  durationSeconds?: number;
}

// --- transcripts -----------------------------------------------------------------------------------------------------

@InputType({ description: 'A transcript to ask for' })
export class StartTranscriptionInput {
  @Field(() => ID, { description: 'A ready recording' })
  recordingId!: string;

  @Field({ nullable: true, description: 'Language of the speech, ISO 639-1 (en); detected when omitted' })
  @Matches(LANGUAGE, languageMessage)
  language?: string;
}

@InputType({ description: 'A stretch of speech of a submitted transcript' })
export class TranscriptSegmentInput {
  @Field({ nullable: true, description: 'Who spoke (100 characters at most)' })
  @IsText(100)
  speaker?: string;

  @Field(() => Float, { nullable: true, description: 'Seconds from the start, 0 to 86400' })
  @Min(0, { message: 'must not be negative' })
  @Max(86400, { message: 'must be at most 86400 seconds' })
  startSeconds?: number;

  @Field(() => Float, { nullable: true, description: 'Seconds from the start, 0 to 86400, not before startSeconds' })
  @Min(0, { message: 'must not be negative' })
  @Max(86400, { message: 'must be at most 86400 seconds' })
  endSeconds?: number;

  @Field({ description: 'What was said (10,000 characters at most)' })
  @IsText(10000)
  text!: string;
}

@InputType({ description: 'The text of a transcript: the whole text, its segments, or both' })
export class SubmitTranscriptInput {
  @Field({ nullable: true, description: 'The whole text (200,000 characters at most); the segments joined when omitted' })
  @IsText(200000)
  text?: string;

  @Field(() => [TranscriptSegmentInput], { nullable: true, description: 'Segments in time order (5,000 at most)' })
  @ArrayMaxSize(5000, { message: 'must have at most 5000 segments' })
  @ValidateNested()
  segments?: TranscriptSegmentInput[];

  @Field({ nullable: true, description: 'Language, ISO 639-1' })
  @Matches(LANGUAGE, languageMessage)
  language?: string;
}

// --- extractions -----------------------------------------------------------------------------------------------------

@InputType({ description: 'What to extract facts from: a completed transcript, or a text for a patient' })
export class CreateExtractionInput {
  @Field(() => ID, { nullable: true, description: "A completed transcript (its patient is the extraction's)" })
  transcriptId?: string;

  @Field({ nullable: true, description: 'A text to analyse instead (100,000 characters at most)' })
  @IsText(100000)
  text?: string;

  @Field(() => ID, { nullable: true, description: 'The patient; required with text' })
  patientId?: string;
}

// --- action items ----------------------------------------------------------------------------------------------------

@InputType({ description: 'An action item to create' })
export class CreateActionItemInput {
  @Field(() => ID, { nullable: true, description: 'The patient; taken from the recording when omitted' })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'The recording (session) it comes from' })
  recordingId?: string;

  @Field({ description: 'What to do (200 characters at most)' })
  @IsText(200)
  title!: string;

  @Field({ nullable: true, description: '5,000 characters at most' })
  @IsText(5000)
  description?: string;

  @Field(() => ID, { nullable: true, description: 'The user who is to do it' })
  assigneeId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'By when, YYYY-MM-DD' })
  dueDate?: string;

  @Field(() => ActionItemPriority, { nullable: true, description: 'normal when omitted' })
  priority?: ActionItemPriority;
}

@InputType({ description: 'Changes to an action item; every field optional, optional ones cleared with null' })
export class UpdateActionItemInput {
  @Field({ nullable: true, description: '200 characters at most' })
  @IsText(200)
  title?: string;

  @Field(() => String, { nullable: true, description: '5,000 characters at most' })
  @IsText(5000)
  description?: string | null;

  @Field(() => ID, { nullable: true, description: 'The user who is to do it' })
  assigneeId?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'By when' })
  dueDate?: string | null;

  @Field(() => ActionItemPriority, { nullable: true, description: 'low, normal, high or urgent' })
  priority?: ActionItemPriority;

  @Field(() => ActionItemStatus, { nullable: true, description: 'open or done (cancel with the cancel action)' })
  status?: ActionItemStatus;
}

@ArgsType()
export class ActionItemListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's" })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: "Only this recording's" })
  recordingId?: string;

  @Field(() => ID, { nullable: true, description: 'Only those assigned to this user' })
  assigneeId?: string;

  @Field(() => Boolean, { nullable: true, description: 'Only those assigned to the caller' })
  mine?: boolean;

  @Field(() => ActionItemStatus, { nullable: true, description: 'Only those in this state' })
  status?: ActionItemStatus;

  @Field(() => LocalDate, { nullable: true, description: 'Only those due on or before this date' })
  dueBefore?: string;
}

@ArgsType()
export class CancelActionItemArgs {
  @Field(() => ID, { description: 'The action item' })
  id!: string;

  @Field({ nullable: true, description: 'Why (500 characters at most)' })
  @IsText(500)
  reason?: string;
}

@ObjectType()
export class ActionItemPage extends PageOf(ActionItem) {}
