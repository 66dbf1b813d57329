import { ArrayMaxSize, ArrayMinSize, IsIn, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsCalendarDate, IsInRange, IsText } from '../../../shared/validation';
import { Consciousness, VITAL_SIGNS, type VitalSign } from '../vitals/vital.entity';
import {
  ActionTaken,
  AdverseEvent,
  AdverseEventOutcome,
  AdverseEventSeverity,
  Causality,
  DrugInteractionRule,
  InteractionSeverity,
  News2ParameterScore,
  News2RiskBand,
  SeriousnessCriterion,
} from './cds.entity';

export const MAX_MEDICATIONS = 50;

// ---- Drug interaction check ----

@InputType({ description: 'A medication to check: its name (ingredient or brand, strength and form allowed), its RxNorm code, or both' })
export class MedicationEntryInput {
  @Field({ nullable: true, description: 'Drug name as written, such as "Warfarin 5 mg" or "Coumadin"' })
  @IsText(200)
  name?: string;

  @Field({ nullable: true, description: 'RxNorm concept code (RXCUI) of the ingredient, such as 11289 for warfarin' })
  @IsText(20)
  rxcui?: string;
}

@InputType({ description: 'Medications to check, and optionally the patient' })
export class DrugInteractionCheckInput {
  @Field(() => [MedicationEntryInput], { description: `The medications to check together, 1 to ${MAX_MEDICATIONS}` })
  @ArrayMinSize(1, { message: 'must list at least one medication' })
  @ArrayMaxSize(MAX_MEDICATIONS, { message: `must list at most ${MAX_MEDICATIONS} medications` })
  @ValidateNested({ each: true })
  medications!: MedicationEntryInput[];

  @Field(() => ID, {
    nullable: true,
    description: "Also check the patient's recorded active allergies (drug-allergy conflicts) and active prescriptions",
  })
  patientId?: string;

  @Field({
    nullable: true,
    defaultValue: false,
    description: "With patientId: check the given medications against the patient's active prescriptions too",
  })
  includeActiveMedications?: boolean;
}

export enum MedicationMatchedBy {
  rxcui = 'rxcui',
  name = 'name',
  none = 'none',
}
registerEnumType(MedicationMatchedBy, {
  name: 'MedicationMatchedBy',
  description: 'How a medication was recognised: by its RxNorm code, by its name, or none (unrecognised)',
});

export enum CheckedMedicationOrigin {
  request = 'request',
  active_prescription = 'active_prescription',
}
registerEnumType(CheckedMedicationOrigin, {
  name: 'CheckedMedicationOrigin',
  description: 'Where a checked medication came from: the request, or an active prescription of the patient',
});

export enum InteractionBasis {
  ingredients = 'ingredients',
  ingredient_and_class = 'ingredient_and_class',
  classes = 'classes',
}
registerEnumType(InteractionBasis, {
  name: 'InteractionBasis',
  description: 'What an interaction rule matched: both ingredients by name, an ingredient and a class, or two classes',
});

export enum AllergyConflictBasis {
  same_drug = 'same_drug',
  same_class = 'same_class',
  cross_reactive = 'cross_reactive',
}
registerEnumType(AllergyConflictBasis, {
  name: 'AllergyConflictBasis',
  description: 'Why a medication conflicts with an allergy: the same drug, the same class, or a cross-reactive class',
});

export enum PanicDirection {
  low = 'low',
  high = 'high',
}
registerEnumType(PanicDirection, {
  name: 'PanicDirection',
  description: 'Which panic limit a critical value is beyond: low or high',
});

@ObjectType({ description: 'An ingredient of the drug vocabulary' })
export class DrugIngredient {
  @Field({ description: 'Vocabulary key, such as warfarin' })
  key!: string;

  @Field({ description: 'Ingredient name' })
  name!: string;

  @Field(() => [String], { description: 'RxNorm ingredient codes (RXCUI); empty where none was checked' })
  rxcui!: string[];

  @Field(() => [String], { description: 'Drug classes, such as anticoagulants' })
  classes!: string[];
}

@ObjectType({ description: 'A medication of the request, as the check understood it' })
export class CheckedMedication {
  @Field(() => Int, { description: 'Position in the request (from 0); active prescriptions follow the given medications' })
  index!: number;

  @Field(() => String, { nullable: true, description: 'The name as given' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'The RxNorm code as given' })
  rxcui?: string | null;

