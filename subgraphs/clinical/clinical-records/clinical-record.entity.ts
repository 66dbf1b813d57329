import { Entity, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { PatientRecord } from '../patient-record';

export enum EncounterType {
  consultation = 'consultation',
  follow_up = 'follow_up',
  emergency = 'emergency',
  admission = 'admission',
  discharge = 'discharge',
  telemedicine = 'telemedicine',
  procedure = 'procedure',
  home_visit = 'home_visit',
  other = 'other',
}
registerEnumType(EncounterType, {
  name: 'EncounterType',
  description: 'The kind of encounter a clinical record notes',
});

/** A note of an encounter with a patient. Never hard-deleted: deletion is recorded, and every change is a version. */
@ObjectType('ClinicalRecord', { description: 'A clinical record of an encounter (complaint, findings, notes), kept with every version' })
@Entity({ tableName: 'clinical_records' })
@Index({ properties: ['patientId', 'createdAt'] })
export class ClinicalRecord extends PatientRecord {
  @Field(() => EncounterType)
  @Property({ type: 'text' })
  encounterType!: EncounterType;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  chiefComplaint?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => Int, { description: 'Starts at 1; every change adds one' })
  @Property({ type: 'integer' })
  version: Opt<number> = 1;

  @Field(() => ID, { description: 'Who wrote it' })
  @Index()
  @Property({ type: 'uuid' })
  authorId!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;
}

/** One version of a clinical record, as it was after a change. */
@ObjectType('ClinicalRecordVersion', { description: 'One version of a clinical record: its snapshot, the change and who made it' })
@Entity({ tableName: 'clinical_record_versions' })
@Unique({ properties: ['recordId', 'version'] })
export class ClinicalRecordVersion extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  recordId!: string;

  @Index()
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  version!: number;

  @Field({ description: 'create, update or delete' })
  @Property({ type: 'text' })
  change!: string;

  @Field(() => GraphQLJSONObject, { description: 'The record after the change' })
  @Property({ type: 'jsonb' })
  snapshot!: Record<string, unknown>;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  changedBy!: string;
}
