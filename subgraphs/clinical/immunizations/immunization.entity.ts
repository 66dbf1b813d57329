import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export const INJECTION_SITES = ['left_arm', 'right_arm', 'left_thigh', 'right_thigh'] as const;
export const SITES = [...INJECTION_SITES, 'oral', 'intranasal'] as const;

/** Intensity of an adverse event; seriousness (WHO AEFI: death, life-threatening, hospitalization, ...) is separate. */
export const AEFI_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
/** Outcome categories of the WHO AEFI reporting form. */
export const AEFI_OUTCOMES = ['recovering', 'recovered', 'recovered_with_sequelae', 'not_recovered', 'died', 'unknown'] as const;

/** Why a dose was given against the schedule's rules (stored with the override reason). */
export const DOSE_FLAGS = ['before_minimum_age', 'before_minimum_interval', 'after_latest_age'] as const;

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

  @Field({ description: 'YYYY-MM-DD: the recommended age, or the minimum interval after the previous dose if later' })
  @Property({ type: 'date' })
  dueDate!: string;

  @Field({ description: 'YYYY-MM-DD: earlier than this the dose is too early (minimum age and interval)' })
  @Property({ type: 'date' })
  earliestDate!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: from this date on the dose is no longer given' })
  @Property({ type: 'date', nullable: true })
  latestDate?: string | null;

  @Enum({ items: () => DoseState })
  state: Opt<DoseState> = DoseState.scheduled;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  @Property({ type: 'date', nullable: true })
  administeredOn?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  lotNumber?: string | null;

  @Field(() => String, { nullable: true, description: SITES.join(', ') })
  @Property({ type: 'text', nullable: true })
  site?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who gave (recorded) the dose' })
  @Property({ type: 'uuid', nullable: true })
  administeredBy?: string | null;

  @Field(() => Boolean, { description: 'Given against a schedule rule, with an override reason' })
  @Property({ type: 'boolean', default: false })
  flagged: Opt<boolean> = false;

  @Field(() => [String], { description: DOSE_FLAGS.join(', ') })
  @Property({ type: 'text[]', default: '{}' })
  flags: Opt<string[]> = [];

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

  @Field({ description: 'YYYY-MM-DD' })
  @Property({ type: 'date' })
  onsetDate!: string;

  @Field()
  @Property({ type: 'text' })
  description!: string;

  @Field({ description: AEFI_SEVERITIES.join(', ') })
  @Property({ type: 'text' })
  severity!: string;

  @Field({ description: 'Serious per WHO: death, life-threatening, hospitalization, disability, congenital anomaly' })
  @Property({ type: 'boolean' })
  serious!: boolean;

  @Field(() => String, { nullable: true, description: AEFI_OUTCOMES.join(', ') })
  @Property({ type: 'text', nullable: true })
  outcome?: string | null;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  reportedBy!: string;
}
