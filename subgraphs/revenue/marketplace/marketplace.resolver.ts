import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { productById } from '../inventory/inventory.resolver';
import { Product } from '../inventory/product.entity';
import { BilledPatient } from '../invoices/patient-invoices.resolver';
import { RevenueOrganization } from '../organization';
import {
  CancelSupplyOrderArgs,
  CheckoutInput,
  CheckoutResult,
  CreateSupplyOrderInput,
  EmergencyRoutingInput,
  EmergencyRoutingResult,
  SupplyOrderListArgs,
  SupplyOrderPage,
  VerifySupplyOrderInput,
} from './marketplace.types';
import { SupplyOrder, SupplyOrderItem } from './order.entity';
import { SupplyOrderService } from './order.service';
import { EmergencyRoutingService } from './routing.service';

const ORDER_ID = { description: 'The order id' };

@Resolver(() => SupplyOrder)
export class SupplyOrderResolver {
  private readonly service = new SupplyOrderService();

  @Mutation(() => SupplyOrder, {
    description: 'Order from one facility (any signed-in person); its units are reserved at once, 409 when short',
  })
  createSupplyOrder(@Arg('input', { description: 'The order' }) input: CreateSupplyOrderInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Mutation(() => CheckoutResult, { description: 'Turn a cart into an order and, when asked, request its mobile money payment' })
  checkoutCart(@Arg('input', { description: 'The cart' }) input: CheckoutInput, @Ctx() ctx: SubgraphContext) {
    return this.service.checkout(ctx, input);
  }

  @Query(() => SupplyOrderPage, {
    description: "The caller's orders (placed by them or for their patient profile), or a facility's (its staff)",
  })
  supplyOrders(@Args() args: SupplyOrderListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => SupplyOrder, { nullable: true, description: "An order: for its customer, its patient and the facility's staff" })
  supplyOrder(@Arg('id', () => ID, ORDER_ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => SupplyOrder, { description: 'Cancel a pending or verified order (its customer or the facility); its units are released' })
  cancelSupplyOrder(@Args() args: CancelSupplyOrderArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, args);
  }

  @Mutation(() => SupplyOrder, {
    description:
      'A pharmacist of the facility checks the order; prescription-only items need a valid e-prescription of the patient (409 without)',
  })
  verifySupplyOrder(
    @Arg('id', () => ID, ORDER_ID) id: string,
    @Arg('input', () => VerifySupplyOrderInput, { nullable: true, description: 'The e-prescriptions checked' })
    input: VerifySupplyOrderInput | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.verify(ctx, id, input ?? {});
  }

  @Mutation(() => SupplyOrder, {
    description: 'Record a payment taken at the counter (facility staff); mobile money payments arrive by themselves',
  })
  paySupplyOrder(@Arg('id', () => ID, ORDER_ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.pay(ctx, id);
  }

  @Mutation(() => SupplyOrder, { description: 'Mark a paid order packed (facility staff)' })
  packSupplyOrder(@Arg('id', () => ID, ORDER_ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.pack(ctx, id);
  }

  @Mutation(() => SupplyOrder, { description: 'Mark a packed order dispatched (facility staff)' })
  dispatchSupplyOrder(@Arg('id', () => ID, ORDER_ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.dispatch(ctx, id);
  }

  @Mutation(() => SupplyOrder, {
    description: 'Mark a dispatched (or packed, collected) order delivered (facility staff); its units leave the stock',
  })
  deliverSupplyOrder(@Arg('id', () => ID, ORDER_ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.deliver(ctx, id);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The facility selling' })
  facility(@Root() order: SupplyOrder) {
    return ref(order.facilityId);
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: 'The patient it is for' })
  patient(@Root() order: SupplyOrder) {
    return ref(order.patientId);
  }
}

@Resolver(() => SupplyOrderItem)
export class SupplyOrderItemResolver {
  @FieldResolver(() => Product, { nullable: true, description: 'The product as the catalogue has it now' })
  product(@Root() item: SupplyOrderItem, @Ctx() ctx: SubgraphContext) {
    return productById(ctx, item.productId);
  }
}

@Resolver(() => EmergencyRoutingResult)
export class EmergencyRoutingResolver {
  private readonly service = new EmergencyRoutingService();

  @Query(() => EmergencyRoutingResult, {
    description:
      "Facilities and suppliers holding enough stock near a place, nearest first, the caller's own facilities left out (facility staff)",
  })
  emergencySupplyRouting(
    @Arg('input', { description: 'What, how many, where' }) input: EmergencyRoutingInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.route(ctx, input);
  }
}
