import { Entity, Index, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { BaseRecord } from '../model';

/** Who read or changed which patient data, when and from where. Append-only. */
@ObjectType('AuditEvent', { description: 'One entry of the audit trail: who did what to which record, when and from where' })
@Entity({ tableName: 'audit_events' })
@Index({ properties: ['resourceType', 'resourceId', 'createdAt'] })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['actorId', 'createdAt'] })
export class AuditEvent extends BaseRecord {
  @Field({ description: 'read, list, create, update, delete, sign, cancel, export, erase, ...' })
  @Property({ type: 'text' })
  action!: string;

  @Field({ description: 'patient, clinical_record, vital, lab_order, ...' })
  @Property({ type: 'text' })
  resourceType!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  resourceId?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The user who acted (for an API key, its creator)' })
  @Property({ type: 'uuid', nullable: true })
  actorId?: string | null;

  @Field({ description: 'user, api_key or system' })
  @Property({ type: 'text' })
  actorType!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  apiKeyId?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  ip?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  userAgent?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  requestId?: string | null;

  @Field(() => GraphQLJSONObject)
  @Property({ type: 'jsonb' })
  details: Record<string, unknown> = {};
}
