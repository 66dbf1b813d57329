import { ArrayMaxSize } from 'class-validator';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { Conversation, ConversationMessage, MAX_MESSAGE_LENGTH } from './conversation.entity';

export const MAX_PARTICIPANTS = 50;

@InputType({ description: 'The new conversation: its subject and participants' })
export class CreateConversationInput {
  @Field({ nullable: true, description: 'Required, 200 characters at most' })
  @IsText(200)
  subject?: string;

  @Field(() => [ID], { description: 'User ids of members of the organization; the creator takes part anyway' })
  @ArrayMaxSize(MAX_PARTICIPANTS, { message: `must name at most ${MAX_PARTICIPANTS} members` })
  participantIds!: string[];

  @Field(() => ID, { nullable: true, description: 'The patient it is about (context only)' })
  patientId?: string;
}

@InputType({ description: 'The message to send' })
export class SendMessageInput {
  @Field({ nullable: true, description: `1 to ${MAX_MESSAGE_LENGTH} characters, not blank` })
  @IsText(MAX_MESSAGE_LENGTH)
  body?: string;
}

@ArgsType()
export class ConversationListArgs extends PageArgs {}

@ArgsType()
export class MessageListArgs extends PageArgs {}

@ObjectType()
export class ConversationPage extends PageOf(Conversation) {}

@ObjectType()
export class ConversationMessagePage extends PageOf(ConversationMessage) {}

@ObjectType({ description: 'Messages of a conversation, newest first, paged by cursor' })
export class ConversationMessageConnection extends ConnectionOf(ConversationMessage, 'ConversationMessage') {}
