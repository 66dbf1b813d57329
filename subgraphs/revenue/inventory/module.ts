import { defineModule } from '../../../shared/module';
import { holdsOrgPermission } from '../../../shared/permissions';
import { idLinkFields, readableById, ref, referenceFields } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { RevenueOrganization } from '../organization';
import { STOCK_LOW } from './inventory.events';
import { REORDER_JOB } from './inventory.jobs';
import {
  InventoryItemResolver,
  ProductResolver,
  PurchaseOrderLineResolver,
  PurchaseOrderResolver,
  SupplierResolver,
} from './inventory.resolver';
import { Product } from './product.entity';
import { PurchaseOrder, PurchaseOrderLine } from './purchase-order.entity';
import { InventoryItem, StockMovement } from './stock.entity';
import { Supplier } from './supplier.entity';

/** A record of a facility's stock, for callers who read that facility's inventory (the rule of its lists and `purchaseOrder(id)`). */
const inventoryRecord =
  <T extends { id: string; facilityId: string }>(entity: new () => T) =>
  (id: string, ctx: SubgraphContext) =>
    readableById(ctx, entity, id, (viewer, row) => holdsOrgPermission(viewer, row.facilityId, 'inventory:read'));

export default defineModule({
  name: 'inventory',
  description:
    "The supply side of the marketplace: suppliers' catalogues (synced by SKU from JSON or CSV), each facility's stock with its ledger, adjustments and counts, low stock, purchase orders and the reorder trigger",
  entities: [Product, Supplier, InventoryItem, StockMovement, PurchaseOrder, PurchaseOrderLine],
  resolvers: [
    referenceFields(PurchaseOrder, {
      createdByUser: { id: 'createdBy', type: 'User' },
      approvedByUser: { id: 'approvedBy', type: 'User' },
      receivedByUser: { id: 'receivedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
    }),
    referenceFields(StockMovement, {
      createdByUser: { id: 'createdBy', type: 'User' },
    }),
    idLinkFields(StockMovement, 'RecordLinks', {
      facility: {
        id: 'facilityId',
        type: RevenueOrganization,
        description: 'The facility whose stock moved; null when the caller may not see it',
        resolve: (id) => ref(id),
      },
      product: {
        id: 'productId',
        type: Product,
        description: 'The product that moved (the catalogue, as product(id) has it)',
        resolve: (id, ctx) => readableById(ctx, Product, id, () => true),
      },
      inventoryItem: {
        id: 'inventoryItemId',
        type: InventoryItem,
        description: "The stock item whose ledger it is; null when the caller does not read the facility's inventory",
        resolve: inventoryRecord(InventoryItem),
      },
      purchaseOrder: {
        id: 'purchaseOrderId',
        type: PurchaseOrder,
        description: 'The purchase order received, when one was; null otherwise or when the caller may not read it',
        resolve: inventoryRecord(PurchaseOrder),
      },
    }),
    idLinkFields(PurchaseOrderLine, 'PurchaseOrderLink', {
      purchaseOrder: {
        id: 'purchaseOrderId',
        type: PurchaseOrder,
        description: 'The purchase order it is a line of; null when the caller may not read it (the rule of purchaseOrder(id))',
        resolve: inventoryRecord(PurchaseOrder),
      },
    }),
    referenceFields(Supplier, { createdByUser: { id: 'createdBy', type: 'User' } }),
    ProductResolver,
    SupplierResolver,
    InventoryItemResolver,
    PurchaseOrderResolver,
    PurchaseOrderLineResolver,
  ],
  topics: [STOCK_LOW],
  jobs: [REORDER_JOB],
});
