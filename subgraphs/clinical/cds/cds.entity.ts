import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { BaseRecord } from '../../../shared/model';
import { PatientRecord } from '../patient-record';
import { Consciousness } from '../vitals/vital.entity';
import { CONSCIOUSNESS_LEVELS } from './news2';

export enum InteractionSeverity {
  contraindicated = 'contraindicated',
  major = 'major',
  moderate = 'moderate',
  minor = 'minor',
}
registerEnumType(InteractionSeverity, {
  name: 'InteractionSeverity',
  description:
    'contraindicated: do not use together; major: may be life-threatening or need intervention; moderate: change therapy or monitor; minor: limited clinical effect',
});

export enum InteractionRuleOrigin {
  shipped = 'shipped',
  administrator = 'administrator',
}
registerEnumType(InteractionRuleOrigin, {
  name: 'InteractionRuleOrigin',
  description: "shipped: from the platform's reference data (its source named); administrator: added or replaced by an administrator",
});

/**
 * One interaction rule between two drugs or drug classes (`class:<class>`), stored under its unordered pair. The
 * shipped rules (data/drug-interactions.json) are seeded at start; administrators add or replace rules, and a
 * replaced shipped rule stays as the administrator wrote it.
 */
@ObjectType('DrugInteractionRule', { description: 'An interaction rule between two ingredients or drug classes, with its source' })
@Entity({ tableName: 'drug_interaction_rules' })
export class DrugInteractionRule extends BaseRecord {
  /** `<a>|<b>`, sides in order: one rule per pair. */
  @Unique()
  @Property({ type: 'text' })
  pairKey!: string;

  @Field({ description: 'An ingredient key (warfarin) or a class (class:nsaids)' })
  @Index()
  @Property({ type: 'text' })
  sideA!: string;

  @Field({ description: 'An ingredient key (aspirin) or a class (class:anticoagulants)' })
  @Index()
  @Property({ type: 'text' })
  sideB!: string;

  @Field(() => InteractionSeverity, { description: 'How serious the interaction is' })
  @Enum({ items: () => InteractionSeverity })
  severity!: InteractionSeverity;

  @Field({ description: 'What happens when the two are taken together, and why' })
  @Property({ type: 'text' })
  description!: string;

  @Field({ description: 'What the prescriber should do' })
  @Property({ type: 'text' })
  recommendation!: string;

  @Field({ description: 'The publication, label or guidance the rule comes from' })
  @Property({ type: 'text' })
  source!: string;

  @Field(() => InteractionRuleOrigin, { description: "Shipped data, or an administrator's rule" })
  @Enum({ items: () => InteractionRuleOrigin })
  origin!: InteractionRuleOrigin;

  @Field(() => ID, { nullable: true, description: 'The administrator who last wrote it' })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;
}

export enum News2RiskBand {
  low = 'low',
  low_medium = 'low_medium',
  medium = 'medium',
  high = 'high',
}
registerEnumType(News2RiskBand, {
  name: 'News2RiskBand',
  description: 'RCP 2017 chart 2: low (aggregate 0-4), low_medium (3 in a single parameter), medium (5-6), high (7 or more)',
});

// ACVPU is recorded with the vital signs; one list of levels: the enum and the scoring code agree.
if (Object.values(Consciousness).join() !== CONSCIOUSNESS_LEVELS.join()) throw new Error('Consciousness levels differ from news2.ts');

/** One parameter's score on the NEWS2 chart. */
@ObjectType('News2ParameterScore', { description: "One parameter's row of the NEWS2 chart" })
export class News2ParameterScore {
  @Field({
    description: 'respiratoryRate, oxygenSaturation, supplementalOxygen, systolicBloodPressure, heartRate, consciousness, temperature',
  })
  parameter!: string;

  @Field({ description: 'The value scored, as the chart reads it (rounded; "air" or "oxygen"; the ACVPU level)' })
  value!: string;

  @Field(() => Int, { description: '0 to 3' })
  score!: number;

  @Field({ description: "The chart's band the value falls in, such as 21-24" })
  band!: string;
}

/** A NEWS2 score computed for a patient and kept (the latest feeds the patient's risk and CDS Hooks cards). */
@Entity({ tableName: 'early_warning_scores' })
@Index({ properties: ['patientId', 'observedAt'] })
export class EarlyWarningScore extends PatientRecord {
  @Property({ type: 'integer' })
  total!: number;

  @Enum({ items: () => News2RiskBand })
  risk!: News2RiskBand;

  @Property({ type: 'boolean' })
  redScore!: boolean;

  @Property({ type: 'integer', fieldName: 'spo2_scale' })
  spo2Scale!: number;

  @Property({ type: 'jsonb' })
  parameters!: News2ParameterScore[];

  @Property({ type: 'text' })
  monitoringFrequency!: string;

  @Property({ type: 'text' })
  response!: string;

  /** When the observations were made: the vital signs record's time, or the time of the request. */
  @Property({ type: 'timestamptz' })
  observedAt!: Date;

  /** The vital signs record the observations came from, when they did. */
  @Property({ type: 'uuid', nullable: true })
  vitalId?: string | null;

  @Property({ type: 'uuid' })
  computedBy!: string;
}

export const SERIOUSNESS_CRITERIA = [
  'death',
  'life_threatening',
  'hospitalization',
  'disability',
  'congenital_anomaly',
  'medically_important',
] as const;