  @Field(() => MedicationMatchedBy)
  matchedBy!: `${MedicationMatchedBy}`;

  @Field(() => [DrugIngredient], { description: 'The ingredients it resolved to; empty when unrecognised' })
  ingredients!: DrugIngredient[];

  @Field(() => CheckedMedicationOrigin)
  origin!: `${CheckedMedicationOrigin}`;
}

@ObjectType({ description: 'A medication the vocabulary does not know: no interaction could be checked for it' })
export class UnrecognizedMedication {
  @Field(() => Int, { description: 'Position in the request, from 0' })
  index!: number;

  @Field(() => String, { nullable: true, description: 'The name as given' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'The RxNorm code as given' })
  rxcui?: string | null;
}

@ObjectType({ description: 'An interaction between two medications' })
export class DrugInteraction {
  @Field(() => InteractionSeverity, { description: 'How serious the interaction is' })
  severity!: InteractionSeverity;

  @Field({ description: 'What happens when the two are taken together, and why' })
  description!: string;

  @Field(() => [String], { description: 'The two medications, as named in the request' })
  drugs!: string[];

  @Field({ description: 'What the prescriber should do' })
  recommendation!: string;

  @Field(() => [String], { description: 'The two ingredients that interact' })
  ingredients!: string[];

  @Field(() => InteractionBasis)
  basis!: `${InteractionBasis}`;

  @Field({ description: "The rule's published source" })
  source!: string;

  @Field(() => ID, { description: 'The rule (GET /api/cds/drug-interactions)' })
  ruleId!: string;
}

@ObjectType({ description: "A medication that conflicts with one of the patient's recorded allergies" })
export class AllergyConflict {
  @Field(() => InteractionSeverity, { description: 'contraindicated (the allergen or its class), or the cross-reactivity severity' })
  severity!: InteractionSeverity;

  @Field({ description: 'What conflicts with what' })
  description!: string;

  @Field(() => [String], { description: 'The medication, as named in the request' })
  drugs!: string[];

  @Field({ description: 'What the prescriber should do' })
  recommendation!: string;

  @Field(() => ID, { description: 'The recorded allergy (or the prefetched AllergyIntolerance id)' })
  allergyId!: string;

  @Field({ description: 'The recorded substance, such as penicillin' })
  allergen!: string;

  @Field(() => String, { nullable: true, description: 'The recorded reaction' })
  reaction?: string | null;

  @Field(() => AllergyConflictBasis)
  basis!: `${AllergyConflictBasis}`;

  @Field(() => String, { nullable: true, description: 'The allergy class involved, such as penicillins' })
  allergyClass?: string | null;

  @Field({ description: 'The guidance the conflict follows' })
  source!: string;
}

@ObjectType({ description: 'The same ingredient in more than one medication (duplicate therapy)' })
export class DuplicateTherapy {
  @Field({ description: 'The ingredient named more than once' })
  ingredient!: string;

  @Field(() => [String], { description: 'The medications that contain it, as named' })
  drugs!: string[];
}

@ObjectType({ description: 'The result of a drug interaction check' })
export class DrugInteractionCheck {
  @Field(() => [DrugInteraction], { description: 'Most severe first' })
  interactions!: DrugInteraction[];

  @Field(() => [AllergyConflict], { description: "With patientId: conflicts with the patient's active allergies, most severe first" })
  allergyConflicts!: AllergyConflict[];

  @Field(() => [DuplicateTherapy], { description: 'The same ingredient in more than one medication' })
  duplicates!: DuplicateTherapy[];

  @Field(() => [UnrecognizedMedication], { description: 'Medications no ingredient was found for: nothing was checked for them' })
  unrecognized!: UnrecognizedMedication[];

  @Field(() => [CheckedMedication], { description: 'Each medication as the check understood it' })
  medications!: CheckedMedication[];

  @Field(() => ID, { nullable: true, description: 'The patient checked, when one was given' })
  patientId?: string | null;

  @Field(() => [String], { description: 'The knowledge the check used, with sources and licences' })
  sources!: string[];
}

// ---- Interaction knowledge ----

@InputType({ description: 'An interaction rule to add, or to replace the rule of the same pair' })
export class UpsertDrugInteractionInput {
  @Field({ description: 'An ingredient, brand name or RxNorm code (warfarin, Coumadin, 11289), or a class (class:nsaids)' })
  @IsText(120)
  drugA!: string;

