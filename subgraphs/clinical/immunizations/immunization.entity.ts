import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum ImmunizationSite {
  left_arm = 'left_arm',
  right_arm = 'right_arm',
  left_thigh = 'left_thigh',
  right_thigh = 'right_thigh',
  oral = 'oral',
  intranasal = 'intranasal',
}
registerEnumType(ImmunizationSite, {
  name: 'ImmunizationSite',
  description: 'Where a dose was given: an injection site (left_arm, right_arm, left_thigh, right_thigh), oral or intranasal',
});
export const INJECTION_SITES = [
  ImmunizationSite.left_arm,
  ImmunizationSite.right_arm,
  ImmunizationSite.left_thigh,
  ImmunizationSite.right_thigh,
] as const;

/** Intensity of an adverse event; seriousness (WHO AEFI: death, life-threatening, hospitalization, ...) is separate. */
export enum ImmunizationAdverseEventSeverity {
  mild = 'mild',
  moderate = 'moderate',
  severe = 'severe',
}
registerEnumType(ImmunizationAdverseEventSeverity, {
  name: 'ImmunizationAdverseEventSeverity',
  description: 'Intensity of an adverse event following immunization: mild, moderate or severe (seriousness is separate)',
});
/** Outcome categories of the WHO AEFI reporting form. */
export enum ImmunizationAdverseEventOutcome {
  recovering = 'recovering',
  recovered = 'recovered',
  recovered_with_sequelae = 'recovered_with_sequelae',
  not_recovered = 'not_recovered',
  died = 'died',
  unknown = 'unknown',
}
registerEnumType(ImmunizationAdverseEventOutcome, {
  name: 'ImmunizationAdverseEventOutcome',
  description: "The patient's outcome after an adverse event following immunization (WHO AEFI reporting form)",
});

/** Why a dose was given against the schedule's rules (stored with the override reason). */
export enum DoseFlag {
  before_minimum_age = 'before_minimum_age',
  before_minimum_interval = 'before_minimum_interval',
  after_latest_age = 'after_latest_age',
}
registerEnumType(DoseFlag, {
  name: 'DoseFlag',
  description: 'Why a dose was given against the schedule: before the minimum age, before the minimum interval, or after the latest age',
});
export const DOSE_FLAGS = Object.values(DoseFlag);

/** What is stored about a dose; the status a client sees is worked out from it and today's date. */
export enum DoseState {
  scheduled = 'scheduled',
  administered = 'administered',
}

/** A dose is given once; a second record of the same dose is a 409. */
export const VACCINE_DOSE = stateMachine<DoseState, 'administer'>('vaccine dose', {
  administer: { from: [DoseState.scheduled], to: DoseState.administered },
});

/** A dose's status relative to today. */
export enum ImmunizationStatus {
  due = 'due',
  overdue = 'overdue',
  missed = 'missed',
  administered = 'administered',
  not_applicable = 'not_applicable',
}
registerEnumType(ImmunizationStatus, {
  name: 'ImmunizationStatus',
  description: 'due: not yet past its due date; overdue: past it by up to 28 days; missed: by more; not_applicable: past its latest age',
});

/** One dose of a patient's schedule: planned from the WHO schedule, then given. */
@ObjectType('Immunization', { description: 'A vaccine dose given to a patient' })
@Entity({ tableName: 'immunizations' })
@Unique({ properties: ['patientId', 'vaccine', 'doseNumber'] })
export class Immunization extends PatientRecord {
  @Field({ description: 'Vaccine code of the WHO schedule data (bcg, opv, dtp_hib_hepb, ...)' })
  @Property({ type: 'text' })
  vaccine!: string;

  @Field(() => Int, { description: 'From 1, within the vaccine' })
  @Property({ type: 'integer' })
  doseNumber!: number;

  @Field(() => LocalDate, { description: 'The recommended age, or the minimum interval after the previous dose if later' })
  @Property({ type: 'date' })
  dueDate!: string;

  @Field(() => LocalDate, { description: 'Earlier than this the dose is too early (minimum age and interval)' })
  @Property({ type: 'date' })
  earliestDate!: string;

  @Field(() => LocalDate, { nullable: true, description: 'From this date on the dose is no longer given' })
  @Property({ type: 'date', nullable: true })
  latestDate?: string | null;

  @Enum({ items: () => DoseState })
  state: Opt<DoseState> = DoseState.scheduled;

  @Field(() => LocalDate, { nullable: true })
  @Property({ type: 'date', nullable: true })
  administeredOn?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  lotNumber?: string | null;

  @Field(() => ImmunizationSite, { nullable: true })
  @Property({ type: 'text', nullable: true })
  site?: ImmunizationSite | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who gave (recorded) the dose' })
  @Property({ type: 'uuid', nullable: true })
  administeredBy?: string | null;

  @Field(() => Boolean, { description: 'Given against a schedule rule, with an override reason' })
  @Property({ type: 'boolean', default: false })
  flagged: Opt<boolean> = false;

  @Field(() => [DoseFlag])
  @Property({ type: 'text[]', default: '{}' })
  flags: Opt<DoseFlag[]> = [];

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  overrideReason?: string | null;
}

/** An adverse event following immunization (AEFI), reported against a dose or a vaccine. */
@ObjectType('ImmunizationAdverseEvent', { description: 'An adverse event following an immunization' })
@Entity({ tableName: 'immunization_adverse_events' })
@Index({ properties: ['patientId', 'onsetDate'] })
export class ImmunizationAdverseEvent extends PatientRecord {
  @Field(() => ID, { nullable: true, description: 'The dose it followed, when known' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  immunizationId?: string | null;

  @Field()
  @Property({ type: 'text' })
  vaccine!: string;

  @Field(() => LocalDate)
  @Property({ type: 'date' })
  onsetDate!: string;

  @Field()
  @Property({ type: 'text' })
  description!: string;

  @Field(() => ImmunizationAdverseEventSeverity)
  @Property({ type: 'text' })
  severity!: ImmunizationAdverseEventSeverity;

  @Field({ description: 'Serious per WHO: death, life-threatening, hospitalization, disability, congenital anomaly' })
  @Property({ type: 'boolean' })
  serious!: boolean;

  @Field(() => ImmunizationAdverseEventOutcome, { nullable: true })
  @Property({ type: 'text', nullable: true })
  outcome?: ImmunizationAdverseEventOutcome | null;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  reportedBy!: string;
}
