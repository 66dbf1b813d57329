import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum ExtractionStatus {
  proposed = 'proposed',
  committed = 'committed',
}
registerEnumType(ExtractionStatus, {
  name: 'ExtractionStatus',
  description: 'proposed: waiting for a clinician; committed: the accepted items were written to the chart',
});

/** commit: a clinician writes the accepted items to the chart; once. */
export const EXTRACTION = stateMachine<ExtractionStatus, 'commit'>('extraction', {
  commit: { from: [ExtractionStatus.proposed], to: ExtractionStatus.committed },
});

export enum ExtractionItemKind {
  medication = 'medication',
  allergy = 'allergy',
  vital_sign = 'vital_sign',
  problem = 'problem',
  follow_up = 'follow_up',
}
registerEnumType(ExtractionItemKind, { name: 'ExtractionItemKind', description: 'What a proposed item is' });

export enum ExtractionItemStatus {
  proposed = 'proposed',
  committed = 'committed',
  rejected = 'rejected',
  already_recorded = 'already_recorded',
}
registerEnumType(ExtractionItemStatus, {
  name: 'ExtractionItemStatus',
  description:
    'proposed; committed (written to the chart); rejected (not accepted: never written); already_recorded (accepted, but the chart had it: an active allergy to the same substance)',
});

export enum ExtractionRecordType {
  vital = 'vital',
  allergy = 'allergy',
  prescription = 'prescription',
  journey_event = 'journey_event',
  action_item = 'action_item',
}
registerEnumType(ExtractionRecordType, {
  name: 'ExtractionRecordType',
  description:
    'The kind of record committing an extraction item wrote: a vital, an allergy, a prescription, a journey event or an action item',
});

export enum VitalSignKind {
  blood_pressure = 'blood_pressure',
  heart_rate = 'heart_rate',
  temperature = 'temperature',
  respiratory_rate = 'respiratory_rate',
  oxygen_saturation = 'oxygen_saturation',
  weight = 'weight',
}
registerEnumType(VitalSignKind, { name: 'VitalSignKind', description: 'The vital sign a proposed measurement is' });

export enum MedicationAction {
  start = 'start',
  continue = 'continue',
  unspecified = 'unspecified',
}
registerEnumType(MedicationAction, {
  name: 'MedicationAction',
  description: 'What the clinician said to do with a medicine: start it, continue it, or not said',
});

export enum AllergyCategory {
  food = 'food',
  medication = 'medication',
  environment = 'environment',
  biologic = 'biologic',
}
registerEnumType(AllergyCategory, { name: 'AllergenCategory', description: 'FHIR AllergyIntolerance category of a proposed allergen' });

@ObjectType({ description: 'Where in the analysed text an item came from: character offsets and the text itself' })
export class TextSpan {
  @Field(() => Int, { description: 'Offset of the first character, from 0' })
  start!: number;

  @Field(() => Int, { description: 'Offset after the last character' })
  end!: number;

  @Field({ description: 'The text of the span' })
  text!: string;
}

@ObjectType({ description: 'A medicine to prescribe, as said' })
export class ExtractedMedication {
  @Field({ description: 'Ingredient name from the essential medicines list' })
  name!: string;

  @Field({ description: 'RxNorm ingredient concept (RXCUI)' })
  rxnormCode!: string;

  @Field(() => Float, { description: 'Amount per dose' })
  dose!: number;

  @Field({ description: 'mg, g, mcg, mL, IU, units, tablet, capsule, puff or drop' })
  unit!: string;

  @Field(() => String, {
    nullable: true,
    description: 'oral, intravenous, intramuscular, subcutaneous, inhalation, topical, rectal or sublingual',
  })
  route!: string | null;

  @Field({ description: 'How often, in words (three times daily)' })
  frequency!: string;

  @Field({ description: 'How often, as a code (QD, BID, TID, QID, Q8H, QHS, QW, PRN, ONCE)' })
  frequencyCode!: string;

  @Field(() => String, { nullable: true, description: 'For how long (7 days)' })
  duration!: string | null;

  @Field(() => MedicationAction, { description: 'start, continue or unspecified' })
  action!: MedicationAction;
}

@ObjectType({ description: 'An allergy or intolerance, as said' })
export class ExtractedAllergy {
  @Field({ description: 'The substance or medicine class' })
  substance!: string;

  @Field(() => String, { nullable: true, description: 'What happens (rash, hives, anaphylaxis)' })
  reaction!: string | null;

  @Field(() => AllergyCategory, {
    nullable: true,
    description: 'food, medication, environment or biologic; null when the substance is unknown to the terminology',
  })
  category!: AllergyCategory | null;

  @Field(() => String, { nullable: true, description: 'RxNorm (a medicine) or ATC (a class of medicines)' })
  codeSystem!: string | null;

