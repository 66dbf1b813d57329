import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

export enum UserStatus {
  active = 'active',
  suspended = 'suspended',
}
registerEnumType(UserStatus, { name: 'UserStatus', description: 'Whether an account may sign in: active or suspended' });

/** Roles a person may pick when registering. Platform roles are never self-assigned. */
export const REGISTRATION_ROLES = ['PATIENT', 'DOCTOR', 'NURSE', 'PHARMACIST', 'LAB_TECHNICIAN', 'STAFF'] as const;

@ObjectType('User', { description: 'A user account: who signs in, with the profile others may see under the privacy rules' })
@Entity({ tableName: 'users' })
export class User extends BaseRecord {
  @Field(() => String)
  @Property({ type: 'text', unique: true })
  email!: string;

  @Property({ type: 'text', nullable: true, hidden: true, lazy: true })
  passwordHash?: string | null;

  @Field()
  @Property({ type: 'text' })
  firstName!: string;

  @Field()
  @Property({ type: 'text' })
  lastName!: string;

  @Field({ description: 'Role chosen at registration: PATIENT, DOCTOR, NURSE, PHARMACIST, LAB_TECHNICIAN, STAFF' })
  @Property({ type: 'text' })
  registrationRole!: string;

  @Field(() => [String], { description: 'Platform roles such as SUPER:ADMIN and APP:ADMIN' })
  @Property({ type: 'text[]', default: '{}' })
  roles: Opt<string[]> = [];

  @Field(() => UserStatus)
  @Enum({ items: () => UserStatus, default: UserStatus.active })
  @Index()
  status: Opt<UserStatus> = UserStatus.active;

  @Property({ type: 'timestamptz', nullable: true })
  emailVerifiedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastLoginAt?: Date | null;

  @Field({ description: 'Code others give at registration to say this user referred them' })
  @Property({ type: 'text', unique: true })
  referralCode!: string;

  @Field(() => String, { nullable: true, description: 'The user whose referral code was given at registration' })
  @Property({ type: 'uuid', nullable: true })
  referredBy?: string | null;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: false })
  mfaEnabled: Opt<boolean> = false;

  /** TOTP seed, sealed (shared/secrets.ts); set once enrollment is verified. */
  @Property({ type: 'text', nullable: true, hidden: true, lazy: true })
  mfaSecret?: string | null;

  /** Seed awaiting its first correct code. */
  @Property({ type: 'text', nullable: true, hidden: true, lazy: true })
  mfaPendingSecret?: string | null;

  /** The last TOTP time step accepted; a code of that step or earlier is a replay. */
  @Property({ type: 'bigint', nullable: true, hidden: true })
  mfaLastStep?: string | null;
}
