import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DeadLetterAction, DeadLetterDepth, DeadLetterListArgs, DeadLetterPage } from './dlq.types';
import { DeadLetterService } from './dlq.service';

@Resolver()
export class DeadLetterResolver {
  private readonly dlq = new DeadLetterService();

  @RequiresPlatformPermission('admin:dlq')
  @Query(() => DeadLetterPage, { description: 'Events that failed processing, newest first (SUPER:ADMIN, APP:ADMIN)' })
  deadLetters(@Args() args: DeadLetterListArgs, @Ctx() ctx: SubgraphContext) {
    return this.dlq.list(ctx, args);
  }

  @RequiresPlatformPermission('admin:dlq')
  @Query(() => DeadLetterDepth, { description: 'How many events wait in the dead letter queue, and since when' })
  deadLetterDepth(@Ctx() ctx: SubgraphContext) {
    return this.dlq.depth(ctx);
  }

  @RequiresPlatformPermission('admin:dlq')
  @Mutation(() => DeadLetterAction, { description: 'Put a dead letter back on its queue with fresh attempts' })
  retryDeadLetter(@Arg('id', () => ID, { description: 'The dead letter' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.dlq.retry(ctx, id);
  }

  @RequiresPlatformPermission('admin:dlq')
  @Mutation(() => DeadLetterAction, { description: 'Discard a dead letter permanently' })
  discardDeadLetter(@Arg('id', () => ID, { description: 'The dead letter' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.dlq.discard(ctx, id);
  }
}
