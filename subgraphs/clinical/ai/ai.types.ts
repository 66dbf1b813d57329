import { ArrayMaxSize, ArrayMinSize, IsInt, Matches, Max, Min, ValidateNested } from 'class-validator';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { PayloadOf } from '../../../shared/user-errors';
import { IsInRange, IsOneOf, IsText } from '../../../shared/validation';
import { AiDevice, AiModel, AiModelStatus, AiRuntime, AiTask, DeviceReportedStatus } from './ai.entity';
import { URGENCIES } from './differential';

export enum Sex {
  female = 'female',
  male = 'male',
}
registerEnumType(Sex, { name: 'Sex', description: 'Biological sex, as the scores and reference intervals use it' });

export enum PceRace {
  african_american = 'african_american',
  white = 'white',
  other = 'other',
}
registerEnumType(PceRace, {
  name: 'PceRace',
  description:
    'The pooled cohort equations exist for African American and white adults; other: scored with the white equations (said in the answer)',
});

export enum LabValueStatus {
  critical_low = 'critical_low',
  low = 'low',
  normal = 'normal',
  high = 'high',
  critical_high = 'critical_high',
  unknown = 'unknown',
}
registerEnumType(LabValueStatus, {
  name: 'LabValueStatus',
  description:
    'Where a lab value falls against its interval: critical_low, low, normal, high, critical_high, or unknown (no interval in this unit)',
});

export enum ConditionUrgency {
  emergency = 'emergency',
  urgent = 'urgent',
  routine = 'routine',
}
registerEnumType(ConditionUrgency, {
  name: 'ConditionUrgency',
  description: 'How soon a condition of a differential needs care: emergency, urgent or routine',
});
// One list: the enum and the knowledge base's check agree.
if (Object.values(ConditionUrgency).join() !== URGENCIES.join()) throw new Error('Condition urgencies differ from differential.ts');

// ---- Registry ----

@InputType({ description: 'An external model to register' })
export class CreateAiModelInput {
  @Field({ description: 'Letters, digits, dot, dash, underscore' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, { message: 'must be 1 to 100 letters, digits, dots, dashes or underscores' })
  name!: string;

  @Field({ description: 'Such as 1.2.0' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,49}$/, { message: 'must be 1 to 50 letters, digits, dots, dashes, underscores or pluses' })
  version!: string;

  @Field(() => AiTask, { description: 'What the model does' })
  task!: AiTask;

  @Field(() => AiRuntime, { description: 'kserve_v2 or openai (builtin models ship with the platform)' })
  runtime!: AiRuntime;

  @Field({
    description: "The model server's base address (KServe root, or an OpenAI-compatible API base ending in /v1); the only address called",
  })
  @IsText(500)
  endpoint!: string;

  @Field({ nullable: true, description: 'The model name at the endpoint; the registry name when omitted' })
  @IsText(200)
  remoteModel?: string;

  @Field({ description: 'How and where the model was validated (publication, dataset, local evaluation), or that it was not' })
  @IsText(2000)
  validationReference!: string;

  @Field({ nullable: true, description: 'A description' })
  @IsText(2000)
  description?: string;

  @Field(() => Int, { nullable: true, defaultValue: 10000, description: 'Milliseconds, 100 to 120000' })
  @IsInt({ message: 'must be an integer' })
  @Min(100, { message: 'must be at least 100' })
  @Max(120000, { message: 'must be at most 120000' })
  timeoutMs?: number;

  @Field({ nullable: true, description: 'Bearer token the endpoint expects; stored sealed, never shown' })
  @IsText(1000)
  apiKey?: string;
}

@ArgsType()
export class AiModelListArgs extends PageArgs {
  @Field(() => AiTask, { nullable: true, description: 'What the model does' })
  task?: AiTask;

  @Field(() => AiModelStatus, { nullable: true, description: 'What it is doing' })
  status?: AiModelStatus;
}

@ArgsType()
export class AiModelInfoArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'One model' })
  modelId?: string;

  @Field({ nullable: true, description: 'Models of this name (all versions)' })
  @IsText(100)
  name?: string;

  @Field(() => AiTask, { nullable: true, description: 'What the model does' })
  task?: AiTask;
}

