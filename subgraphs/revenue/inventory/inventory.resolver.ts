import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds, PageArgs } from '../../../shared/model';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { RevenueOrganization } from '../organization';
import { CatalogService } from './catalog.service';
import { InventoryService } from './inventory.service';
import {
  AdjustStockInput,
  CatalogSyncResult,
  CreatePurchaseOrderInput,
  CreateSupplierInput,
  InventoryItemPage,
  InventoryListArgs,
  InventorySyncResult,
  ProductListArgs,
  ProductPage,
  PurchaseOrderListArgs,
  PurchaseOrderPage,
  ReorderInput,
  ReorderResult,
  StockMovementPage,
  SupplierListArgs,
  SupplierPage,
  SyncCatalogInput,
  SyncInventoryInput,
} from './inventory.types';
import { Product } from './product.entity';
import { PurchaseOrder, PurchaseOrderLine } from './purchase-order.entity';
import { PurchaseOrderService } from './purchase-order.service';
import { InventoryItem } from './stock.entity';
import { Supplier } from './supplier.entity';
import { SupplierService } from './supplier.service';

/** Products and suppliers of the same subgraph, batched per request. */
export const productById = (ctx: SubgraphContext, id: string) => ctx.loader<string, Product>('product', byIds(ctx.em, Product)).load(id);
export const supplierById = (ctx: SubgraphContext, id: string) =>
  ctx.loader<string, Supplier>('supplier', byIds(ctx.em, Supplier)).load(id);

@Resolver(() => Product)
export class ProductResolver {
  private readonly service = new CatalogService();

  @Query(() => ProductPage, {
    description: 'The catalogue (any signed-in caller): search, category, SKU, GTIN, prescription-only, supplier',
  })
  products(@Args() args: ProductListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Product, { nullable: true, description: 'A product by id' })
  product(@Arg('id', () => ID, { description: 'The product id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @RequiresPlatformPermission('marketplace:catalog')
  @Mutation(() => CatalogSyncResult, {
    description: "Upsert a supplier's catalogue by SKU from JSON rows or CSV (platform administrators); answers every row's outcome",
  })
  syncCatalog(@Arg('input', { description: 'The supplier and its rows' }) input: SyncCatalogInput, @Ctx() ctx: SubgraphContext) {
    return this.service.sync(ctx, input);
  }

  @FieldResolver(() => Supplier, { description: 'The supplier whose catalogue lists it' })
  supplier(@Root() product: Product, @Ctx() ctx: SubgraphContext) {
    return supplierById(ctx, product.supplierId);
  }
}

@Resolver(() => Supplier)
export class SupplierResolver {
  private readonly service = new SupplierService();

  @Query(() => SupplierPage, { description: 'The supplier directory (any signed-in caller), by name' })
  suppliers(@Args() args: SupplierListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Supplier, { nullable: true, description: 'A supplier by id' })
  supplier(@Arg('id', () => ID, { description: 'The supplier id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Supplier, { description: 'Add a supplier to the shared directory (platform and facility administrators)' })
  createSupplier(@Arg('input', { description: 'The supplier' }) input: CreateSupplierInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }
}

@Resolver(() => InventoryItem)
export class InventoryItemResolver {
  private readonly service = new InventoryService();

  @Query(() => InventoryItemPage, { description: "A facility's stock, or that of every facility where the caller reads inventory" })
  inventoryItems(@Args() args: InventoryListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => InventoryItemPage, { description: 'Items whose available stock is at or below their reorder level, longest low first' })
  lowStockItems(@Args() args: InventoryListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.lowStock(ctx, args);
  }

  @Mutation(() => InventoryItem, {
    description: 'Adjust on hand by a signed quantity with a reason (inventory writers); more than available is a 409',
  })
  adjustStock(@Arg('input', { description: 'The change' }) input: AdjustStockInput, @Ctx() ctx: SubgraphContext) {
    return this.service.adjust(ctx, input);
  }

  @Mutation(() => InventorySyncResult, {
    description: 'Record a stock count: each counted quantity replaces on hand, the difference goes to the ledger',
  })
  syncInventory(@Arg('input', { description: 'The count' }) input: SyncInventoryInput, @Ctx() ctx: SubgraphContext) {
    return this.service.sync(ctx, input);
  }

  @FieldResolver(() => Product, { description: 'What is stocked' })
  product(@Root() item: InventoryItem, @Ctx() ctx: SubgraphContext) {
    return productById(ctx, item.productId);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The facility holding it' })
  facility(@Root() item: InventoryItem) {
    return ref(item.facilityId);
  }

  @FieldResolver(() => Supplier, { nullable: true, description: 'Whom reorders go to, when set' })
  preferredSupplier(@Root() item: InventoryItem, @Ctx() ctx: SubgraphContext) {
    return item.preferredSupplierId ? supplierById(ctx, item.preferredSupplierId) : null;
  }

  @FieldResolver(() => StockMovementPage, { description: 'The ledger of this item, newest first' })
  movements(@Root() item: InventoryItem, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.movements(ctx, item, args);
  }
}

@Resolver(() => PurchaseOrder)
export class PurchaseOrderResolver {
  private readonly service = new PurchaseOrderService();

  @Query(() => PurchaseOrderPage, {
    description: "A facility's purchase orders, or those of every facility where the caller reads inventory",
  })
  purchaseOrders(@Args() args: PurchaseOrderListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => PurchaseOrder, { nullable: true, description: 'A purchase order by id' })
  purchaseOrder(@Arg('id', () => ID, { description: 'The purchase order id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => PurchaseOrder, { description: 'Draft a purchase order to a supplier (inventory writers of the facility)' })
  createPurchaseOrder(@Arg('input', { description: 'The order' }) input: CreatePurchaseOrderInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Mutation(() => PurchaseOrder, { description: "Approve a draft (the facility's administrators); approving twice is a 409" })
  approvePurchaseOrder(@Arg('id', () => ID, { description: 'The purchase order id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.approve(ctx, id);
  }

  @Mutation(() => PurchaseOrder, { description: "Receive an approved order: its units enter the facility's stock through the ledger" })
  receivePurchaseOrder(@Arg('id', () => ID, { description: 'The purchase order id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.receive(ctx, id);
  }

  @Mutation(() => PurchaseOrder, { description: 'Cancel a draft or approved order' })
  cancelPurchaseOrder(@Arg('id', () => ID, { description: 'The purchase order id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, id);
  }

  @Mutation(() => ReorderResult, {
    description: 'Draft purchase orders for items at or below their reorder level, at most one open order per item (inventory writers)',
  })
  triggerReorder(
    @Arg('input', () => ReorderInput, { nullable: true, description: "One facility, or all of the caller's" })
    input: ReorderInput | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reorder(ctx, input ?? {});
  }

  @FieldResolver(() => [PurchaseOrderLine], { description: 'What is ordered' })
  lines(@Root() po: PurchaseOrder, @Ctx() ctx: SubgraphContext) {
    return this.service.linesOf(ctx, po);
  }

  @FieldResolver(() => Supplier, { description: 'Whom it is placed with' })
  supplier(@Root() po: PurchaseOrder, @Ctx() ctx: SubgraphContext) {
    return supplierById(ctx, po.supplierId);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The facility buying' })
  facility(@Root() po: PurchaseOrder) {
    return ref(po.facilityId);
  }
}

@Resolver(() => PurchaseOrderLine)
export class PurchaseOrderLineResolver {
  @FieldResolver(() => Product, { description: 'The product ordered' })
  product(@Root() line: PurchaseOrderLine, @Ctx() ctx: SubgraphContext) {
    return productById(ctx, line.productId);
  }
}