  @Field(() => String, { nullable: true, description: 'The code in that system' })
  code!: string | null;
}

@ObjectType({ description: 'A vital sign measurement, as said' })
export class ExtractedVitalSign {
  @Field(() => VitalSignKind, { description: 'Which vital sign' })
  sign!: VitalSignKind;

  @Field(() => Float, { description: 'The value in `unit` (the systolic pressure of a blood pressure)' })
  value!: number;

  @Field(() => Float, { nullable: true, description: 'The diastolic pressure of a blood pressure' })
  secondValue!: number | null;

  @Field({ description: 'UCUM unit: mmHg, /min, Cel, %, kg' })
  unit!: string;
}

@ObjectType({ description: 'A problem or diagnosis, as said, with its code' })
export class ExtractedProblem {
  @Field({ description: 'As said' })
  name!: string;

  @Field({ description: 'ICD-10-CM code' })
  icd10Code!: string;

  @Field({ description: "The code's title" })
  icd10Display!: string;
}

@ObjectType({ description: 'A planned follow-up' })
export class ExtractedFollowUp {
  @Field({ description: 'The sentence that plans it' })
  description!: string;

  @Field(() => Int, { description: 'Days from the consultation' })
  intervalDays!: number;

  @Field(() => LocalDate, { description: 'The consultation date plus the interval' })
  dueDate!: string;
}

/** One proposed fact; exactly one of its detail fields is set, the one its kind names. */
@ObjectType({ description: 'One proposed fact, with where it came from, how sure the extractor is, and what became of it' })
export class ExtractionItem {
  @Field(() => ID, { description: 'Names the item when committing' })
  id!: string;

  @Field(() => ExtractionItemKind, { description: 'Which detail field is set' })
  kind!: ExtractionItemKind;

  @Field(() => ExtractionItemStatus, { description: 'proposed, committed, rejected or already_recorded' })
  status!: ExtractionItemStatus;

  @Field(() => TextSpan, { description: 'The text it came from' })
  span!: TextSpan;

  @Field(() => Float, { description: 'From 0 to 1: how sure the extractor is' })
  confidence!: number;

  @Field({ description: 'The item in words' })
  display!: string;

  @Field(() => ExtractedMedication, { nullable: true, description: 'Set for kind medication' })
  medication!: ExtractedMedication | null;

  @Field(() => ExtractedAllergy, { nullable: true, description: 'Set for kind allergy' })
  allergy!: ExtractedAllergy | null;

  @Field(() => ExtractedVitalSign, { nullable: true, description: 'Set for kind vital_sign' })
  vitalSign!: ExtractedVitalSign | null;

  @Field(() => ExtractedProblem, { nullable: true, description: 'Set for kind problem' })
  problem!: ExtractedProblem | null;

  @Field(() => ExtractedFollowUp, { nullable: true, description: 'Set for kind follow_up' })
  followUp!: ExtractedFollowUp | null;

  @Field(() => ExtractionRecordType, { nullable: true, description: 'What committing wrote' })
  recordType!: `${ExtractionRecordType}` | null;

  @Field(() => ID, { nullable: true, description: 'The id of the record committing wrote (or found, for already_recorded)' })
  recordId!: string | null;
}

/** Facts proposed from a transcript or a text, waiting for a clinician to commit the ones they accept. */
@ObjectType('Extraction', {
  description: 'Facts proposed from a transcript or text; a clinician commits the ones they accept to the chart',
})
@Entity({ tableName: 'session_extractions' })
@Index({ properties: ['patientId', 'createdAt'] })
export class Extraction extends PatientRecord {
  @Field(() => ID, { nullable: true, description: 'The transcript analysed, when it was one' })
  @Property({ type: 'uuid', nullable: true })
  transcriptId?: string | null;

  @Field(() => ID, { nullable: true, description: "The transcript's recording" })
  @Property({ type: 'uuid', nullable: true })
  recordingId?: string | null;

  @Field(() => ExtractionStatus, { description: 'proposed or committed' })
  @Enum({ items: () => ExtractionStatus })
  status: Opt<ExtractionStatus> = ExtractionStatus.proposed;

  @Field({ description: 'The text analysed; spans are offsets into it' })
  @Property({ type: 'text' })
  sourceText!: string;

  @Field({ description: 'The extractor and its version' })
  @Property({ type: 'text' })
  extractor!: string;

  @Field(() => [ExtractionItem], { description: 'Proposed items in the order they appear in the text' })
  @Property({ type: 'json' })
  items: Opt<ExtractionItem[]> = [];

  @Field(() => ID, { description: 'Who asked for it' })
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => ID, { nullable: true, description: 'Who committed it' })
  @Property({ type: 'uuid', nullable: true })
  committedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was committed' })
  @Property({ type: 'timestamptz', nullable: true })
  committedAt?: Date | null;
}