@ObjectType()
export class AiModelPage extends PageOf(AiModel) {}

@ObjectType({
  description: 'What createAiModel answers: the model, or what the user must fix (a bad field, a name and version already registered)',
})
export class CreateAiModelPayload extends PayloadOf(AiModel, 'aiModel') {}

@InputType({ description: 'A device at the edge to register (again: the same serial number updates it)' })
export class CreateAiDeviceInput {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field({ description: "The device's own identifier" })
  @IsText(100)
  serialNumber!: string;

  @Field({ description: 'The name' })
  @IsText(200)
  name!: string;

  @Field(() => ID, { description: 'The registered model it runs' })
  modelId!: string;

  @Field({ nullable: true, description: 'Where it is (ward, room)' })
  @IsText(200)
  location?: string;

  @Field(() => Int, { nullable: true, defaultValue: 60, description: 'Seconds between heartbeats, 10 to 86400' })
  @IsInt({ message: 'must be an integer' })
  @Min(10, { message: 'must be at least 10' })
  @Max(86400, { message: 'must be at most 86400' })
  heartbeatIntervalSeconds?: number;
}

@InputType({ description: 'What a device reports in a heartbeat' })
export class AiDeviceHeartbeatInput {
  @Field({ description: 'The model version it is running' })
  @IsText(50)
  modelVersion!: string;

  @Field(() => DeviceReportedStatus, { description: 'What it is doing' })
  status!: DeviceReportedStatus;

  @Field({ nullable: true, description: 'A short message from the device' })
  @IsText(1000)
  message?: string;
}

@ArgsType()
export class AiDeviceListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "One organization's devices; else those of my organizations" })
  organizationId?: string;

  @Field({ nullable: true, description: 'Only devices online (true) or offline or never seen (false)' })
  online?: boolean;
}

@ObjectType()
export class AiDevicePage extends PageOf(AiDevice) {}

// ---- Answers ----

@ObjectType({ description: 'The model that produced an answer' })
export class AiModelSummary {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'The name' })
  name!: string;

  @Field({ description: 'The version' })
  version!: string;

  @Field(() => AiTask, { description: 'What the model does' })
  task!: AiTask;

  @Field(() => AiRuntime, { description: 'How the model is run' })
  runtime!: AiRuntime;

  @Field({ description: 'How and where the model was validated' })
  validationReference!: string;
}

@ObjectType()
export abstract class AiAnswer {
  @Field(() => AiModelSummary, { description: 'The model id and version that produced the answer' })
  model!: AiModelSummary;

  @Field(() => GraphQLJSONObject, { description: 'The inputs the model used (after recognition and what the patient record supplied)' })
  inputsUsed!: Record<string, unknown>;

  @Field({ description: 'That the answer supports and does not replace clinical judgement' })
  disclaimer!: string;

  @Field(() => Date, { description: 'When the answer was produced' })
  generatedAt!: Date;

  @Field(() => String, { nullable: true, description: "An external model's text answer, as it gave it" })
  text?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "An external model's raw answer (tensors, or the completion's details)" })
  output?: unknown;
}

@InputType({ description: 'Symptoms to rank conditions for' })
export class DiagnosisInput {
  @Field(() => [String], { description: 'Symptoms as written, 1 to 30 ("fever", "stiff neck", "cough for 3 weeks")' })
  @ArrayMinSize(1, { message: 'must list at least one symptom' })
  @ArrayMaxSize(30, { message: 'must list at most 30 symptoms' })
  @IsText(200, { each: true })
  symptoms!: string[];

  @Field(() => Int, { nullable: true, description: 'Years, 0 to 130' })
  @IsInRange(0, 130)
  age?: number;

  @Field(() => Sex, { nullable: true, description: 'Female or male (reference intervals and scores differ)' })
  sex?: Sex;

  @Field(() => ID, {
    nullable: true,
    description: "A patient whose age and sex fill those not given (read access needed); the call is audited on the patient's record",
  })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'A registered diagnosis model; the built-in one when omitted' })
  modelId?: string;

  @Field(() => Int, { nullable: true, defaultValue: 5, description: '1 to 20' })
  @IsInRange(1, 20)
  maxResults?: number;
}

