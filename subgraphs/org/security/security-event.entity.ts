import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { BaseRecord } from '../../../shared/model';

/** What happened to whose account, done by whom, from where. Append-only. */
@ObjectType('SecurityEvent', { description: 'A security-relevant event on an account (sign-in, failure, MFA change ...)' })
@Entity({ tableName: 'security_events' })
@Index({ properties: ['userId', 'createdAt'] })
export class SecurityEvent extends BaseRecord {
  @Field({ description: 'login_succeeded, login_failed, mfa_enabled, api_key_created, user_status_changed, ...' })
  @Index()
  @Property({ type: 'text' })
  type!: string;

  @Field(() => ID, { nullable: true, description: 'Who acted (null when anonymous)' })
  @Property({ type: 'uuid', nullable: true })
  actorId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Whose account it concerns' })
  @Property({ type: 'uuid', nullable: true })
  userId?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  ip?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  userAgent?: string | null;

  @Field(() => GraphQLJSONObject)
  @Property({ type: 'jsonb' })
  details: Record<string, unknown> = {};
}
