import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { ImagingOrder } from './imaging-order.entity';
import { ImagingOrderService } from './imaging-order.service';
import {
  CancelImagingOrderArgs,
  CreateImagingOrderInput,
  ImagingOrderConnection,
  ImagingOrderListArgs,
  ImagingOrderPage,
  ScheduleImagingOrderArgs,
} from './imaging-order.types';

const IMAGING_ORDER_LIST = patientList('imaging_order', ImagingOrder, { sortColumn: 'created_at' });

/** `patient { imagingOrders }`: the newest imaging orders, batched across patients. */
@Resolver(() => Patient)
export class PatientImagingOrdersResolver {
  @FieldResolver(() => ImagingOrderConnection, {
    nullable: true,
    description: 'Imaging orders, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  imagingOrders(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, IMAGING_ORDER_LIST, patient, args);
  }
}

@Resolver(() => ImagingOrder)
export class ImagingOrderResolver {
  private readonly service = new ImagingOrderService();

  @Mutation(() => ImagingOrder, { description: 'Order an imaging examination for a patient (clinicians of its organization)' })
  createImagingOrder(
    @Arg('input', { description: 'The fields of the new imaging order' }) input: CreateImagingOrderInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => ImagingOrderPage, {
    description: "Imaging orders of one patient, or of the caller's organizations and own profiles; newest first",
  })
  imagingOrders(@Args() args: ImagingOrderListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ImagingOrder, { nullable: true, description: 'An imaging order; NOT_FOUND when missing or not readable' })
  imagingOrder(@Arg('id', () => ID, { description: 'The imaging order' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => ImagingOrder, { description: 'Book (or rebook) the examination of an ordered imaging order' })
  scheduleImagingOrder(@Args() args: ScheduleImagingOrderArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.schedule(ctx, args);
  }

  @Mutation(() => ImagingOrder, { description: 'The examination of a scheduled order begins' })
  startImagingOrder(@Arg('id', () => ID, { description: 'The imaging order' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.start(ctx, id);
  }

  @Mutation(() => ImagingOrder, { description: 'The examination in progress is done' })
  completeImagingOrder(@Arg('id', () => ID, { description: 'The imaging order' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.complete(ctx, id);
  }

  @Mutation(() => ImagingOrder, { description: 'Cancel an imaging order that is ordered or scheduled' })
  cancelImagingOrder(@Args() args: CancelImagingOrderArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, args);
  }
}