@ObjectType({ description: 'A condition of the differential, with the evidence for it' })
export class DifferentialCondition {
  @Field({ description: 'The condition' })
  condition!: string;

  @Field(() => String, { nullable: true, description: 'ICD-10 code (WHO 2019), when known' })
  icd10?: string | null;

  @Field(() => Float, { description: 'Ranking score 0 to 1 (weighted symptom overlap): not a probability' })
  matchScore!: number;

  @Field(() => [String], { description: 'Reported symptoms that fit it' })
  matchedSymptoms!: string[];

  @Field(() => [String], { description: 'Defining features the patient does not report' })
  missingKeySymptoms!: string[];

  @Field(() => [String], { description: 'Reported symptoms that are warning signs for this condition' })
  redFlags!: string[];

  @Field(() => ConditionUrgency)
  urgency!: string;

  @Field({ description: 'What to do next to confirm or exclude it' })
  advice!: string;

  @Field({ description: 'The source the entry comes from' })
  source!: string;
}

@ObjectType({ description: 'A differential diagnosis' })
export class DiagnosisAnswer extends AiAnswer {
  @Field(() => [DifferentialCondition], { description: 'Best match first; empty from an external model (see text and output)' })
  differential!: DifferentialCondition[];

  @Field(() => [String], { description: 'Symptoms the knowledge base does not know: not used' })
  unrecognizedSymptoms!: string[];
}

@InputType({ description: 'A lab result to interpret' })
export class LabValueInput {
  @Field({ nullable: true, description: 'LOINC code; or name' })
  @IsText(20)
  code?: string;

  @Field({ nullable: true, description: 'The name' })
  @IsText(100)
  name?: string;

  @Field(() => Float, { description: 'The value' })
  @IsInRange(-1e9, 1e9)
  value!: number;

  @Field({ description: 'UCUM unit' })
  @IsText(20)
  unit!: string;

  @Field({ nullable: true, description: "The laboratory's reference range, such as 3.5-5.1; used before the platform's" })
  @IsText(50)
  referenceRange?: string;
}

@InputType({ description: 'Lab results to interpret, or a patient whose latest results are read' })
export class LabInterpretationInput {
  @Field(() => [LabValueInput], {
    nullable: true,
    description: "1 to 100 results; with patientId only, the patient's latest numeric result of each test",
  })
  @ArrayMinSize(1, { message: 'must list at least one result' })
  @ArrayMaxSize(100, { message: 'must list at most 100 results' })
  @ValidateNested({ each: true })
  results?: LabValueInput[];

  @Field(() => Sex, { nullable: true, description: 'Female or male (reference intervals and scores differ)' })
  sex?: Sex;

  @Field({ nullable: true, description: 'Pregnant (haemoglobin thresholds differ)' })
  pregnant?: boolean;

  @Field(() => ID, { nullable: true, description: 'The patient (read access needed); the call is audited on their record' })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'A registered lab interpretation model; the built-in one when omitted' })
  modelId?: string;
}

@ObjectType({ description: 'One lab result, interpreted' })
export class InterpretedLabResult {
  @Field(() => Int, { description: 'Position in the request, from 0' })
  index!: number;

  @Field(() => String, { nullable: true, description: 'LOINC code' })
  code?: string | null;

  @Field(() => String, { nullable: true, description: 'The name' })
  name?: string | null;

  @Field(() => Float, { description: 'The value' })
  value!: number;

  @Field({ description: 'UCUM unit' })
  unit!: string;

  @Field(() => LabValueStatus)
  status!: `${LabValueStatus}`;

  @Field(() => Float, { nullable: true, description: 'Lower limit of the interval used' })
  low?: number | null;

  @Field(() => Float, { nullable: true, description: 'Upper limit of the interval used' })
  high?: number | null;

  @Field(() => String, { nullable: true, description: 'laboratory or platform' })
  referenceSource?: string | null;

  @Field({ description: 'Beyond a panic limit' })
  critical!: boolean;

  @Field({ description: 'What the value means against its interval, in a sentence' })
  comment!: string;
}