  @Field({ description: 'The other ingredient, brand, code or class' })
  @IsText(120)
  drugB!: string;

  @Field(() => InteractionSeverity, { description: 'How serious it is' })
  severity!: InteractionSeverity;

  @Field({ description: 'A description' })
  @IsText(2000)
  description!: string;

  @Field({ description: 'What the prescriber should do' })
  @IsText(2000)
  recommendation!: string;

  @Field({ description: 'Where the rule comes from (publication, label, local policy)' })
  @IsText(500)
  source!: string;
}

@ObjectType({ description: 'An interaction rule after an upsert' })
export class DrugInteractionUpsert {
  @Field(() => DrugInteractionRule, { description: 'The rule as stored' })
  rule!: DrugInteractionRule;

  @Field({ description: 'Whether the pair had no rule before' })
  created!: boolean;

  @Field(() => [String], { description: 'Sides the drug vocabulary does not know: matched by name in later checks' })
  unknownDrugs!: string[];
}

@ArgsType()
export class DrugInteractionRuleListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Only rules that apply to this drug (ingredient, brand or RxNorm code) or its classes' })
  @IsText(120)
  drug?: string;

  @Field(() => InteractionSeverity, { nullable: true, description: 'Only rules of this severity' })
  severity?: InteractionSeverity;
}

@ObjectType()
export class DrugInteractionRulePage extends PageOf(DrugInteractionRule) {}

// ---- NEWS2 ----

const Plausible = (sign: VitalSign) => IsInRange(VITAL_SIGNS[sign].min, VITAL_SIGNS[sign].max, VITAL_SIGNS[sign].symbol);

@InputType({ description: "NEWS2 observations; with patientId only, the patient's latest vital signs fill what is not given" })
export class CalculateEarlyWarningScoreInput {
  @Field(() => ID, { nullable: true, description: 'Score this patient and keep the score (clinicians of its organization)' })
  patientId?: string;

  @Field(() => Float, { nullable: true, description: 'Breaths per minute' })
  @Plausible('respiratoryRate')
  respiratoryRate?: number;

  @Field(() => Float, { nullable: true, description: 'SpO2, percent' })
  @Plausible('oxygenSaturation')
  oxygenSaturation?: number;

  @Field(() => Int, {
    nullable: true,
    defaultValue: 1,
    description: '1, or 2 for hypercapnic respiratory failure with a prescribed target of 88-92%',
  })
  @IsIn([1, 2], { message: 'must be 1 or 2' })
  spo2Scale?: number;

  @Field({ nullable: true, description: 'Breathing supplemental oxygen (true) or room air (false)' })
  supplementalOxygen?: boolean;

  @Field(() => Float, { nullable: true, description: 'Systolic blood pressure, mmHg' })
  @Plausible('bloodPressureSystolic')
  bloodPressureSystolic?: number;

  @Field(() => Float, { nullable: true, description: 'Pulse, beats per minute' })
  @Plausible('heartRate')
  heartRate?: number;

  @Field(() => Consciousness, { nullable: true, description: 'ACVPU; new confusion scores 3' })
  consciousness?: Consciousness;

  @Field(() => Float, { nullable: true, description: 'Degrees Celsius' })
  @Plausible('temperature')
  temperature?: number;
}

@ObjectType({ description: 'A NEWS2 score (Royal College of Physicians, 2017)' })
export class News2Score {
  @Field(() => ID, { nullable: true, description: 'The kept score, when a patient was scored' })
  id?: string | null;

  @Field(() => ID, { nullable: true, description: 'The patient scored, when one was' })
  patientId?: string | null;

  @Field(() => Int, { description: 'Aggregate, 0 to 20' })
  total!: number;

  @Field(() => News2RiskBand, { description: 'The clinical risk band (chart 2)' })
  risk!: News2RiskBand;

  @Field({ description: 'A single parameter scored 3' })
  redScore!: boolean;

  @Field(() => [News2ParameterScore], { description: 'Each parameter in chart order' })
  parameters!: News2ParameterScore[];

  @Field(() => Int, { description: 'The SpO2 scale used: 1, or 2 for hypercapnic respiratory failure' })
  spo2Scale!: number;

  @Field({ description: 'Minimum monitoring frequency (chart 4)' })
  monitoringFrequency!: string;

  @Field({ description: 'The clinical response the chart recommends' })
  response!: string;

