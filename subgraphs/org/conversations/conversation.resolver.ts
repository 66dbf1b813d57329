import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PatientRef, ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Conversation, ConversationMessage } from './conversation.entity';
import { ConversationService } from './conversation.service';
import {
  ConversationListArgs,
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
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input') input: CreateConversationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, organizationId, input);
  }

  @Query(() => ConversationPage, { description: "The caller's conversations in the organization, latest activity first" })
  conversations(@Arg('organizationId', () => ID) organizationId: string, @Args() args: ConversationListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, organizationId, args);
  }

  @Query(() => Conversation, { nullable: true, description: 'A conversation the caller takes part in' })
  conversation(@Arg('organizationId', () => ID) organizationId: string, @Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, organizationId, id);
  }

  @Query(() => ConversationMessagePage, { description: 'Messages newest first; reading the first page marks them read' })
  conversationMessages(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('conversationId', () => ID) conversationId: string,
    @Args() args: MessageListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.messages(ctx, organizationId, conversationId, args);
  }

  @Mutation(() => ConversationMessage, { description: 'Send a message to a conversation the caller takes part in' })
  sendMessage(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('conversationId', () => ID) conversationId: string,
    @Arg('input') input: SendMessageInput,
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

  @FieldResolver(() => PatientRef, { nullable: true, description: 'Resolved by the clinical subgraph for callers who may see the patient' })
  patient(@Root() conversation: Conversation) {
    return ref(conversation.patientId);
  }
}

@Resolver(() => ConversationMessage)
export class ConversationMessageResolver {
  @FieldResolver(() => ID)
  conversationId(@Root() message: ConversationMessage) {
    return message.conversation.id;
  }
}