@ObjectType({ description: 'A pattern across results (anaemia by red cell size, cytopenias, ...)' })
export class LabPatternOut {
  @Field({ description: 'A stable key for the pattern' })
  key!: string;

  @Field({ description: 'The name' })
  name!: string;

  @Field(() => [String], { description: 'The results that show it' })
  evidence!: string[];

  @Field({ description: 'What to consider next' })
  suggestion!: string;

  @Field({ description: 'The source the entry comes from' })
  source!: string;
}

@ObjectType({ description: 'An interpretation of lab results' })
export class LabInterpretationAnswer extends AiAnswer {
  @Field(() => [InterpretedLabResult], { description: 'The results' })
  results!: InterpretedLabResult[];

  @Field(() => [LabPatternOut], { description: 'Patterns found across the results' })
  patterns!: LabPatternOut[];
}

@InputType({ description: 'Pooled cohort equations (Goff 2013): 10-year ASCVD risk' })
export class PooledCohortInput {
  @Field(() => Int, { nullable: true, description: '40 to 79 years; from the patient when omitted' })
  @IsInRange(40, 79, 'years')
  age?: number;

  @Field(() => Sex, { nullable: true, description: 'From the patient when omitted' })
  sex?: Sex;

  @Field(() => PceRace, { description: 'The equation set to use' })
  race!: PceRace;

  @Field(() => Float, { description: 'mg/dL, 130 to 320' })
  @IsInRange(130, 320, 'mg/dL')
  totalCholesterol!: number;

  @Field(() => Float, { description: 'mg/dL, 20 to 100' })
  @IsInRange(20, 100, 'mg/dL')
  hdlCholesterol!: number;

  @Field(() => Float, { description: 'mmHg, 90 to 200' })
  @IsInRange(90, 200, 'mmHg')
  systolicBloodPressure!: number;

  @Field({ description: 'On blood pressure treatment' })
  treatedForHypertension!: boolean;

  @Field({ description: 'Current smoker' })
  smoker!: boolean;

  @Field({ description: 'Diabetes' })
  diabetes!: boolean;
}

@InputType({ description: 'CHA2DS2-VASc (Lip 2010): stroke risk in atrial fibrillation' })
export class Cha2ds2VascInput {
  @Field(() => Int, { nullable: true, description: 'Years; from the patient when omitted' })
  @IsInRange(18, 130, 'years')
  age?: number;

  @Field(() => Sex, { nullable: true, description: 'From the patient when omitted' })
  sex?: Sex;

  @Field({ description: 'Congestive heart failure or left ventricular dysfunction' })
  congestiveHeartFailure!: boolean;

  @Field({ description: 'Hypertension' })
  hypertension!: boolean;

  @Field({ description: 'Diabetes' })
  diabetes!: boolean;

  @Field({ description: 'Prior stroke, TIA or thromboembolism' })
  strokeOrTia!: boolean;

  @Field({ description: 'Prior myocardial infarction, peripheral artery disease or aortic plaque' })
  vascularDisease!: boolean;
}

@InputType({ description: 'qSOFA (Seymour 2016)' })
export class QsofaInput {
  @Field(() => Float, { description: 'Breaths per minute' })
  @IsInRange(2, 80, '/min')
  respiratoryRate!: number;

  @Field(() => Float, { description: 'mmHg' })
  @IsInRange(40, 300, 'mmHg')
  systolicBloodPressure!: number;

  @Field({ description: 'Altered mentation (GCS below 15)' })
  alteredMentation!: boolean;
}

@InputType({ description: 'LACE index (van Walraven 2010)' })
export class LaceInput {
  @Field(() => Float, { description: 'Days, 0 to 365' })
  @IsInRange(0, 365, 'days')
  lengthOfStayDays!: number;

  @Field({ description: 'Admitted acutely (emergent)' })
  acuteAdmission!: boolean;

  @Field(() => Int, { description: 'Charlson comorbidity index, 0 to 37' })
  @IsInRange(0, 37)
  charlsonIndex!: number;

  @Field(() => Int, { description: 'Emergency department visits in the previous 6 months, 0 to 100' })
  @IsInRange(0, 100)
  emergencyVisits!: number;
}

