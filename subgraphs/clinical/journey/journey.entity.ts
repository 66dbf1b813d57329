import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { PatientRecord } from '../patient-record';

export const JOURNEY_EVENT_TYPES = [
  'visit',
  'admission',
  'discharge',
  'transfer',
  'referral',
  'procedure',
  'diagnosis',
  'milestone',
  'follow_up',
  'note',
  'other',
] as const;

/** A moment of a patient's care recorded for the journey (the other entries come from records, labs, ...). */
@ObjectType('JourneyEvent', { description: "An event recorded on a patient's care journey" })
@Entity({ tableName: 'journey_events' })
@Index({ properties: ['patientId', 'occurredAt'] })
export class JourneyEvent extends PatientRecord {
  @Field({ description: JOURNEY_EVENT_TYPES.join(', ') })
  @Property({ type: 'text' })
  type!: string;

  @Field()
  @Property({ type: 'text' })
  title!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field()
  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  recordedBy!: string;
}
