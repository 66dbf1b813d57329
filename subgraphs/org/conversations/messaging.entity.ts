import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { BaseRecord } from '../../../shared/model';

/** A message a patient sent through the messaging provider. */
@Entity({ tableName: 'messaging_messages' })
export class MessagingMessage extends BaseRecord {
  @Property({ type: 'text', unique: true })
  providerMessageId!: string;

  @Index()
  @Property({ type: 'text' })
  fromPhone!: string;

  @Property({ type: 'text', nullable: true })
  toPhone?: string | null;

  @Property({ type: 'text' })
  kind!: string;

  @Property({ type: 'text', nullable: true })
  body?: string | null;

  @Property({ type: 'timestamptz' })
  sentAt!: Date;
}

/** A delivery or read receipt for a message the platform sent. */
@Entity({ tableName: 'messaging_receipts' })
@Unique({ properties: ['providerMessageId', 'status'] })
export class MessagingReceipt extends BaseRecord {
  @Index()
  @Property({ type: 'text' })
  providerMessageId!: string;

  @Property({ type: 'text' })
  status!: string;

  @Property({ type: 'text', nullable: true })
  recipient?: string | null;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;
}