export enum SeriousnessCriterion {
  death = 'death',
  life_threatening = 'life_threatening',
  hospitalization = 'hospitalization',
  disability = 'disability',
  congenital_anomaly = 'congenital_anomaly',
  medically_important = 'medically_important',
}
registerEnumType(SeriousnessCriterion, {
  name: 'SeriousnessCriterion',
  description:
    'ICH E2A: results in death; is life-threatening; requires inpatient hospitalization or prolongs it; results in persistent or significant disability or incapacity; is a congenital anomaly or birth defect; is another medically important event',
});

export enum AdverseEventOutcome {
  recovered = 'recovered',
  recovering = 'recovering',
  not_recovered = 'not_recovered',
  recovered_with_sequelae = 'recovered_with_sequelae',
  fatal = 'fatal',
  unknown = 'unknown',
}
registerEnumType(AdverseEventOutcome, {
  name: 'AdverseEventOutcome',
  description: 'Outcome of the reaction at the time of the report (ICH E2B)',
});

export enum AdverseEventSeverity {
  mild = 'mild',
  moderate = 'moderate',
  severe = 'severe',
}
registerEnumType(AdverseEventSeverity, {
  name: 'AdverseEventSeverity',
  description: 'Intensity of the reaction; seriousness (ICH E2A) is separate',
});

export enum Causality {
  certain = 'certain',
  probable = 'probable',
  possible = 'possible',
  unlikely = 'unlikely',
  conditional = 'conditional',
  unassessable = 'unassessable',
}
registerEnumType(Causality, { name: 'Causality', description: 'WHO-UMC causality categories' });

export enum ActionTaken {
  drug_withdrawn = 'drug_withdrawn',
  dose_reduced = 'dose_reduced',
  dose_increased = 'dose_increased',
  dose_not_changed = 'dose_not_changed',
  not_applicable = 'not_applicable',
  unknown = 'unknown',
}
registerEnumType(ActionTaken, { name: 'ActionTaken', description: 'What was done with the suspected drug (ICH E2B)' });

/** A suspected adverse drug reaction reported for a patient (pharmacovigilance). */
@ObjectType('AdverseEvent', { description: 'A suspected adverse drug reaction, with its seriousness per ICH E2A' })
@Entity({ tableName: 'adverse_events' })
@Index({ properties: ['patientId', 'createdAt'] })
export class AdverseEvent extends PatientRecord {
  @Field({ description: 'The suspected drug as reported' })
  @Property({ type: 'text' })
  suspectedDrug!: string;

  @Field(() => String, { nullable: true, description: 'Its RxNorm code, when given' })
  @Property({ type: 'text', nullable: true })
  rxcui?: string | null;

  @Field(() => [String], { description: 'The ingredients the suspected drug resolved to (drug vocabulary keys); empty when unrecognised' })
  @Property({ type: 'jsonb' })
  ingredients!: string[];

  @Field({ description: 'The reaction, such as angioedema or Stevens-Johnson syndrome' })
  @Property({ type: 'text' })
  reaction!: string;

  @Field(() => LocalDate, { nullable: true })
  @Property({ type: 'date', nullable: true })
  onsetDate?: string | null;

  @Field(() => [SeriousnessCriterion], { description: 'The ICH E2A criteria met; empty for a non-serious reaction' })
  @Property({ type: 'jsonb' })
  seriousnessCriteria!: SeriousnessCriterion[];

  @Field({ description: 'Whether any seriousness criterion is met (expedited reporting applies)' })
  @Property({ type: 'boolean' })
  serious!: boolean;

  @Field(() => AdverseEventSeverity, { nullable: true, description: 'Intensity of the reaction' })
  @Enum({ items: () => AdverseEventSeverity, nullable: true })
  severity?: AdverseEventSeverity | null;

  @Field(() => AdverseEventOutcome, { description: 'Outcome at the time of the report' })
  @Enum({ items: () => AdverseEventOutcome })
  outcome!: AdverseEventOutcome;

  @Field(() => Causality, { nullable: true, description: 'WHO-UMC causality assessment, when made' })
  @Enum({ items: () => Causality, nullable: true })
  causality?: Causality | null;

  @Field(() => ActionTaken, { nullable: true, description: 'What was done with the suspected drug' })
  @Enum({ items: () => ActionTaken, nullable: true })
  actionTaken?: ActionTaken | null;

  @Field(() => String, { nullable: true, description: 'The course of the reaction, treatment, other drugs taken' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => ID, { description: 'Who reported it (a clinician, or the patient)' })
  @Property({ type: 'uuid' })
  reportedBy!: string;
}

export enum CdsAlertKind {
  critical_card = 'critical_card',
  critical_score = 'critical_score',
}

/**
 * A critical finding raised for a patient (a critical CDS Hooks card, a score past its urgent threshold): kept once
 * per finding (`dedupeKey`), so a repeated hook call or score raises no second event.
 */
@Entity({ tableName: 'cds_alerts' })
@Index({ properties: ['patientId', 'createdAt'] })
export class CdsAlert extends PatientRecord {
  @Enum({ items: () => CdsAlertKind })
  kind!: CdsAlertKind;

  /** What raised it: a CDS service id, or a score (news2, qsofa). */
  @Property({ type: 'text' })
  source!: string;

  /** critical (cards), or the score's risk band. */
  @Property({ type: 'text' })
  level!: string;

  @Property({ type: 'text' })
  summary!: string;

  @Property({ type: 'text', nullable: true })
  detail?: string | null;

  @Unique()
  @Property({ type: 'text' })
  dedupeKey!: string;

  @Property({ type: 'text', nullable: true })
  hookInstance?: string | null;

  @Property({ type: 'uuid', nullable: true })
  raisedBy?: string | null;
}
