import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
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
    referenceFields(StockMovement, { createdByUser: { id: 'createdBy', type: 'User' } }),
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