  @Field(() => Date, { description: 'When the observations were made' })
  observedAt!: Date;

  @Field(() => ID, { nullable: true, description: 'The vital signs record the observations came from' })
  vitalId?: string | null;

  @Field(() => [String], { description: 'Parameters taken from the vital signs record rather than the request' })
  fromVitals!: string[];

  @Field(() => [String], {
    description:
      'Parameters the vital signs record did not hold, scored as normal: consciousness as alert, supplementalOxygen as air. Only a score computed from a vital signs record (id null) assumes any',
  })
  assumed!: string[];

  @Field({ description: 'The chart the score follows' })
  source!: string;
}

@ObjectType('VitalNews2', {
  description: 'The NEWS2 of a vital signs record (Royal College of Physicians, 2017; SpO2 scale 1), computed from the record itself',
})
export class VitalNews2 {
  @Field(() => Int, { description: 'Aggregate, 0 to 20' })
  score!: number;

  @Field(() => News2RiskBand, { description: 'The clinical risk band (chart 2)' })
  risk!: News2RiskBand;

  @Field({ description: 'A single parameter scored 3' })
  redScore!: boolean;

  @Field(() => [String], {
    description: 'Parameters the record does not hold, scored as normal: consciousness as alert, supplementalOxygen as air',
  })
  assumed!: string[];
}

// ---- Panic values ----

@InputType({ description: 'A lab result to check against the critical (panic) limits' })
export class PanicValueResultInput {
  @Field({ nullable: true, description: 'LOINC code, such as 2823-3 (potassium); or give name' })
  @IsText(20)
  code?: string;

  @Field({ nullable: true, description: 'Test name as the limits list it, such as Potassium (any letter case), when no code is given' })
  @IsText(100)
  name?: string;

  @Field(() => Float, { description: 'The numeric result' })
  @IsInRange(-1e9, 1e9)
  value!: number;

  @Field({ description: 'UCUM unit, such as mmol/L; limits are compared only in their own unit' })
  @IsText(20)
  unit!: string;
}

@InputType({ description: 'Lab results to check against the panic limits' })
export class PanicValueCheckInput {
  @Field(() => [PanicValueResultInput], { description: '1 to 100 results' })
  @ArrayMinSize(1, { message: 'must list at least one result' })
  @ArrayMaxSize(100, { message: 'must list at most 100 results' })
  @ValidateNested({ each: true })
  results!: PanicValueResultInput[];
}

@ObjectType({ description: 'One result checked against the panic limits' })
export class PanicValueFinding {
  @Field(() => Int, { description: 'Position in the request, from 0' })
  index!: number;

  @Field(() => String, { nullable: true, description: 'LOINC code (given, or found by name)' })
  code?: string | null;

  @Field(() => String, { nullable: true, description: 'Test name' })
  name?: string | null;

  @Field(() => Float, { description: 'The value checked' })
  value!: number;

  @Field({ description: 'Its unit' })
  unit!: string;

  @Field({ description: 'Beyond a panic limit: call the responsible clinician now' })
  critical!: boolean;

  @Field(() => PanicDirection, { nullable: true, description: 'When critical' })
  direction?: `${PanicDirection}` | null;

  @Field(() => Float, { nullable: true, description: 'The low panic limit, in the unit' })
  low?: number | null;

  @Field(() => Float, { nullable: true, description: 'The high panic limit, in the unit' })
  high?: number | null;

  @Field({ description: 'Whether a limit exists for this test in this unit (false: not checked)' })
  known!: boolean;

  @Field({ description: 'What the check found, in a sentence' })
  message!: string;
}

@ObjectType({ description: 'Results checked against the critical (panic) limits' })
export class PanicValueCheck {
  @Field(() => [PanicValueFinding], { description: 'Each result, in request order' })
  results!: PanicValueFinding[];

  @Field(() => Int, { description: 'How many results are beyond a panic limit' })
  criticalCount!: number;

  @Field({ description: 'Where the panic limits come from' })
  source!: string;
}

// ---- Adverse events ----

@InputType({ description: 'A suspected adverse drug reaction' })
export class ReportAdverseEventInput {
  @Field(() => ID, { description: 'The patient (read access needed); the call is audited on their record' })
  patientId!: string;

  @Field({ description: 'The suspected drug (name, brand)' })
  @IsText(200)
  suspectedDrug!: string;

  @Field({ nullable: true, description: 'Its RxNorm code' })
  @IsText(20)
  rxcui?: string;

