import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { enumOf } from '../../../shared/enums';
import { BaseRecord } from '../../../shared/model';

/** Security events the platform records (audit of access to accounts, keys and roles). */
export const SECURITY_EVENT_TYPES = [
  'user_registered',
  'login_succeeded',
  'login_failed',
  'logout',
  'session_refreshed',
  'refresh_token_reused',
  'email_verified',
  'password_reset_requested',
  'password_reset',
  'mfa_enrollment_started',
  'mfa_enabled',
  'mfa_disabled',
  'mfa_challenge_failed',
  'mfa_recovery_code_used',
  'api_key_created',
  'api_key_rotated',
  'api_key_revoked',
  'user_status_changed',
  'organization_status_changed',
  'member_role_changed',
  'member_removed',
  'invitation_sent',
  'invitation_revoked',
  'invitation_accepted',
] as const;
export const SecurityEventType = enumOf(
  SECURITY_EVENT_TYPES,
  'SecurityEventType',
  'What happened to an account: a sign-in, a failure, an MFA, API key, role or invitation change',
);

/** What happened to whose account, done by whom, from where. Append-only. */
@ObjectType('SecurityEvent', { description: 'A security-relevant event on an account (sign-in, failure, MFA change ...)' })
@Entity({ tableName: 'security_events' })
@Index({ properties: ['userId', 'createdAt'] })
export class SecurityEvent extends BaseRecord {
  @Field(() => SecurityEventType, { description: 'login_succeeded, login_failed, mfa_enabled, api_key_created, user_status_changed, ...' })
  @Index()
  @Property({ type: 'text' })
  type!: (typeof SECURITY_EVENT_TYPES)[number];

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
