import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DeadLetterAction, DeadLetterDepth, DeadLetterListArgs, DeadLetterPage } from './dlq.types';
import { DeadLetterService } from './dlq.service';

@Resolver()
export class DeadLetterResolver {
  private readonly dlq = new DeadLetterService();

  @Query(() => DeadLetterPage, { description: 'Events that failed processing, newest first (SUPER:ADMIN, APP:ADMIN)' })
  deadLetters(@Args() args: DeadLetterListArgs, @Ctx() ctx: SubgraphContext) {
    return this.dlq.list(ctx, args);
  }

  @Query(() => DeadLetterDepth, { description: 'How many events wait in the dead letter queue, and since when' })
  deadLetterDepth(@Ctx() ctx: SubgraphContext) {
    return this.dlq.depth(ctx);
  }

  @Mutation(() => DeadLetterAction, { description: 'Put a dead letter back on its queue with fresh attempts' })
  retryDeadLetter(@Arg('id', () => ID, { description: 'The dead letter' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.dlq.retry(ctx, id);
  }

  @Mutation(() => DeadLetterAction, { description: 'Discard a dead letter permanently' })
  discardDeadLetter(@Arg('id', () => ID, { description: 'The dead letter' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.dlq.discard(ctx, id);
  }
}
