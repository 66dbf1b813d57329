import { Entity, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { BaseRecord } from '../../../shared/model';

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

export enum QueuedMailState {
  queued = 'queued',
  sent = 'sent',
}

/**
 * A mail an event asked for, kept under a key of the event (its id and the recipient) so that however often the event
 * is applied, one mail is queued; the sender marks it sent in the transaction that records the send. A mail queued
 * and not yet sent when a process stops is sent once later; only a stop between the provider's acceptance and that
 * commit can send one twice.
 */
@Entity({ tableName: 'queued_mails' })
export class QueuedMail extends BaseRecord {
  @Property({ type: 'text', unique: true })
  key!: string;

  @Property({ type: 'text' })
  toAddress!: string;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'text' })
  template!: string;

  @Property({ type: 'jsonb', nullable: true })
  data?: Record<string, string> | null;

  @Property({ type: 'text' })
  state: Opt<QueuedMailState> = QueuedMailState.queued;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  sentMailId?: string | null;
}
