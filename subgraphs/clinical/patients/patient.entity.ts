import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { Directive, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';

/** Administrative gender (FHIR AdministrativeGender). */
export enum Gender {
  male = 'male',
  female = 'female',
  other = 'other',
  unknown = 'unknown',
}
registerEnumType(Gender, {
  name: 'Gender',
  description: 'Administrative gender, as FHIR AdministrativeGender: male, female, other or unknown',
});

@ObjectType('Patient', { description: "A patient's record: demographics, and the joins to their clinical data" })
@Directive('@key(fields: "id")')
@Entity({ tableName: 'patients' })
@Unique({ properties: ['organizationId', 'mrn'] })
// Search by the start of an MRN or a name, case-insensitive: b-trees on the lower-cased columns with
// text_pattern_ops serve `lower(col) LIKE 'x%'` within one organization. The name indexes hold both names, each
// first in one of them, so a search for two words finds the patients matching both inside the index (the words
// the other name must start with are checked on its entries) instead of reading every namesake of one word; the list of an organization's patients,
// newest first, reads its page from (organization_id, created_at desc, id).
@Index({
  name: 'patients_org_mrn_prefix_index',
  expression: 'create index "patients_org_mrn_prefix_index" on "clinical"."patients" ("organization_id", lower("mrn") text_pattern_ops)',
})
@Index({
  name: 'patients_org_last_first_name_prefix_index',
  expression:
    'create index "patients_org_last_first_name_prefix_index" on "clinical"."patients" ("organization_id", lower("last_name") text_pattern_ops, lower("first_name") text_pattern_ops)',
})
@Index({
  name: 'patients_org_first_last_name_prefix_index',
  expression:
    'create index "patients_org_first_last_name_prefix_index" on "clinical"."patients" ("organization_id", lower("first_name") text_pattern_ops, lower("last_name") text_pattern_ops)',
})
@Index({
  name: 'patients_org_newest_index',
  expression: 'create index "patients_org_newest_index" on "clinical"."patients" ("organization_id", "created_at" desc, "id")',
})
export class Patient extends BaseRecord {
  @Field()
  @Property({ type: 'text' })
  firstName!: string;

  @Field()
  @Property({ type: 'text' })
  lastName!: string;

  @Field(() => LocalDate)
  @Property({ type: 'date' })
  dateOfBirth!: string;

  @Field(() => Gender, { nullable: true })
  @Property({ type: 'text', nullable: true })
  gender?: Gender | null;

  @Field(() => String, { nullable: true, description: 'International format, such as +254712345678' })
  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'Medical record number, unique within the organization' })
  @Property({ type: 'text', nullable: true })
  mrn?: string | null;

  @Field(() => String, { nullable: true, description: 'National identity number, as issued (the master patient index matches on it)' })
  @Property({ type: 'text', nullable: true })
  nationalId?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code of the country that issued nationalId' })
  @Property({ type: 'text', nullable: true })
  nationalIdCountry?: string | null;

  @Field(() => ID, { nullable: true })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The user account this profile belongs to, if any' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  userId?: string | null;

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => Date, { nullable: true, description: 'Set when the personal identifiers were erased on request' })
  @Property({ type: 'timestamptz', nullable: true })
  erasedAt?: Date | null;
}
