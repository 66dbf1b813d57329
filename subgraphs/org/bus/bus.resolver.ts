import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DeadLetterAction, DeadLetterDepth, DeadLetterListArgs, DeadLetterPage, WebhookDeliveryArgs, WebhookReceipt } from './bus.types';
import { DeadLetterService } from './dead-letter.service';
import { WebhookInboxService } from './webhook-inbox.service';

@Resolver()
export class BusResolver {
  private readonly dlq = new DeadLetterService();
  private readonly inbox = new WebhookInboxService();

  @Query(() => DeadLetterPage, { description: 'Events that failed processing, newest first (SUPER:ADMIN, APP:ADMIN)' })
  deadLetters(@Args() args: DeadLetterListArgs, @Ctx() ctx: SubgraphContext) {
    return this.dlq.list(ctx, args);
  }

  @Query(() => DeadLetterDepth, { description: 'How many events wait in the dead letter queue, and since when' })
  deadLetterDepth(@Ctx() ctx: SubgraphContext) {
    return this.dlq.depth(ctx);
  }

  @Mutation(() => DeadLetterAction, { description: 'Put a dead letter back on its queue with fresh attempts' })
  retryDeadLetter(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.dlq.retry(ctx, id);
  }

  @Mutation(() => DeadLetterAction, { description: 'Discard a dead letter permanently' })
  discardDeadLetter(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.dlq.discard(ctx, id);
  }

  @Mutation(() => WebhookReceipt, { description: 'Internal: stores a verified inbound webhook delivery (the edge only)' })
  recordWebhookDelivery(@Args() args: WebhookDeliveryArgs, @Ctx() ctx: SubgraphContext) {
    return this.inbox.record(ctx, args);
  }
}
