import { ArrayMaxSize, ArrayMinSize, Max, Min, ValidateNested } from 'class-validator';
import { ConnectionOf } from '../../../shared/connection';
import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { PayloadOf } from '../../../shared/user-errors';
import { IsText } from '../../../shared/validation';
import { PatientTreatment, PatientTreatmentStatus, ProtocolStatus, TreatmentProtocol } from './treatment.entity';

export const MAX_STEPS = 50;
export const MAX_DURATION_DAYS = 3650;

@InputType({ description: 'One step of a protocol' })
export class TreatmentStepInput {
  @Field({ description: 'The medication' })
  @IsText(200)
  medication!: string;

  @Field({ description: 'How much per dose' })
  @IsText(200)
  dose!: string;

  @Field({ nullable: true, description: 'How it is given: oral, intravenous, ...' })
  @IsText(100)
  route?: string;

  @Field({ description: 'How often' })
  @IsText(200)
  frequency!: string;

  @Field(() => Int, { description: `For how many days, 1 to ${MAX_DURATION_DAYS}` })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_DURATION_DAYS, { message: `must be at most ${MAX_DURATION_DAYS}` })
  durationDays!: number;

  @Field({ nullable: true, description: 'Further instructions' })
  @IsText(1000)
  instructions?: string;
}

@InputType({ description: 'A new treatment protocol' })
export class CreateTreatmentProtocolInput {
  @Field(() => ID, {
    nullable: true,
    description:
      'The organization (where the caller holds protocols:write); omitted by platform administrators for a protocol of the whole platform',
  })
  organizationId?: string;

  @Field({ description: 'Name, unique among the active protocols of the organization' })
  @IsText(200)
  name!: string;

  @Field({ description: 'The condition it treats' })
  @IsText(200)
  condition!: string;

  @Field({ description: 'ICD-10 code of the condition, such as B50.9' })
  @IsText(16)
  icd10Code!: string;

  @Field({ nullable: true, description: 'What it is for, when to use it' })
  @IsText(4000)
  description?: string;

  @Field(() => [TreatmentStepInput], { description: `The steps in order, 1 to ${MAX_STEPS}` })
  @ArrayMinSize(1, { message: 'must have at least one step' })
  @ArrayMaxSize(MAX_STEPS, { message: `must have at most ${MAX_STEPS} steps` })
  @ValidateNested()
  steps!: TreatmentStepInput[];
}

@InputType({ description: 'Changes to a protocol; every field optional. A change makes a new version' })
export class UpdateTreatmentProtocolInput {
  @Field({ nullable: true, description: 'Name' })
  @IsText(200)
  name?: string;

  @Field({ nullable: true, description: 'The condition it treats' })
  @IsText(200)
  condition?: string;

  @Field({ nullable: true, description: 'ICD-10 code of the condition' })
  @IsText(16)
  icd10Code?: string;

  @Field(() => String, { nullable: true, description: 'What it is for; null clears it' })
  @IsText(4000)
  description?: string | null;

  @Field(() => [TreatmentStepInput], { nullable: true, description: 'The steps in order (all of them)' })
  @ArrayMinSize(1, { message: 'must have at least one step' })
  @ArrayMaxSize(MAX_STEPS, { message: `must have at most ${MAX_STEPS} steps` })
  @ValidateNested()
  steps?: TreatmentStepInput[];
}

@ArgsType()
export class ProtocolListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's protocols" })
  organizationId?: string;

  @Field(() => ProtocolStatus, { nullable: true, description: 'Only protocols in this status' })
  status?: ProtocolStatus;

  @Field({ nullable: true, description: 'Only protocols for conditions under this ICD-10 code (B50 finds B50.9)' })
  @IsText(16)
  icd10Code?: string;
}

@ObjectType({ description: 'A page of treatment protocols, by name' })
export class TreatmentProtocolPage extends PageOf(TreatmentProtocol) {}

@ObjectType({
  description:
    'What createTreatmentProtocol answers: the new protocol, or what the user must fix (a bad field, an active protocol of the same name)',
})
export class CreateTreatmentProtocolPayload extends PayloadOf(TreatmentProtocol, 'treatmentProtocol') {}

@ObjectType({
  description:
    'What updateTreatmentProtocol answers: the new version, or what the user must fix (a bad field, an active protocol of the same name)',
})
export class UpdateTreatmentProtocolPayload extends PayloadOf(TreatmentProtocol, 'treatmentProtocol') {}

export enum ProtocolDeletionOutcome {
  deleted = 'deleted',
  retired = 'retired',
}
registerEnumType(ProtocolDeletionOutcome, {
  name: 'TreatmentProtocolDeletionOutcome',
  description: 'deleted (no treatment ever used it), or retired (treatments use it: it is kept, and assigned no more)',
});

@ObjectType({ description: 'What deleting a protocol did' })
export class TreatmentProtocolDeletion {
  @Field(() => ID, { description: 'The protocol' })
  id!: string;

  @Field(() => ProtocolDeletionOutcome, { description: 'deleted, or retired when treatments use it' })
  outcome!: ProtocolDeletionOutcome;

  @Field(() => TreatmentProtocol, { nullable: true, description: 'The retired protocol; null when deleted' })
  protocol!: TreatmentProtocol | null;
}

@InputType({ description: 'A protocol assigned to a patient' })
export class AssignTreatmentInput {
  @Field(() => ID, { description: 'The patient' })
  patientId!: string;

  @Field(() => ID, { description: "An active protocol of the patient's organization, or of the whole platform" })
  protocolId!: string;

  @Field(() => LocalDate, { description: 'First day of treatment: not before the patient was born, at most a year ahead' })
  startDate!: string;

  @Field(() => ID, {
    nullable: true,
    description: "The prescribing doctor (a doctor of the patient's organization); the caller when omitted",
  })
  prescriberId?: string;

  @Field({ nullable: true, description: 'Notes' })
  @IsText(2000)
  notes?: string;
}

@InputType({ description: "Changes to a patient's treatment: progress, and the status wanted" })
export class UpdatePatientTreatmentInput {
  @Field(() => PatientTreatmentStatus, { nullable: true, description: 'completed, or discontinued (with discontinuationReason); final' })
  status?: PatientTreatmentStatus;

  @Field(() => Int, { nullable: true, description: 'The step reached, from 1 to the number of steps of the version followed' })
  currentStep?: number;

  @Field({ nullable: true, description: 'A progress note' })
  @IsText(2000)
  progressNote?: string;

  @Field({ nullable: true, description: 'Why it is discontinued (required to discontinue)' })
  @IsText(500)
  discontinuationReason?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last day of treatment when completed or discontinued; today when omitted' })
  endDate?: string;
}

@ArgsType()
export class PatientTreatmentListArgs extends PageArgs {
  @Field(() => PatientTreatmentStatus, { nullable: true, description: 'Only treatments in this status' })
  status?: PatientTreatmentStatus;
}

@ObjectType({ description: "A page of a patient's treatments, latest start first" })
export class PatientTreatmentPage extends PageOf(PatientTreatment) {}

@ObjectType({ description: 'PatientTreatment records of a patient, by cursor' })
export class PatientTreatmentConnection extends ConnectionOf(PatientTreatment, 'PatientTreatment') {}

@ObjectType({
  description:
    "What assignTreatment answers: the patient's new treatment, or what the user must fix (a bad field, a patient already on the protocol)",
})
export class AssignTreatmentPayload extends PayloadOf(PatientTreatment, 'patientTreatment') {}
