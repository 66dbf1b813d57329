import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/** One step of a protocol: a medication at a dose, how often, for how many days. Steps follow one another in order. */
@ObjectType('TreatmentStep', { description: 'One step of a treatment protocol: a medication, its dose, frequency and duration' })
export class TreatmentStep {
  @Field(() => Int, { description: 'Position, from 1; steps follow one another in this order' })
  order!: number;

  @Field({ description: 'The medication, such as "Artemether-lumefantrine 20/120 mg tablet"' })
  medication!: string;

  @Field({ description: 'How much per dose, such as "4 tablets"' })
  dose!: string;

  @Field(() => String, { nullable: true, description: 'How it is given: oral, intravenous, intramuscular, ...' })
  route?: string | null;

  @Field({ description: 'How often, such as "twice daily"' })
  frequency!: string;

  @Field(() => Int, { description: 'For how many days, 1 to 3650' })
  durationDays!: number;

  @Field(() => String, { nullable: true, description: 'Further instructions, such as "with fatty food"' })
  instructions?: string | null;
}

export enum ProtocolStatus {
  active = 'active',
  retired = 'retired',
}
registerEnumType(ProtocolStatus, {
  name: 'TreatmentProtocolStatus',
  description: 'active (may be assigned), retired (kept for the treatments that use it; no new ones)',
});

/** revise: a change makes a new version. retire: no new patient is put on it; its treatments keep it. */
export const PROTOCOL = stateMachine<ProtocolStatus, 'revise' | 'retire'>('treatment protocol', {
  revise: { from: [ProtocolStatus.active], to: ProtocolStatus.active },
  retire: { from: [ProtocolStatus.active], to: ProtocolStatus.retired },
});

/** The fields every version of a protocol carries. */
@ObjectType()
export abstract class ProtocolContent extends BaseRecord {
  @Field({ description: 'Name, such as "Uncomplicated malaria, adults"' })
  @Property({ type: 'text' })
  name!: string;

  @Field({ description: 'The condition it treats' })
  @Property({ type: 'text' })
  condition!: string;

  @Field({ description: 'ICD-10 code of the condition, such as B50.9' })
  @Property({ type: 'text', fieldName: 'icd10_code' })
  icd10Code!: string;

  @Field(() => String, { nullable: true, description: 'What it is for, when to use it' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => Int, { description: 'Starts at 1; each change adds one' })
  @Property({ type: 'integer' })
  version!: number;

  @Field(() => [TreatmentStep], { description: 'The steps, in order' })
  @Property({ type: 'jsonb' })
  steps!: TreatmentStep[];
}

/**
 * A treatment protocol of an organization (or of the whole platform, written by its administrators): steps of
 * medications, doses and durations for a condition. Changes make a new version; each version is kept, and a
 * patient's treatment follows the version it was assigned.
 */
@ObjectType('TreatmentProtocol', { description: 'A treatment protocol: medications, doses and durations for a condition, versioned' })
@Entity({ tableName: 'treatment_protocols' })
@Index({ properties: ['organizationId', 'status'] })
export class TreatmentProtocol extends ProtocolContent {
  @Field(() => ID, { nullable: true, description: 'The organization it belongs to; null for a protocol of the whole platform' })
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ProtocolStatus, { description: 'active or retired' })
  @Enum({ items: () => ProtocolStatus })
  status: Opt<ProtocolStatus> = ProtocolStatus.active;

  @Field(() => ID, { description: 'Who wrote it' })
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => ID, { nullable: true, description: 'Who changed it last' })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was retired' })
  @Property({ type: 'timestamptz', nullable: true })
  retiredAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who retired it' })
  @Property({ type: 'uuid', nullable: true })
  retiredBy?: string | null;
}

/** A protocol as it was at one version (the current one included), kept for the treatments that follow it. */
@ObjectType('TreatmentProtocolVersion', { description: 'A treatment protocol as it was at one version' })
@Entity({ tableName: 'treatment_protocol_versions' })
@Unique({ properties: ['protocolId', 'version'] })
export class TreatmentProtocolVersion extends ProtocolContent {
  @Field(() => ID, { description: 'The protocol' })
  @Property({ type: 'uuid' })
  protocolId!: string;

  @Field(() => ID, { description: 'Who wrote this version' })
  @Property({ type: 'uuid' })
  changedBy!: string;
}

export enum PatientTreatmentStatus {
  active = 'active',
  completed = 'completed',
  discontinued = 'discontinued',
}
registerEnumType(PatientTreatmentStatus, {
  name: 'PatientTreatmentStatus',
  description: 'active, completed, or discontinued (with a reason)',
});

/**
 * record_progress: the step reached and a note, while active. complete: the course is finished. discontinue: it is
 * stopped early, with a reason. Completed and discontinued treatments are final.
 */
export const PATIENT_TREATMENT = stateMachine<PatientTreatmentStatus, 'record_progress' | 'complete' | 'discontinue'>('patient treatment', {
  record_progress: { from: [PatientTreatmentStatus.active], to: PatientTreatmentStatus.active },
  complete: { from: [PatientTreatmentStatus.active], to: PatientTreatmentStatus.completed },
  discontinue: { from: [PatientTreatmentStatus.active], to: PatientTreatmentStatus.discontinued },
});

/** A patient put on a protocol (at the version current then) by a prescriber, and how far they are. */
@ObjectType('PatientTreatment', { description: 'A patient on a treatment protocol, its progress and status' })
@Entity({ tableName: 'patient_treatments' })
@Index({ properties: ['patientId', 'startDate'] })
@Index({ properties: ['protocolId', 'status'] })
export class PatientTreatment extends PatientRecord {
  @Field(() => ID, { description: 'The protocol' })
  @Property({ type: 'uuid' })
  protocolId!: string;

  @Field(() => Int, { description: 'The version of the protocol followed (the one current at assignment)' })
  @Property({ type: 'integer' })
  protocolVersion!: number;

  @Field({ description: "The protocol's name at that version" })
  @Property({ type: 'text' })
  protocolName!: string;

  @Field(() => LocalDate, { description: 'First day of treatment' })
  @Property({ type: 'date' })
  startDate!: string;

  @Field(() => ID, { description: 'The doctor who prescribed it' })
  @Property({ type: 'uuid' })
  prescriberId!: string;

  @Field(() => PatientTreatmentStatus, { description: 'active, completed or discontinued' })
  @Enum({ items: () => PatientTreatmentStatus })
  status: Opt<PatientTreatmentStatus> = PatientTreatmentStatus.active;

  @Field(() => Int, { nullable: true, description: 'The step of the protocol reached, from 1' })
  @Property({ type: 'integer', nullable: true })
  currentStep?: number | null;

  @Field(() => String, { nullable: true, description: 'The latest progress note' })
  @Property({ type: 'text', nullable: true })
  progressNote?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'Last day of treatment, once completed or discontinued' })
  @Property({ type: 'date', nullable: true })
  endDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Why it was discontinued' })
  @Property({ type: 'text', nullable: true })
  discontinuationReason?: string | null;

  @Field(() => String, { nullable: true, description: 'Notes given at assignment' })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { description: 'Who assigned it' })
  @Property({ type: 'uuid' })
  assignedBy!: string;

  @Field(() => ID, { nullable: true, description: 'Who changed it last' })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was completed or discontinued' })
  @Property({ type: 'timestamptz', nullable: true })
  closedAt?: Date | null;
}
