import { Entity, Index, Property } from '@mikro-orm/core';
import { BaseRecord } from '../../../shared/model';

/**
 * A signed-in session. Access and refresh tokens name it (`sid`); revoking it rejects both at once.
 */
@Entity({ tableName: 'sessions' })
export class Session extends BaseRecord {
  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  /** The id (`jti`) of the only refresh token of this session that may still be used. */
  @Property({ type: 'uuid' })
  refreshTokenId!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  ip?: string | null;
}
