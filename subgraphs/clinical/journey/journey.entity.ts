import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { PatientRecord } from '../patient-record';

export enum JourneyEventType {
  visit = 'visit',
  admission = 'admission',
  discharge = 'discharge',
  transfer = 'transfer',
  referral = 'referral',
  procedure = 'procedure',
  diagnosis = 'diagnosis',
  milestone = 'milestone',
  follow_up = 'follow_up',
  note = 'note',
  other = 'other',
}
registerEnumType(JourneyEventType, {
  name: 'JourneyEventType',
  description: 'What kind of moment of care a journey event records',
});
export const JOURNEY_EVENT_TYPES = Object.values(JourneyEventType);

/** A moment of a patient's care recorded for the journey (the other entries come from records, labs, ...). */
@ObjectType('JourneyEvent', { description: "An event recorded on a patient's care journey" })
@Entity({ tableName: 'journey_events' })
@Index({ properties: ['patientId', 'occurredAt'] })
export class JourneyEvent extends PatientRecord {
  @Field(() => JourneyEventType)
  @Property({ type: 'text' })
  type!: JourneyEventType;

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
