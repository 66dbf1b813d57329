import { OutboxEvent } from '../shared/outbox';
import { PurchaseOrder, PurchaseOrderStatus } from '../subgraphs/revenue/inventory/purchase-order.entity';
import { REORDER_JOB } from '../subgraphs/revenue/inventory/inventory.jobs';
import { InventoryItem, StockMovement, StockMovementReason } from '../subgraphs/revenue/inventory/stock.entity';
import { signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
let admin: Api;
/** A pharmacy: its owner (ORG:ADMIN), a pharmacist, a clerk (ORG:STAFF) and a billing clerk. */
let pharmacyId: string;
let owner: SignedUp;
let pharmacist: SignedUp;
let clerk: SignedUp;
let billing: SignedUp;
/** Another pharmacy with its own administrator. */
let otherId: string;
let other: SignedUp;
let supplierId: string;
/** Products of the supplier's catalogue, by SKU. */
const product: Record<string, string> = {};

const CATALOGUE = [
  {
    sku: 'PCM-500',
    name: 'Paracetamol 500 mg tablets, 100',
    category: 'analgesics',
    gtin: '4006381333931',
    unit: 'box of 100',
    price: '250.00',
    currency: 'KES',
    supplier_quantity: 400,
  },
  {
    sku: 'AMX-500',
    name: 'Amoxicillin 500 mg capsules, 21',
    category: 'antibiotics',
    unit: 'box of 21',
    prescription_only: true,
    active_ingredient: 'amoxicillin',
    price: '350.50',
    currency: 'KES',
  },
  { sku: 'GLV-M', name: 'Examination gloves, medium', category: 'consumables', unit: 'box of 100', price: '900', currency: 'KES' },
];

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
  owner = await signUp(app.api, { registration_role: 'PHARMACIST' });
  pharmacyId = (await createOrganization(owner.api, { type: 'pharmacy' })).id;
  pharmacist = await signUp(app.api, { registration_role: 'PHARMACIST' });
  await addMember(app, pharmacyId, pharmacist.user.id, 'ORG:PHARMACIST');
  clerk = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, pharmacyId, clerk.user.id, 'ORG:STAFF');
  billing = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, pharmacyId, billing.user.id, 'ORG:BILLING');
  other = await signUp(app.api, { registration_role: 'PHARMACIST' });
  otherId = (await createOrganization(other.api, { type: 'pharmacy' })).id;
  const supplier = await admin.post('/api/marketplace/suppliers', {
    name: 'Medisupply Ltd',
    country: 'KE',
    city: 'Nairobi',
    latitude: -1.3,
    longitude: 36.8,
  });
  if (supplier.status !== 201) throw new Error(`supplier: ${supplier.status} ${supplier.text}`);
  supplierId = supplier.body.data.id;
  const sync = await admin.post('/api/marketplace/catalog/sync', { supplier_id: supplierId, products: CATALOGUE });
  if (sync.status !== 200) throw new Error(`catalogue: ${sync.status} ${sync.text}`);
  for (const row of sync.body.data.rows) product[row.sku] = row.product_id;
});
afterAll(() => app.close());

