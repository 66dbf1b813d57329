import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { PatientRecord } from '../patient-record';

export enum AllergySeverity {
  mild = 'mild',
  moderate = 'moderate',
  severe = 'severe',
}
registerEnumType(AllergySeverity, {
  name: 'AllergySeverity',
  description: 'How bad the reaction is (FHIR reaction severity): mild, moderate or severe',
});

export enum AllergyType {
  allergy = 'allergy',
  intolerance = 'intolerance',
}
registerEnumType(AllergyType, {
  name: 'AllergyType',
  description: 'allergy (an immune reaction) or intolerance (a non-immune one), as FHIR AllergyIntolerance.type',
});

export enum AllergyCategory {
  food = 'food',
  medication = 'medication',
  environment = 'environment',
  biologic = 'biologic',
}
registerEnumType(AllergyCategory, {
  name: 'AllergyCategory',
  description: 'What kind of substance it is (FHIR AllergyIntolerance.category): food, medication, environment or biologic',
});

export enum AllergyCriticality {
  low = 'low',
  high = 'high',
  unable_to_assess = 'unable_to_assess',
}
registerEnumType(AllergyCriticality, {
  name: 'AllergyCriticality',
  description: 'The risk of a life-threatening reaction on another exposure (FHIR): low, high, or unable to assess',
});

/** Clinical status; it may move either way (an allergy can recur), so there is no state machine. */
export enum AllergyStatus {
  active = 'active',
  inactive = 'inactive',
  resolved = 'resolved',
}
registerEnumType(AllergyStatus, {
  name: 'AllergyStatus',
  description: 'Whether an allergy or intolerance still holds (FHIR clinical status): active, inactive or resolved',
});

/** The key that makes two substances the same allergy: case and spacing do not count. */
export const substanceKey = (substance: string) => substance.trim().replace(/\s+/g, ' ').toLowerCase();

/** An allergy or intolerance of a patient (FHIR AllergyIntolerance-like). */
@ObjectType('Allergy', { description: "An allergy or intolerance on a patient's record (FHIR AllergyIntolerance)" })
@Entity({ tableName: 'allergies' })
@Index({ properties: ['patientId', 'createdAt'] })
@Unique({ properties: ['patientId', 'activeSubstanceKey'] })
export class Allergy extends PatientRecord {
  @Field({ description: 'What the patient reacts to, such as penicillin or peanuts' })
  @Property({ type: 'text' })
  substance!: string;

  @Field(() => String, { nullable: true, description: 'What happens, such as hives or anaphylaxis' })
  @Property({ type: 'text', nullable: true })
  reaction?: string | null;

  @Field(() => AllergySeverity, { nullable: true })
  @Property({ type: 'text', nullable: true })
  severity?: AllergySeverity | null;

  @Field(() => AllergyType)
  @Property({ type: 'text' })
  type!: AllergyType;

  @Field(() => AllergyCategory, { nullable: true })
  @Property({ type: 'text', nullable: true })
  category?: AllergyCategory | null;

  @Field(() => AllergyCriticality, { nullable: true })
  @Property({ type: 'text', nullable: true })
  criticality?: AllergyCriticality | null;

  @Field(() => LocalDate, { nullable: true, description: 'When the allergy began' })
  @Property({ type: 'date', nullable: true })
  onsetDate?: string | null;

  @Field(() => AllergyStatus)
  @Enum({ items: () => AllergyStatus })
  status!: AllergyStatus;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { description: 'Who recorded it (a clinician, or the patient)' })
  @Property({ type: 'uuid' })
  recordedBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  /**
   * substanceKey(substance) while active, else null: the unique index then allows one active allergy per substance
   * and patient even under concurrent writes (nulls never collide).
   */
  @Property({ type: 'text', nullable: true })
  activeSubstanceKey?: string | null;
}
