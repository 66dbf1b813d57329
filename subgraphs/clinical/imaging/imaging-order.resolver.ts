import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ImagingOrder } from './imaging-order.entity';
import { ImagingOrderService } from './imaging-order.service';
import {
  CancelImagingOrderArgs,
  CreateImagingOrderInput,
  ImagingOrderListArgs,
  ImagingOrderPage,
  ScheduleImagingOrderArgs,
} from './imaging-order.types';

@Resolver(() => ImagingOrder)
export class ImagingOrderResolver {
  private readonly service = new ImagingOrderService();

  @Mutation(() => ImagingOrder, { description: 'Order an imaging examination for a patient (clinicians of its organization)' })
  createImagingOrder(@Arg('input') input: CreateImagingOrderInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => ImagingOrderPage, {
    description: "Imaging orders of one patient, or of the caller's organizations and own profiles; newest first",
  })
  imagingOrders(@Args() args: ImagingOrderListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ImagingOrder, { nullable: true })
  imagingOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => ImagingOrder, { description: 'Book (or rebook) the examination of an ordered imaging order' })
  scheduleImagingOrder(@Args() args: ScheduleImagingOrderArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.schedule(ctx, args);
  }

  @Mutation(() => ImagingOrder, { description: 'The examination of a scheduled order begins' })
  startImagingOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.start(ctx, id);
  }

  @Mutation(() => ImagingOrder, { description: 'The examination in progress is done' })
  completeImagingOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.complete(ctx, id);
  }

  @Mutation(() => ImagingOrder, { description: 'Cancel an imaging order that is ordered or scheduled' })
  cancelImagingOrder(@Args() args: CancelImagingOrderArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, args);
  }
}
