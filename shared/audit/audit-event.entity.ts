import { Entity, Index, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../model';

/** Who acted: a signed-in user, an API key, the platform itself, or nobody signed in. */
export enum AuditActorType {
  user = 'user',
  api_key = 'api_key',
  system = 'system',
  anonymous = 'anonymous',
}
registerEnumType(AuditActorType, {
  name: 'AuditActorType',
  description: 'Who acted: a signed-in user, an API key, the platform itself (system), or a caller not signed in (anonymous)',
});

/** Who read or changed which patient data, when and from where. Append-only. */
@ObjectType('AuditEvent', { description: 'One entry of the audit trail: who did what to which record, when and from where' })
@Entity({ tableName: 'audit_events' })
@Index({ properties: ['resourceType', 'resourceId', 'createdAt'] })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['actorId', 'createdAt'] })
@Index({ properties: ['patientIds'], type: 'gin' })
@Index({ properties: ['resourceIds'], type: 'gin' })
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

  @Field(() => [String], {
    nullable: true,
    description: 'A list read (action list): the records it showed, in order, one event per request (resourceId is then null)',
  })
  @Property({ type: 'text[]', nullable: true })
  resourceIds?: string[] | null;

  @Field(() => ID, { nullable: true, description: 'The patient; for a list read, set when every record shown is of one patient' })
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => [ID], { nullable: true, description: 'A list read of several patients: each patient whose records it showed' })
  @Property({ type: 'text[]', nullable: true })
  patientIds?: string[] | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The user who acted (for an API key, its creator)' })
  @Property({ type: 'uuid', nullable: true })
  actorId?: string | null;

  @Field(() => AuditActorType)
  @Property({ type: 'text' })
  actorType!: `${AuditActorType}`;

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
