import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Directive, Field, ObjectType, registerEnumType } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum UserStatus {
  active = 'active',
  suspended = 'suspended',
}
registerEnumType(UserStatus, { name: 'UserStatus', description: 'Whether an account may sign in: active or suspended' });

export type UserAccountAction = 'activate' | 'suspend';

/** Platform administrators activate or suspend an account; asking for the state it is in changes nothing. */
export const USER_ACCOUNT = stateMachine<UserStatus, UserAccountAction>('user account', {
  activate: { from: [UserStatus.active, UserStatus.suspended], to: UserStatus.active },
  suspend: { from: [UserStatus.active, UserStatus.suspended], to: UserStatus.suspended },
});

/** Roles a person may pick when registering. Platform roles are never self-assigned. */
export const REGISTRATION_ROLES = ['PATIENT', 'DOCTOR', 'NURSE', 'PHARMACIST', 'LAB_TECHNICIAN', 'STAFF'] as const;
/** The roles as GraphQL names them: upper case, as the REST wire has always sent them. */
export const RegistrationRole = enumOf(
  REGISTRATION_ROLES,
  'RegistrationRole',
  'The role a person picks when registering (a DOCTOR gets a doctor profile); platform roles are never self-assigned',
);

/**
 * A person's account. An entity of the graph (`user(id)`, and `prescriber`, `recordedBy` ... in other subgraphs); the
 * account's own settings are shown to the user and platform administrators only (users/user.resolver.ts).
 */
@ObjectType('User', { description: 'A user account: who signs in, with the profile others may see under the privacy rules' })
@Directive('@key(fields: "id")')
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

  @Property({ type: 'text' })
  registrationRole!: string;

  @Property({ type: 'text[]', default: '{}' })
  roles: Opt<string[]> = [];

  @Enum({ items: () => UserStatus, default: UserStatus.active })
  @Index()
  status: Opt<UserStatus> = UserStatus.active;

  @Property({ type: 'timestamptz', nullable: true })
  emailVerifiedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastLoginAt?: Date | null;

  @Property({ type: 'text', unique: true })
  referralCode!: string;

  @Property({ type: 'uuid', nullable: true })
  referredBy?: string | null;

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

/**
 * Users handed to their own owner where the request has no viewer yet (the answer of a sign-in or registration):
 * their account settings are shown as to the user themself.
 */
export const signedInAs = new WeakSet<User>();
