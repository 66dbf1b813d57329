import { Collection, Entity, Index, ManyToOne, OneToMany, Property, Unique, type Opt, type Ref } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

export const MAX_MESSAGE_LENGTH = 5000;

/** A conversation between members of an organization; only its participants see it. */
@ObjectType('Conversation', { description: 'A conversation between members of an organization (and patients)' })
@Entity({ tableName: 'conversations' })
@Index({ properties: ['organizationId', 'lastActivityAt'] })
export class Conversation extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field()
  @Property({ type: 'text' })
  subject!: string;

  @Field(() => ID, { nullable: true, description: 'The patient it is about, if any (context only)' })
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => Date, { nullable: true, description: 'When the latest message was sent; null before the first' })
  @Property({ type: 'timestamptz', nullable: true })
  lastMessageAt?: Date | null;

  /** The latest message, or the creation while there is none: lists are ordered by it, newest first. */
  @Field(() => Date, { description: 'The latest message, or the creation while there is none' })
  @Property({ type: 'timestamptz' })
  lastActivityAt!: Date;

  @OneToMany(() => ConversationParticipant, (p) => p.conversation)
  participants = new Collection<ConversationParticipant>(this);
}

/** A member taking part in a conversation, and how far they have read it. */
@Entity({ tableName: 'conversation_participants' })
@Unique({ properties: ['conversation', 'userId'] })
export class ConversationParticipant extends BaseRecord {
  @ManyToOne(() => Conversation, { ref: true, deleteRule: 'cascade' })
  conversation!: Ref<Conversation>;

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  /** The newest message they have seen (listed or sent); later messages of others are unread. */
  @Property({ type: 'timestamptz', nullable: true })
  lastReadAt?: Opt<Date> | null;
}

@ObjectType('ConversationMessage', { description: 'One message of a conversation' })
@Entity({ tableName: 'conversation_messages' })
@Index({ properties: ['conversation', 'createdAt'] })
export class ConversationMessage extends BaseRecord {
  @ManyToOne(() => Conversation, { ref: true, deleteRule: 'cascade' })
  conversation!: Ref<Conversation>;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  senderId!: string;

  @Field({ description: `1 to ${MAX_MESSAGE_LENGTH} characters` })
  @Property({ type: 'text' })
  body!: string;
}
