import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

export enum DsrType {
  erasure = 'erasure',
  export = 'export',
}
registerEnumType(DsrType, {
  name: 'DataSubjectRequestType',
  description: 'What a data subject asks for: an export of their data or its erasure',
});

export enum DsrStatus {
  completed = 'completed',
  rejected = 'rejected',
}
registerEnumType(DsrStatus, {
  name: 'DataSubjectRequestStatus',
  description: 'How a data subject request (export or erasure) ended: completed or rejected',
});

/** A data subject request (GDPR Art. 17 erasure, Art. 20 portability) and what was done about it. */
@ObjectType('DataSubjectRequest', { description: "A patient's data subject request (GDPR): an export or an erasure, and how it ended" })
@Entity({ tableName: 'data_subject_requests' })
@Index({ properties: ['patientId', 'createdAt'] })
export class DataSubjectRequest extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => DsrType)
  @Enum({ items: () => DsrType })
  type!: DsrType;

  @Field(() => DsrStatus)
  @Enum({ items: () => DsrStatus })
  status!: DsrStatus;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  requestedBy!: string;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Field(() => GraphQLJSONObject, { description: 'What was done' })
  @Property({ type: 'jsonb' })
  outcome: Record<string, unknown> = {};
}
