import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import { ref } from '../../../shared/refs';
import { OrgPatient } from '../patient';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Conversation, ConversationMessage } from './conversation.entity';
import { ConversationService } from './conversation.service';
import {
  ConversationListArgs,
  ConversationMessageConnection,
  ConversationMessagePage,
  ConversationPage,
  CreateConversationInput,
  MessageListArgs,
  SendMessageInput,
} from './conversation.types';

@Resolver(() => Conversation)
export class ConversationResolver {
  private readonly service = new ConversationService();

  @Mutation(() => Conversation, { description: 'Start a conversation with other members of the organization' })
  createConversation(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'The fields of the new conversation' }) input: CreateConversationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, organizationId, input);
  }

  @Query(() => ConversationPage, { description: "The caller's conversations in the organization, latest activity first" })
  conversations(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: ConversationListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.list(ctx, organizationId, args);
  }

  @Query(() => Conversation, { nullable: true, description: 'A conversation the caller takes part in' })
  conversation(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The conversation' }) id: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.get(ctx, organizationId, id);
  }

  @Query(() => ConversationMessagePage, { description: 'Messages newest first; reading the first page marks them read' })
  conversationMessages(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('conversationId', () => ID, { description: 'The conversation' }) conversationId: string,
    @Args() args: MessageListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.messages(ctx, organizationId, conversationId, args);
  }

  @Mutation(() => ConversationMessage, { description: 'Send a message to a conversation the caller takes part in' })
  sendMessage(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('conversationId', () => ID, { description: 'The conversation' }) conversationId: string,
    @Arg('input', { description: 'The message' }) input: SendMessageInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.send(ctx, organizationId, conversationId, input);
  }

  @FieldResolver(() => [ID], { description: 'User ids taking part, the creator first' })
  participantIds(@Root() conversation: Conversation, @Ctx() ctx: SubgraphContext) {
    return this.service.participantIds(ctx, conversation);
  }

  @FieldResolver(() => Int, { description: 'Messages of others the caller has not read yet' })
  unreadCount(@Root() conversation: Conversation, @Ctx() ctx: SubgraphContext) {
    return this.service.unreadCount(ctx, conversation);
  }

  @FieldResolver(() => ConversationMessageConnection, {
    description: 'Messages newest first, by cursor (`first`/`after` goes back in time); reading the newest page marks them read',
  })
  messages(@Root() conversation: Conversation, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.messageConnection(ctx, conversation, args);
  }

  @FieldResolver(() => OrgPatient, { nullable: true, description: 'Resolved by the clinical subgraph for callers who may see the patient' })
  patient(@Root() conversation: Conversation) {
    return ref(conversation.patientId);
  }
}

@Resolver(() => ConversationMessage)
export class ConversationMessageResolver {
  private readonly service = new ConversationService();

  @FieldResolver(() => ID)
  conversationId(@Root() message: ConversationMessage) {
    return message.conversation.id;
  }

  @FieldResolver(() => Conversation, {
    nullable: true,
    description: 'The conversation it was sent in; null when the caller may not read it (the rule of conversation(id))',
  })
  conversation(@Root() message: ConversationMessage, @Ctx() ctx: SubgraphContext) {
    return this.service.visible(ctx, message.conversation.id);
  }
}
