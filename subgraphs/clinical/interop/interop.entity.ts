import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { PatientRecord } from '../patient-record';

/**
 * An EHR launch of a SMART app (`/api/smart/launch`): who launched which app for which patient and encounter. The
 * `launch` handle given to the app is signed and short-lived; the authorization server accepts it once, for this app.
 */
@ObjectType('SmartLaunch', { description: 'An EHR launch context of a SMART on FHIR app' })
@Entity({ tableName: 'smart_launches' })
@Index({ properties: ['patientId', 'createdAt'] })
export class SmartLaunch extends PatientRecord {
  @Field({ description: 'The SMART app (its OAuth client id)' })
  @Property({ type: 'text' })
  clientId!: string;

  @Field(() => ID, { nullable: true, description: 'The encounter in context (a clinical record of the patient), if any' })
  @Property({ type: 'uuid', nullable: true })
  encounterId?: string | null;

  @Field(() => ID, { description: 'Who launched it' })
  @Property({ type: 'uuid' })
  launchedBy!: string;

  @Field(() => Date, { description: 'The launch handle must be used (an authorization started) before this' })
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