  @Field({ description: 'The reaction, such as angioedema' })
  @IsText(500)
  reaction!: string;

  @Field(() => LocalDate, { nullable: true, description: 'Not in the future' })
  @IsCalendarDate({ notFuture: true })
  onsetDate?: string;

  @Field(() => [SeriousnessCriterion], {
    nullable: true,
    defaultValue: [],
    description: 'The ICH E2A criteria met; none for a non-serious reaction',
  })
  @ArrayMaxSize(6)
  seriousnessCriteria?: SeriousnessCriterion[];

  @Field(() => AdverseEventSeverity, { nullable: true, description: 'How serious it is' })
  severity?: AdverseEventSeverity;

  @Field(() => AdverseEventOutcome, { description: 'Outcome at the time of the report' })
  outcome!: AdverseEventOutcome;

  @Field(() => Causality, { nullable: true, description: 'WHO-UMC causality assessment' })
  causality?: Causality;

  @Field(() => ActionTaken, { nullable: true, description: 'What was done with the suspected drug' })
  actionTaken?: ActionTaken;

  @Field({ nullable: true, description: 'A description' })
  @IsText(4000)
  description?: string;
}

@ArgsType()
export class AdverseEventListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field({ nullable: true, description: 'Only serious (true) or non-serious (false) reports' })
  serious?: boolean;
}

@ObjectType()
export class AdverseEventPage extends PageOf(AdverseEvent) {}

// ---- Patient risk ----

export enum RiskLevel {
  low = 'low',
  medium = 'medium',
  high = 'high',
}
registerEnumType(RiskLevel, {
  name: 'RiskLevel',
  description: 'How worried to be about a patient, or one reason for it: low, medium or high',
});

export enum RiskReasonKind {
  news2 = 'news2',
  critical_result = 'critical_result',
  interaction = 'interaction',
  allergy_conflict = 'allergy_conflict',
  allergy = 'allergy',
  adverse_event = 'adverse_event',
  missed_immunization = 'missed_immunization',
}
registerEnumType(RiskReasonKind, {
  name: 'RiskReasonKind',
  description:
    'What a risk reason is: a NEWS2 score, an unreviewed critical lab result, an interaction or allergy conflict of active ' +
    'prescriptions, an active allergy, a serious adverse reaction, or a missed immunization',
});

@ObjectType({ description: 'One reason in a patient risk assessment' })
export class RiskReason {
  @Field(() => RiskReasonKind)
  kind!: `${RiskReasonKind}`;

  @Field(() => RiskLevel)
  level!: `${RiskLevel}`;

  @Field({ description: 'The reason in a sentence' })
  summary!: string;

  @Field(() => Date, { nullable: true, description: 'When the finding was made, where known' })
  at?: Date | null;

  @Field(() => String, { nullable: true, description: 'The record behind it (vital score, lab result, allergy, ...)' })
  resourceType?: string | null;

  @Field(() => ID, { nullable: true, description: 'The id of the record behind it' })
  resourceId?: string | null;
}

@ObjectType({ description: "A patient's risk from the platform's own data, with its reasons" })
export class PatientRisk {
  @Field(() => ID, { description: 'The patient assessed' })
  patientId!: string;

  @Field(() => RiskLevel, { description: 'The highest level among the reasons' })
  level!: `${RiskLevel}`;

  @Field(() => [RiskReason], { description: 'Highest level first' })
  reasons!: RiskReason[];

  @Field(() => News2Score, {
    nullable: true,
    description:
      "The patient's NEWS2 now: the latest kept score, or that of the latest complete vital signs record when it was taken later (then id is null and vitalId names it)",
  })
  news2?: News2Score | null;

  @Field(() => Int, { description: 'Critical lab results not yet reviewed' })
  criticalResultsPendingReview!: number;

  @Field(() => [DrugInteraction], { description: 'Interactions among active prescriptions' })
  interactions!: DrugInteraction[];

  @Field(() => [AllergyConflict], { description: 'Active prescriptions that conflict with active allergies' })
  allergyConflicts!: AllergyConflict[];

  @Field(() => [String], { description: 'Active prescriptions (signed, within their duration)' })
  activeMedications!: string[];

  @Field(() => [String], { description: 'Active allergies and intolerances' })
  allergies!: string[];

  @Field(() => Date, { description: 'When the assessment was made' })
  assessedAt!: Date;
}
