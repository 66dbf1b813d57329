import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { BaseRecord } from '../../../shared/model';

export enum UserTokenPurpose {
  verify_email = 'verify_email',
  reset_password = 'reset_password',
}

/** A single-use secret sent by mail (email verification, password reset). Only its SHA-256 is stored. */
@Entity({ tableName: 'user_tokens' })
export class UserToken extends BaseRecord {
  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Enum({ items: () => UserTokenPurpose })
  purpose!: UserTokenPurpose;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt?: Date | null;
}

/** One of a user's MFA recovery codes, hashed; each works once. */
@Entity({ tableName: 'mfa_recovery_codes' })
export class RecoveryCode extends BaseRecord {
  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text' })
  codeHash!: string;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt?: Date | null;
}

/** An account at an OpenID Connect provider linked to a user (social login). */
@Entity({ tableName: 'user_identities' })
@Unique({ properties: ['provider', 'subject'] })
export class UserIdentity extends BaseRecord {
  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'text' })
  subject!: string;
}