async function receive(productId: string, quantity: number, facility = pharmacyId, api = pharmacist.api) {
  const res = await api.post('/api/marketplace/inventory/adjust', {
    facility_id: facility,
    product_id: productId,
    quantity,
    reason: 'received',
  });
  if (res.status !== 200) throw new Error(`adjust: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The ledger's sums for an item, straight from storage. */
async function ledger(itemId: string): Promise<{ onHand: number; reserved: number; rows: number }> {
  const rows = await app.em('revenue').find(StockMovement, { inventoryItemId: itemId });
  return {
    onHand: rows.reduce((s, r) => s + r.onHandChange, 0),
    reserved: rows.reduce((s, r) => s + r.reservedChange, 0),
    rows: rows.length,
  };
}

describe('catalogue', () => {
  it('is synced by SKU from JSON: created, then unchanged, updated and rejected rows with reasons', async () => {
    const supplier = (await admin.post('/api/marketplace/suppliers', { name: 'Second Source' })).body.data.id;
    const first = await admin.post('/api/marketplace/catalog/sync', {
      supplier_id: supplier,
      products: [
        { sku: 'S-1', name: 'Saline 0.9% 500 ml', price: '120', currency: 'KES' },
        { sku: 'S-2', name: 'Syringe 5 ml', price: '15.50', currency: 'KES', supplier_quantity: 1000 },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ supplier_id: supplier, created: 2, updated: 0, unchanged: 0, rejected: 0 });
    const again = await admin.post('/api/marketplace/catalog/sync', {
      supplier_id: supplier,
      products: [
        { sku: 'S-1', name: 'Saline 0.9% 500 ml', price: '120.00', currency: 'KES' },
        { sku: 'S-2', name: 'Syringe 5 ml', price: '16', currency: 'KES', supplier_quantity: 1000 },
        { sku: 'S-3', name: 'No price', currency: 'KES' },
        { sku: 'S-4', name: 'Bad currency', price: '1', currency: 'XYZ' },
        'not a row',
        { sku: 'S-5', name: 'Fine', price: '1', currency: 'KES' },
        null,
      ],
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ created: 1, updated: 1, unchanged: 1, rejected: 4 });
    expect(again.body.data.rows).toEqual([
      { row: 1, sku: 'S-1', outcome: 'unchanged', product_id: expect.any(String), reasons: [] },
      { row: 2, sku: 'S-2', outcome: 'updated', product_id: expect.any(String), reasons: ['price changed'] },
      { row: 3, sku: 'S-3', outcome: 'rejected', product_id: null, reasons: ['price is required'] },
      { row: 4, sku: 'S-4', outcome: 'rejected', product_id: null, reasons: ['currency must be an ISO 4217 currency code such as KES'] },
      { row: 5, sku: null, outcome: 'rejected', product_id: null, reasons: ['row must be a JSON object'] },
      { row: 6, sku: 'S-5', outcome: 'created', product_id: expect.any(String), reasons: [] },
      { row: 7, sku: null, outcome: 'rejected', product_id: null, reasons: ['row must be a JSON object'] },
    ]);
    const listed = await pharmacist.api.get(`/api/marketplace/products?supplier_id=${supplier}&sku=S-2`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ sku: 'S-2', price: { amount: '16.00', currency_code: 'KES' }, supplier_quantity: 1000 }),
    ]);
  });

  it('is synced from a CSV body, reading each column as text (GTIN zeros kept), a bad record reported by its line', async () => {
    const supplier = (await admin.post('/api/marketplace/suppliers', { name: 'CSV Pharma' })).body.data.id;
    const csv = [
      'SKU,Name,GTIN,Price,Currency,Prescription Only,Supplier Quantity,Contact',
      'C-1,"Metformin 500 mg, 28",00012345600012,180,KES,yes,50,+254712345678',
      'C-2,Short record',
      'C-3,Ibuprofen 200 mg,,95.5,KES,no,,+254712345678',
    ].join('\n');
    const res = await admin.post(`/api/marketplace/catalog/sync?supplier_id=${supplier}`, undefined, {
      raw: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 2, rejected: 1 });
    expect(res.body.data.rows.map((r: { row: number; outcome: string }) => [r.row, r.outcome])).toEqual([
      [2, 'created'],
      [3, 'rejected'],
      [4, 'created'],
    ]);
    const metformin = await pharmacist.api.get(`/api/marketplace/products?supplier_id=${supplier}&search=metformin`);
    expect(metformin.body.data[0]).toMatchObject({
      gtin: '00012345600012',
      prescription_only: true,
      supplier_quantity: 50,
      price: { amount: '180.00' },
    });
    // The same upload as JSON text in the body.
    const asJson = await admin.post('/api/marketplace/catalog/sync', { supplier_id: supplier, format: 'csv', csv });
    expect(asJson.body.data).toMatchObject({ created: 0, unchanged: 2, rejected: 1 });
  });

  it('is for platform administrators, names a known supplier, and takes products or csv, not both', async () => {
    const body = { supplier_id: supplierId, products: CATALOGUE };
    expect((await app.api.post('/api/marketplace/catalog/sync', body)).status).toBe(401);
    expect((await owner.api.post('/api/marketplace/catalog/sync', body)).status).toBe(403);
    const unknown = await admin.post('/api/marketplace/catalog/sync', { ...body, supplier_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ field: 'supplier_id', message: 'must be a known supplier' }]);
    expect((await admin.post('/api/marketplace/catalog/sync', { ...body, supplier_id: 'acme' })).body.error.details).toEqual([
      { field: 'supplier_id', message: 'must be an id (a UUID)' },
    ]);
    const both = await admin.post('/api/marketplace/catalog/sync', { ...body, csv: 'sku\n' });
    expect(both.status).toBe(400);
    expect((await admin.post('/api/marketplace/catalog/sync', { supplier_id: supplierId })).status).toBe(400);
    expect((await admin.post('/api/marketplace/catalog/sync', { supplier_id: supplierId, products: [] })).body.error.details).toEqual([
      { field: 'products', message: 'has no rows' },
    ]);
  });

  it('lists and searches products for any signed-in caller, paginated', async () => {
    expect((await app.api.get('/api/marketplace/products')).status).toBe(401);
    const rx = await clerk.api.get(`/api/marketplace/products?supplier_id=${supplierId}&prescription_only=true`);
    expect(rx.status).toBe(200);
    expect(rx.body.data.map((p: { sku: string }) => p.sku)).toEqual(['AMX-500']);
    expect(rx.body.data[0]).toMatchObject({
      active_ingredient: 'amoxicillin',
      unit: 'box of 21',
      price: { amount: '350.50', currency_code: 'KES' },
      supplier_id: supplierId,
    });
    const search = await clerk.api.get(`/api/marketplace/products?search=4006381333931`);
    expect(search.body.data.map((p: { sku: string }) => p.sku)).toEqual(['PCM-500']);
    const category = await clerk.api.get(`/api/marketplace/products?category=Consumables&supplier_id=${supplierId}`);
    expect(category.body.data.map((p: { sku: string }) => p.sku)).toEqual(['GLV-M']);
    const page = await clerk.api.get(`/api/marketplace/products?supplier_id=${supplierId}&limit=2&page=2`);
    expect(page.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
    expect(page.body.data).toHaveLength(1);
    expect((await clerk.api.get('/api/marketplace/products?limit=500')).status).toBe(400);
    expect((await clerk.api.get('/api/marketplace/products?supplier_id=nope')).status).toBe(400);
  });
});

describe('suppliers', () => {
  it('are added by platform and facility administrators, with a place given whole', async () => {
    const res = await owner.api.post('/api/marketplace/suppliers', {
      name: 'Local Depot',
      phone: '+254712345678',
      email: 'Orders@Depot.example',
      latitude: -1.28,
      longitude: 36.82,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Local Depot',
      email: 'orders@depot.example',
      latitude: -1.28,
      longitude: 36.82,
      active: true,
      created_by: owner.user.id,
    });
    expect((await pharmacist.api.post('/api/marketplace/suppliers', { name: 'x' })).status).toBe(403);
    expect((await app.api.post('/api/marketplace/suppliers', { name: 'x' })).status).toBe(401);
    const half = await owner.api.post('/api/marketplace/suppliers', { name: 'Half', latitude: 1 });
    expect(half.status).toBe(400);
    expect(half.body.error.details).toEqual([{ field: 'longitude', message: 'must be given together with latitude' }]);
    const bad = await owner.api.post('/api/marketplace/suppliers', {
      name: ' ',
      latitude: 91,
      longitude: 0,
      phone: '0712345678',
      country: 'Kenya',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['country', 'latitude', 'name', 'phone']);
    const list = await clerk.api.get('/api/marketplace/suppliers?search=depot');
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(res.body.data.id);
  });
});

describe('stock', () => {
  it('is adjusted through the ledger: a receipt creates the item, removals beyond what is available are refused', async () => {
    const item = await receive(product['GLV-M'], 30);
    expect(item).toMatchObject({
      facility_id: pharmacyId,
      product_id: product['GLV-M'],
      on_hand: 30,
      reserved: 0,
      available: 30,
      product: { sku: 'GLV-M' },
    });
    const damaged = await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: product['GLV-M'],
      quantity: -4,
      reason: 'damaged',
      note: 'water damage',
      batch_number: 'LOT-7',
      expiry_date: '2028-01-31',
    });
    expect(damaged.status).toBe(200);
    expect(damaged.body.data).toMatchObject({ on_hand: 26, batch_number: 'LOT-7', expiry_date: '2028-01-31' });
    const tooMany = await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: product['GLV-M'],
      quantity: -27,
      reason: 'dispensed',
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toMatch(/only 26 available/);
    const correction = await owner.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: product['GLV-M'],
      quantity: -26,
      reason: 'count_correction',
    });
    expect(correction.body.data).toMatchObject({ on_hand: 0, available: 0 });
    // Nothing goes below zero, and nothing was ever stocked is nothing to take.
    expect(
      (
        await owner.api.post('/api/marketplace/inventory/adjust', {
          facility_id: pharmacyId,
          product_id: product['GLV-M'],
          quantity: -1,
          reason: 'expired',
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await owner.api.post('/api/marketplace/inventory/adjust', {
          facility_id: otherId,
          product_id: product['GLV-M'],
          quantity: -1,
          reason: 'expired',
        })
      ).status,
    ).toBe(404);
    const stored = await app.em('revenue').findOneOrFail(InventoryItem, { facilityId: pharmacyId, productId: product['GLV-M'] });
    expect(await ledger(stored.id)).toEqual({ onHand: stored.onHand, reserved: stored.reserved, rows: 3 });
  });

  it.each([
    [{ quantity: 0, reason: 'received' }, 'quantity', 'must not be 0'],
    [{ quantity: -2, reason: 'received' }, 'quantity', 'must be positive for received'],
    [{ quantity: 2, reason: 'damaged' }, 'quantity', 'must be negative for damaged'],
    [{ quantity: 2, reason: 'stolen' }, 'reason', 'must be one of: received, dispensed, damaged, expired, count_correction'],
    [{ quantity: 2.5, reason: 'received' }, 'quantity', 'must be an integer'],
    [{ quantity: 2, reason: 'received', expiry_date: '2028-02-30' }, 'expiry_date', 'must be a date in YYYY-MM-DD format'],
    [{ quantity: 2, reason: 'received', product_id: 'aspirin' }, 'product_id', 'must be an id (a UUID)'],
    [{ quantity: 2, reason: 'received', reorder_level: -1 }, 'reorder_level', 'must not be negative'],
  ])('refuses the adjustment %j naming %s', async (fields, field, message) => {
    const res = await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: product['PCM-500'],
      ...fields,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({ field, message: expect.stringContaining(message) });
  });

  it("is the facility's own: outsiders 404, members without the role 403, no token 401", async () => {
    const body = { facility_id: pharmacyId, product_id: product['PCM-500'], quantity: 1, reason: 'received' };
    expect((await app.api.post('/api/marketplace/inventory/adjust', body)).status).toBe(401);
    expect((await other.api.post('/api/marketplace/inventory/adjust', body)).status).toBe(404);
    expect((await clerk.api.post('/api/marketplace/inventory/adjust', body)).status).toBe(403);
    expect((await other.api.get(`/api/marketplace/inventory?facility_id=${pharmacyId}`)).status).toBe(404);
    expect((await billing.api.get(`/api/marketplace/inventory?facility_id=${pharmacyId}`)).status).toBe(403);
    expect((await other.api.get(`/api/marketplace/inventory/low-stock?facility_id=${pharmacyId}`)).status).toBe(404);
    // Without a facility, a list covers the caller's own facilities only.
    await receive(product['PCM-500'], 5, otherId, other.api);
    const mine = await other.api.get('/api/marketplace/inventory');
    expect(mine.body.data.every((i: { facility_id: string }) => i.facility_id === otherId)).toBe(true);
    expect(
      (await clerk.api.get('/api/marketplace/inventory')).body.data.every((i: { facility_id: string }) => i.facility_id === pharmacyId),
    ).toBe(true);
  });

  it('is counted: a count replaces on hand, the difference goes to the ledger, a bad line is rejected alone', async () => {
    await receive(product['PCM-500'], 10);
    const before = (await pharmacist.api.get(`/api/marketplace/inventory?facility_id=${pharmacyId}&product_id=${product['PCM-500']}`)).body
      .data[0];
    const res = await pharmacist.api.post('/api/marketplace/inventory/sync', {
      facility_id: pharmacyId,
      items: [
        { product_id: product['PCM-500'], quantity: before.on_hand - 3, reorder_level: 2 },
        { product_id: product['AMX-500'], quantity: 12 },
        { product_id: '00000000-0000-4000-8000-000000000000', quantity: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ facility_id: pharmacyId, adjusted: 2, unchanged: 0, rejected: 1 });
    expect(res.body.data.items).toEqual([
      expect.objectContaining({
        product_id: product['PCM-500'],
        outcome: 'adjusted',
        difference: -3,
        item: expect.objectContaining({ on_hand: before.on_hand - 3, reorder_level: 2 }),
      }),
      expect.objectContaining({ product_id: product['AMX-500'], outcome: 'adjusted', difference: 12 }),
      expect.objectContaining({ outcome: 'rejected', reason: 'unknown product', item: null }),
    ]);
    const same = await pharmacist.api.post('/api/marketplace/inventory/sync', {
      facility_id: pharmacyId,
      items: [{ product_id: product['AMX-500'], quantity: 12 }],
    });
    expect(same.body.data).toMatchObject({ adjusted: 0, unchanged: 1 });
    const twice = await pharmacist.api.post('/api/marketplace/inventory/sync', {
      facility_id: pharmacyId,
      items: [
        { product_id: product['AMX-500'], quantity: 1 },
        { product_id: product['AMX-500'], quantity: 2 },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([{ field: 'items.1.product_id', message: 'is counted twice' }]);
    expect((await pharmacist.api.post('/api/marketplace/inventory/sync', { facility_id: pharmacyId, items: [] })).status).toBe(400);
    expect(
      (
        await pharmacist.api.post('/api/marketplace/inventory/sync', {
          facility_id: pharmacyId,
          items: [{ product_id: product['AMX-500'], quantity: -1 }],
        })
      ).status,
    ).toBe(400);
    const movements = await app
      .em('revenue')
      .find(StockMovement, { facilityId: pharmacyId, productId: product['AMX-500'], reason: StockMovementReason.count_correction });
    expect(movements.map((m) => m.onHandChange)).toEqual([12]);
  });
});

describe('low stock', () => {
  it('lists items at or below their reorder level and announces each fall once', async () => {
    const supplier = (await admin.post('/api/marketplace/suppliers', { name: 'Low Co' })).body.data.id;
    const sku = (
      await admin.post('/api/marketplace/catalog/sync', {
        supplier_id: supplier,
        products: [{ sku: 'LOW-1', name: 'ORS sachets', price: '20', currency: 'KES' }],
      })
    ).body.data.rows[0].product_id;
    await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: sku,
      quantity: 10,
      reason: 'received',
      reorder_level: 5,
      reorder_quantity: 40,
    });
    const low = () => pharmacist.api.get(`/api/marketplace/inventory/low-stock?facility_id=${pharmacyId}&limit=100`);
    expect((await low()).body.data.map((i: { product_id: string }) => i.product_id)).not.toContain(sku);
    await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: sku,
      quantity: -5,
      reason: 'dispensed',
    });
    await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: sku,
      quantity: -2,
      reason: 'dispensed',
    });
    const listed = (await low()).body.data.find((i: { product_id: string }) => i.product_id === sku);
    expect(listed).toMatchObject({ on_hand: 3, available: 3, reorder_level: 5, reorder_quantity: 40, low_stock_since: expect.any(String) });
    const events = (await app.em('revenue').find(OutboxEvent, { topic: 'svc.inventory.stock_low' })).filter(
      (e) => e.payload.product_id === sku,
    );
    expect(events.map((e) => e.payload)).toEqual([
      { inventory_item_id: listed.id, organization_id: pharmacyId, product_id: sku, on_hand: 5, available: 5, reorder_level: 5 },
    ]);
    // Restocked above the level, it is no longer low; a new fall is a new event.
    await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: sku,
      quantity: 10,
      reason: 'received',
    });
    expect((await low()).body.data.map((i: { product_id: string }) => i.product_id)).not.toContain(sku);
    await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: sku,
      quantity: -9,
      reason: 'expired',
    });
    expect(
      (await app.em('revenue').find(OutboxEvent, { topic: 'svc.inventory.stock_low' })).filter((e) => e.payload.product_id === sku),
    ).toHaveLength(2);
  });
});

describe('purchase orders', () => {
  it('are drafted, approved once by the facility administrator, and received into stock through the ledger', async () => {
    const created = await pharmacist.api.post('/api/marketplace/purchase-orders', {
      facility_id: pharmacyId,
      supplier_id: supplierId,
      lines: [
        { product_id: product['AMX-500'], quantity: 20 },
        { product_id: product['PCM-500'], quantity: 3, unit_cost: '240.10' },
      ],
      notes: 'monthly order',
    });
    expect(created.status).toBe(201);
    const po = created.body.data;
    expect(po).toMatchObject({
      number: expect.stringMatching(/^PO-\d{6}$/),
      facility_id: pharmacyId,
      supplier_id: supplierId,
      status: 'draft',
      source: 'manual',
      currency: 'KES',
      total: { amount: '7730.30', currency_code: 'KES' },
      created_by: pharmacist.user.id,
    });
    expect(po.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ product_id: product['AMX-500'], quantity: 20, unit_cost: '350.50', amount: '7010.00' }),
        expect.objectContaining({ product_id: product['PCM-500'], quantity: 3, unit_cost: '240.10', amount: '720.30' }),
      ]),
    );
    const url = `/api/marketplace/purchase-orders/${po.id}`;
    expect((await pharmacist.api.post(`${url}/receive`)).status).toBe(409); // not approved yet
    expect((await pharmacist.api.post(`${url}/approve`)).status).toBe(403);
    expect((await other.api.post(`${url}/approve`)).status).toBe(404);
    expect((await app.api.post(`${url}/approve`)).status).toBe(401);
    const approved = await owner.api.post(`${url}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', approved_by: owner.user.id, approved_at: expect.any(String) });
    const twice = await owner.api.post(`${url}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('CONFLICT');

    const before = await app.em('revenue').findOneOrFail(InventoryItem, { facilityId: pharmacyId, productId: product['AMX-500'] });
    const received = await pharmacist.api.post(`${url}/receive`);
    expect(received.body.data).toMatchObject({ status: 'received', received_by: pharmacist.user.id });
    const after = await app.em('revenue').findOneOrFail(InventoryItem, { facilityId: pharmacyId, productId: product['AMX-500'] });
    expect(after.onHand).toBe(before.onHand + 20);
    expect(await app.em('revenue').count(StockMovement, { purchaseOrderId: po.id, reason: StockMovementReason.received })).toBe(2);
    expect((await ledger(after.id)).onHand).toBe(after.onHand);
    expect((await pharmacist.api.post(`${url}/receive`)).status).toBe(409);
    expect((await pharmacist.api.post(`${url}/cancel`)).status).toBe(409);

    const list = await clerk.api.get(`/api/marketplace/purchase-orders?facility_id=${pharmacyId}&status=received`);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(po.id);
    expect((await other.api.get(`/api/marketplace/purchase-orders?facility_id=${pharmacyId}`)).status).toBe(404);
    expect((await other.api.get('/api/marketplace/purchase-orders')).body.data.map((p: { id: string }) => p.id)).not.toContain(po.id);
  });

  it('refuse bad input with the fields named', async () => {
    const res = await pharmacist.api.post('/api/marketplace/purchase-orders', {
      facility_id: pharmacyId,
      supplier_id: supplierId,
      lines: [
        { product_id: product['GLV-M'], quantity: 0 },
        { product_id: product['GLV-M'], quantity: 1, unit_cost: '-3' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['lines.0.quantity', 'lines.1.unit_cost']);
    // An id that is no UUID is refused at the edge, before any rule: the platform's one id rule.
    const notAnId = await pharmacist.api.post('/api/marketplace/purchase-orders', {
      facility_id: pharmacyId,
      supplier_id: supplierId,
      lines: [{ product_id: 'gloves', quantity: 1 }],
    });
    expect(notAnId.body.error.details).toEqual([{ field: 'lines[0].product_id', message: 'must be an id (a UUID)' }]);
    const unknown = await pharmacist.api.post('/api/marketplace/purchase-orders', {
      facility_id: pharmacyId,
      supplier_id: '00000000-0000-4000-8000-000000000000',
      lines: [{ product_id: product['GLV-M'], quantity: 1 }],
    });
    expect(unknown.body.error.details).toEqual([{ field: 'supplier_id', message: 'must be a known supplier' }]);
    const cents = await pharmacist.api.post('/api/marketplace/purchase-orders', {
      facility_id: pharmacyId,
      supplier_id: supplierId,
      lines: [{ product_id: product['GLV-M'], quantity: 1, unit_cost: '1.005' }],
    });
    expect(cents.body.error.details).toEqual([{ field: 'lines.0.unit_cost', message: 'KES amounts have at most 2 decimals' }]);
    expect(
      (
        await clerk.api.post('/api/marketplace/purchase-orders', {
          facility_id: pharmacyId,
          supplier_id: supplierId,
          lines: [{ product_id: product['GLV-M'], quantity: 1 }],
        })
      ).status,
    ).toBe(403);
  });
});

describe('reorder trigger', () => {
  it('drafts exactly one open purchase order per low item, to its preferred supplier, however often it runs', async () => {
    const preferred = (await admin.post('/api/marketplace/suppliers', { name: 'Preferred Wholesale' })).body.data.id;
    await pharmacist.api.post('/api/marketplace/inventory/adjust', {
      facility_id: pharmacyId,
      product_id: product['GLV-M'],
      quantity: 3,
      reason: 'received',
      reorder_level: 5,
      reorder_quantity: 50,
      preferred_supplier_id: preferred,
    });
    const trigger = () => pharmacist.api.post('/api/marketplace/reorder-trigger', { facility_id: pharmacyId });
    /** Open purchase orders of this facility asking for the gloves. */
    const open = async () => {
      const pos = await app
        .em('revenue')
        .find(PurchaseOrder, { facilityId: pharmacyId, status: { $in: [PurchaseOrderStatus.draft, PurchaseOrderStatus.approved] } });
      const lines = await pharmacist.api.get(`/api/marketplace/purchase-orders?facility_id=${pharmacyId}&limit=100`);
      return lines.body.data.filter(
        (po: { id: string; lines: { product_id: string }[] }) =>
          pos.some((p) => p.id === po.id) && po.lines.some((l) => l.product_id === product['GLV-M']),
      );
    };
    const first = await trigger();
    expect(first.status).toBe(200);
    // The scheduled job (which other suites' start-ups may run at any moment) may have drafted it first: either way, one.
    const drafted = await open();
    expect(drafted).toHaveLength(1);
    expect(drafted[0]).toMatchObject({ supplier_id: preferred, status: 'draft', source: 'reorder' });
    expect(drafted[0].lines).toEqual([expect.objectContaining({ product_id: product['GLV-M'], quantity: 50 })]);

    // Again, twice at once, and from the scheduled job: nothing new for this item.
    const [a, b] = await Promise.all([trigger(), trigger()]);
    for (const res of [a, b]) {
      expect(res.status).toBe(200);
      expect(
        res.body.data.purchase_orders.filter((po: { lines: { product_id: string }[] }) =>
          po.lines.some((l) => l.product_id === product['GLV-M']),
        ),
      ).toEqual([]);
      expect(res.body.data.already_on_order).toBeGreaterThanOrEqual(1);
    }
    await app.em('revenue').transactional((em) => REORDER_JOB.run({ em, now: new Date() }));
    expect(await open()).toHaveLength(1);

    // Once it is received, the item is no longer low and nothing is open.
    await owner.api.post(`/api/marketplace/purchase-orders/${drafted[0].id}/approve`);
    await pharmacist.api.post(`/api/marketplace/purchase-orders/${drafted[0].id}/receive`);
    expect(await open()).toHaveLength(0);
    const item = await app.em('revenue').findOneOrFail(InventoryItem, { facilityId: pharmacyId, productId: product['GLV-M'] });
    expect(item).toMatchObject({ onHand: 53, lowStockSince: null });
    expect(
      (await trigger()).body.data.purchase_orders.filter((po: { lines: { product_id: string }[] }) =>
        po.lines.some((l) => l.product_id === product['GLV-M']),
      ),
    ).toEqual([]);
  });

  it('is for inventory writers of the facility', async () => {
    expect((await app.api.post('/api/marketplace/reorder-trigger', { facility_id: pharmacyId })).status).toBe(401);
    expect((await clerk.api.post('/api/marketplace/reorder-trigger', { facility_id: pharmacyId })).status).toBe(403);
    expect((await other.api.post('/api/marketplace/reorder-trigger', { facility_id: pharmacyId })).status).toBe(404);
    expect((await other.api.post('/api/marketplace/reorder-trigger', { facility_id: 'mine' })).status).toBe(400);
    // A patient, with no facility, drafts nothing anywhere.
    const patient = await signUp(app.api, { registration_role: 'PATIENT' });
    const nothing = await patient.api.post('/api/marketplace/reorder-trigger', {});
    expect(nothing.body.data).toEqual({ purchase_orders: [], low_items: 0, already_on_order: 0, skipped: 0 });
  });
});

describe('the ledger', () => {
  it('sums to on hand and reserved for every item of these facilities', async () => {
    // This suite's facilities (other suites share the database and run at the same time).
    const items = await app.em('revenue').find(InventoryItem, { facilityId: { $in: [pharmacyId, otherId] } });
    expect(items.length).toBeGreaterThan(3);
    for (const item of items) {
      const sums = await ledger(item.id);
      expect({ item: item.id, onHand: sums.onHand, reserved: sums.reserved }).toEqual({
        item: item.id,
        onHand: item.onHand,
        reserved: item.reserved,
      });
    }
  });
});

describe('GraphQL', () => {
  it('answers the same records camelCase, with the item ledger and the product joined', async () => {
    const res = await pharmacist.api.graphql(
      `query($f: ID) { inventoryItems(facilityId: $f, limit: 100) { total items { onHand available product { sku supplier { name } price { amount currencyCode } } movements(limit: 5) { total items { reason onHandChange onHandAfter } } } } }`,
      { f: pharmacyId },
    );
    expect(res.body.errors).toBeUndefined();
    const gloves = res.body.data.inventoryItems.items.find((i: { product: { sku: string } }) => i.product.sku === 'GLV-M');
    expect(gloves).toMatchObject({
      onHand: 53,
      product: { supplier: { name: 'Medisupply Ltd' }, price: { amount: '900.00', currencyCode: 'KES' } },
    });
    expect(gloves.movements.items[0]).toMatchObject({ reason: 'received', onHandChange: 50, onHandAfter: 53 });
    const missing = await pharmacist.api.graphql('{ purchaseOrder(id: "00000000-0000-4000-8000-000000000000") { id } }');
    expect(missing.body.data.purchaseOrder).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
