import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { PatientRecord } from '../patient-record';

export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export const ALLERGY_TYPES = ['allergy', 'intolerance'] as const;
export const ALLERGY_CATEGORIES = ['food', 'medication', 'environment', 'biologic'] as const;
export const ALLERGY_CRITICALITIES = ['low', 'high', 'unable_to_assess'] as const;

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

  @Field(() => String, { nullable: true, description: ALLERGY_SEVERITIES.join(', ') })
  @Property({ type: 'text', nullable: true })
  severity?: string | null;

  @Field({ description: ALLERGY_TYPES.join(', ') })
  @Property({ type: 'text' })
  type!: string;

  @Field(() => String, { nullable: true, description: ALLERGY_CATEGORIES.join(', ') })
  @Property({ type: 'text', nullable: true })
  category?: string | null;

  @Field(() => String, { nullable: true, description: ALLERGY_CRITICALITIES.join(', ') })
  @Property({ type: 'text', nullable: true })
  criticality?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
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