@InputType({ description: 'The scores to compute: at least one' })
export class RiskStratificationInput {
  @Field(() => ID, { nullable: true, description: 'Fills age and sex; a qSOFA of 2 or more raises svc.cds.critical_score' })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'A registered model of the task; the built-in one when omitted' })
  modelId?: string;

  @Field(() => PooledCohortInput, { nullable: true, description: 'Inputs of the pooled cohort equations' })
  @ValidateNested()
  pooledCohortEquations?: PooledCohortInput;

  @Field(() => Cha2ds2VascInput, { nullable: true, description: 'Inputs of CHA2DS2-VASc' })
  @ValidateNested()
  cha2ds2Vasc?: Cha2ds2VascInput;

  @Field(() => QsofaInput, { nullable: true, description: 'Inputs of qSOFA' })
  @ValidateNested()
  qsofa?: QsofaInput;

  @Field(() => LaceInput, { nullable: true, description: 'Inputs of the LACE index' })
  @ValidateNested()
  lace?: LaceInput;
}

@ObjectType({ description: 'One validated score' })
export class RiskScoreOut {
  @Field({ description: 'pooled_cohort_equations, cha2ds2_vasc, qsofa, lace' })
  score!: string;

  @Field(() => Float, { description: 'The value' })
  value!: number;

  @Field(() => String, { nullable: true, description: 'UCUM unit' })
  unit?: string | null;

  @Field({ description: 'The risk category the source defines' })
  category!: string;

  @Field({ description: 'What the score means, per its source' })
  interpretation!: string;

  @Field({ description: 'The publication the formula comes from' })
  source!: string;

  @Field(() => GraphQLJSONObject, { description: 'The inputs as the formula used them, with the points of each' })
  inputs!: Record<string, unknown>;
}

@ObjectType({ description: 'Risk scores' })
export class RiskStratificationAnswer extends AiAnswer {
  @Field(() => [RiskScoreOut], { description: 'The scores computed' })
  scores!: RiskScoreOut[];
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'application/dicom'] as const;

@InputType({ description: 'An image to analyse' })
export class CancerDetectionInput {
  @Field({ description: 'The image, base64 (within the request body limit)' })
  @IsText(10_000_000)
  imageBase64!: string;

  @Field({ description: IMAGE_TYPES.join(', ') })
  @IsOneOf(IMAGE_TYPES)
  contentType!: string;

  @Field({ nullable: true, description: 'Such as breast, skin, cervix, chest' })
  @IsText(100)
  bodySite?: string;

  @Field({ nullable: true, description: 'Such as mammography, dermoscopy, histopathology' })
  @IsText(100)
  modality?: string;

  @Field(() => ID, { nullable: true, description: 'The patient (read access needed); the call is audited on their record' })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'A registered cancer detection model; the newest active one when omitted' })
  modelId?: string;
}

@ObjectType({ description: "A cancer detection model's answer, as the model gave it" })
export class CancerDetectionAnswer extends AiAnswer {}

@InputType({ description: 'A chat message for an OpenAI-compatible model' })
export class ChatMessageInput {
  // A checked String, not an enum: REST names a wrong role by its path in the list (messages.0.role), as before.
  @Field({ description: 'system, user or assistant' })
  @IsOneOf(['system', 'user', 'assistant'])
  role!: string;

  @Field({ description: 'The message text' })
  @IsText(100_000)
  content!: string;
}

@InputType({ description: 'A general inference call to a registered external model' })
export class CloudInferenceInput {
  @Field(() => ID, { description: 'A registered model of the task; the built-in one when omitted' })
  modelId!: string;

  @Field(() => GraphQLJSON, { nullable: true, description: 'KServe v2 models: Open Inference Protocol input tensors' })
  inputs?: unknown;

  @Field(() => [ChatMessageInput], { nullable: true, description: 'OpenAI-compatible models: the conversation' })
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  messages?: ChatMessageInput[];

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'Parameters passed to the model (KServe parameters; temperature, max_tokens for chat)',
  })
  parameters?: unknown;

  @Field(() => ID, { nullable: true, description: 'The patient the call is about, for the audit (read access needed)' })
  patientId?: string;
}

@ObjectType({ description: "An external model's answer" })
export class CloudInferenceAnswer extends AiAnswer {}
