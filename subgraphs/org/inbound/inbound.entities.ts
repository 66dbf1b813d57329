import { Entity, Index, Property, Unique, type Opt } from '@mikro-orm/core';
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

/** Mail the platform sent, and what the provider later said about it. */
@Entity({ tableName: 'sent_mails' })
export class SentMail extends BaseRecord {
  @Property({ type: 'text', unique: true })
  providerMessageId!: string;

  @Index()
  @Property({ type: 'text' })
  toAddress!: string;

  @Property({ type: 'text' })
  template!: string;

  @Property({ type: 'text' })
  status: Opt<string> = 'sent';
}

@Entity({ tableName: 'mail_events' })
@Unique({ properties: ['providerEventId'] })
export class MailEvent extends BaseRecord {
  @Property({ type: 'text' })
  providerEventId!: string;

  @Index()
  @Property({ type: 'uuid', nullable: true })
  sentMailId?: string | null;

  @Property({ type: 'text' })
  providerMessageId!: string;

  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;
}

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
