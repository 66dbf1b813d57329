import { Entity, Index, Property } from '@mikro-orm/core';
import { BaseRecord } from '../../../shared/model';

/** Someone who reached out through an external form. */
@Entity({ tableName: 'leads' })
export class Lead extends BaseRecord {
  @Property({ type: 'text', unique: true })
  externalId!: string;

  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'text', nullable: true })
  name?: string | null;

  @Index()
  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  organizationName?: string | null;

  @Property({ type: 'text', nullable: true })
  message?: string | null;

  @Property({ type: 'jsonb' })
  fields: Record<string, unknown> = {};
}
