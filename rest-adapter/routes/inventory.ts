import { defineRoutes } from '../route';

export default defineRoutes('Supply marketplace: catalogue, inventory and purchasing', [
  {
    method: 'GET',
    path: '/api/marketplace/products',
    operation: 'Products',
    summary:
      'List and search products: `search` (name, SKU, GTIN, ingredient), `category`, `sku`, `gtin`, `prescription_only`, `supplier_id`, `active`',
  },
  {
    method: 'POST',
    path: '/api/marketplace/catalog/sync',
    operation: 'SyncCatalog',
    summary: "Upsert a supplier's catalogue by SKU (platform administrators)",
    description:
      'JSON `{ supplier_id, products: [...] }` or `{ supplier_id, csv: "..." }`, or a `text/csv` body with `?supplier_id=`. ' +
      'Answers counts of created, updated, unchanged and rejected rows, and every row with its reasons; a bad row never stops the others.',
    textBody: 'csv',
  },
  {
    method: 'GET',
    path: '/api/marketplace/inventory',
    operation: 'InventoryItems',
    summary:
      "List stock (on hand, reserved, available, reorder level and quantity, batch, expiry): a facility's (`facility_id`) or every facility of mine",
  },
  {
    method: 'POST',
    path: '/api/marketplace/inventory/sync',
    operation: 'SyncInventory',
    summary:
      'Record a stock count (`facility_id`, `items` of `product_id` and counted `quantity`): each replaces on hand, the difference goes to the ledger',
  },
  {
    method: 'GET',
    path: '/api/marketplace/inventory/low-stock',
    operation: 'LowStockItems',
    summary: 'Items whose available stock is at or below their reorder level (`facility_id`), longest low first',
  },
  {
    method: 'POST',
    path: '/api/marketplace/inventory/adjust',
    operation: 'AdjustStock',
    summary:
      'Adjust stock by a signed `quantity` with a `reason` (received, dispensed, damaged, expired, count_correction); more than available is a 409',
  },
  { method: 'GET', path: '/api/marketplace/suppliers', operation: 'Suppliers', summary: 'List suppliers (`search`, `country`)' },
  {
    method: 'POST',
    path: '/api/marketplace/suppliers',
    operation: 'CreateSupplier',
    summary: 'Add a supplier (platform and facility administrators); `latitude` and `longitude` place it for emergency routing',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/marketplace/purchase-orders',
    operation: 'PurchaseOrders',
    summary: 'List purchase orders (`facility_id`, `supplier_id`, `status`)',
  },
  {
    method: 'POST',
    path: '/api/marketplace/purchase-orders',
    operation: 'CreatePurchaseOrder',
    summary: 'Draft a purchase order (`facility_id`, `supplier_id`, `lines` of `product_id`, `quantity`, `unit_cost`)',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/marketplace/purchase-orders/:id/approve',
    operation: 'ApprovePurchaseOrder',
    summary: "Approve a draft purchase order (the facility's administrators); approving twice is a 409",
  },
  {
    method: 'POST',
    path: '/api/marketplace/purchase-orders/:id/receive',
    operation: 'ReceivePurchaseOrder',
    summary: 'Receive an approved purchase order: its units enter the stock through the ledger (beyond SPEC)',
  },
  {
    method: 'POST',
    path: '/api/marketplace/purchase-orders/:id/cancel',
    operation: 'CancelPurchaseOrder',
    summary: 'Cancel a draft or approved purchase order (beyond SPEC)',
  },
  {
    method: 'POST',
    path: '/api/marketplace/reorder-trigger',
    operation: 'TriggerReorder',
    summary:
      'Draft purchase orders for items at or below their reorder level (`facility_id`, or all of mine); never a second open order per item',
  },
]);
