import { Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../shared/model';

/**
 * A row of a patient's data: whose it is, and the organization it belongs to (null for a patient outside any
 * organization). Access (`access/patient-rows.ts`), audit, the export and the journey all go by these two columns.
 */
@ObjectType()
export abstract class PatientRecord extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, { nullable: true })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;
}
