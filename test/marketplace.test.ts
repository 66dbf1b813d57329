import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { OutboxEvent, ProcessedEvent } from '../shared/outbox';
import { EVENTS_QUEUE, openQueue } from '../shared/queues';
import { Patient } from '../subgraphs/clinical/patients/patient.entity';
import { InventoryItem, StockMovement } from '../subgraphs/revenue/inventory/stock.entity';
import { HOLDING_STOCK, SupplyOrder } from '../subgraphs/revenue/marketplace/order.entity';
import { DeadLetter } from '../workers/store';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, type Clinic } from './support/clinic';
import { addMember, createOrganization } from './support/org';
import { eventually } from './support/wait';

let app: TestApp;
let admin: Api;
let c: Clinic;
let connection: Redis;
let events: Queue;

/** Places, WGS 84. */
const CBD = { latitude: -1.2864, longitude: 36.8172 };
const WESTLANDS = { latitude: -1.2676, longitude: 36.8108 };
const THIKA = { latitude: -1.0333, longitude: 37.0693 };
const KISUMU = { latitude: -0.0917, longitude: 34.768 };

/** The pharmacy orders are placed with (in the CBD): owner (ORG:ADMIN), pharmacist, clerk (ORG:STAFF), billing clerk. */
let pharmacyId: string;
let owner: SignedUp;
let pharmacist: SignedUp;
let clerk: SignedUp;
let billing: SignedUp;
/** Other pharmacies: Westlands (near), Kisumu (far), one without a place. */
let westlands: { id: string; owner: SignedUp };
let kisumu: { id: string; owner: SignedUp };
let unplaced: { id: string; owner: SignedUp };
/** A patient of the clinic with an account of their own, who orders for themselves. */
let patientUser: SignedUp;
let ownPatientId: string;
let supplierId: string;
const product: Record<string, string> = {};

async function pharmacy(place: { latitude: number; longitude: number } | null, name: string) {
  const o = await signUp(app.api, { registration_role: 'PHARMACIST' });
  const id = (await createOrganization(o.api, { type: 'pharmacy', name, city: 'Nairobi', country: 'KE', ...(place ?? {}) })).id;
  return { id, owner: o };
}

async function stock(facilityId: string, api: Api, productId: string, quantity: number) {
  const res = await api.post('/api/marketplace/inventory/adjust', {
    facility_id: facilityId,
    product_id: productId,
    quantity,
    reason: 'received',
  });
  if (res.status !== 200) throw new Error(`stock: ${res.status} ${res.text}`);
}

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  events = openQueue(EVENTS_QUEUE, connection);
  c = await clinic(app);

  const main = await pharmacy(CBD, 'CBD Pharmacy');
  pharmacyId = main.id;
  owner = main.owner;
  pharmacist = await signUp(app.api, { registration_role: 'PHARMACIST' });
  await addMember(app, pharmacyId, pharmacist.user.id, 'ORG:PHARMACIST');
  clerk = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, pharmacyId, clerk.user.id, 'ORG:STAFF');
  billing = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, pharmacyId, billing.user.id, 'ORG:BILLING');
  westlands = await pharmacy(WESTLANDS, 'Westlands Chemist');
  kisumu = await pharmacy(KISUMU, 'Kisumu Lakeside Pharmacy');
  unplaced = await pharmacy(null, 'Pharmacy Somewhere');

  patientUser = await signUp(app.api, { registration_role: 'PATIENT' });
  ownPatientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Wanjiru' })).body.data
    .id;
  await app.em('clinical').nativeUpdate(Patient, { id: ownPatientId }, { userId: patientUser.user.id });

  supplierId = (await admin.post('/api/marketplace/suppliers', { name: 'Thika Medical Supplies', city: 'Thika', country: 'KE', ...THIKA }))
    .body.data.id;
  const rows = [
    {
      sku: 'PCM-500',
      name: 'Paracetamol 500 mg tablets, 100',
      gtin: '96385074',
      unit: 'box of 100',
      price: '250.00',
      currency: 'KES',
      supplier_quantity: 400,
    },
    {
      sku: 'AMX-500',
      name: 'Amoxicillin 500 mg capsules, 21',
      prescription_only: true,
      active_ingredient: 'amoxicillin',
      unit: 'box of 21',
      price: '350.50',
      currency: 'KES',
    },
    { sku: 'LAST-10', name: 'Oral rehydration salts', unit: 'sachet', price: '20', currency: 'KES' },
    { sku: 'UGX-1', name: 'Mosquito net', unit: 'net', price: '15000', currency: 'UGX' },
    { sku: 'ONE-1', name: 'Thermometer', unit: 'piece', price: '500', currency: 'KES' },
  ];
  const sync = await admin.post('/api/marketplace/catalog/sync', { supplier_id: supplierId, products: rows });
  for (const row of sync.body.data.rows) product[row.sku] = row.product_id;
  // The same paracetamol (same GTIN) in another supplier's catalogue.
  const other = (await admin.post('/api/marketplace/suppliers', { name: 'Far Away Distributors' })).body.data.id;
  product['PCM-OTHER'] = (
    await admin.post('/api/marketplace/catalog/sync', {
      supplier_id: other,
      products: [{ sku: 'P500', name: 'Paracetamol 500mg x100', gtin: '96385074', price: '240', currency: 'KES' }],
    })
  ).body.data.rows[0].product_id;

  await stock(pharmacyId, pharmacist.api, product['PCM-500'], 100);
  await stock(pharmacyId, pharmacist.api, product['AMX-500'], 20);
  await stock(pharmacyId, pharmacist.api, product['LAST-10'], 10);
  await stock(pharmacyId, pharmacist.api, product['UGX-1'], 5);
  await stock(pharmacyId, pharmacist.api, product['ONE-1'], 1);
  await stock(westlands.id, westlands.owner.api, product['PCM-500'], 50);
  await stock(kisumu.id, kisumu.owner.api, product['PCM-OTHER'], 100);
  await stock(unplaced.id, unplaced.owner.api, product['PCM-500'], 100);
});
afterAll(async () => {
  await events.close();
  await connection.quit();
  await app.close();
});

const item = (productId: string, facilityId = pharmacyId) => app.em('revenue').findOneOrFail(InventoryItem, { facilityId, productId });

async function order(items: { sku: string; quantity: number }[], api: Api = patientUser.api, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/marketplace/orders', {
    facility_id: pharmacyId,
    items: items.map((i) => ({ product_id: product[i.sku], quantity: i.quantity })),
    ...extra,
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  return res.body.data as { id: string; status: string; number: string; items: { product_id: string; eprescription_id: string | null }[] };
}

const transition = (id: string, status: string, api: Api = clerk.api) => api.post(`/api/marketplace/orders/${id}/transition`, { status });

/** Puts a payment-completed envelope of the payments module on the bus, as that module would. */
async function paymentCompleted(orderId: string, overrides: Record<string, unknown> = {}, id = randomUUID()) {
  const event = {
    id,
    topic: 'svc.payments.payment_completed',
    timestamp: new Date().toISOString(),
    source_service: 'revenue',
    payload: {
      payment_id: `pay_${id.slice(0, 8)}`,
      order_id: orderId,
      provider: 'mobile-money-a',
      amount: '250.00',
      currency: 'KES',
      purpose_type: 'supply_order',
      purpose_id: orderId,
      organization_id: pharmacyId,
      completed_at: new Date().toISOString(),
      ...overrides,
    },
  };
  await events.add(event.topic, event, { jobId: `${event.id}-${randomUUID().slice(0, 4)}` });
  return event;
}

describe('orders', () => {
  it('reserve on create and release on cancel, each through the ledger', async () => {
    const before = await item(product['PCM-500']);
    const res = await patientUser.api.post('/api/marketplace/orders', {
      facility_id: pharmacyId,
      items: [{ product_id: product['PCM-500'], quantity: 3 }],
      delivery_address: 'Kenyatta Avenue 12, Nairobi',
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const created = res.body.data;
    expect(created).toMatchObject({
      number: expect.stringMatching(/^ORD-\d{6}$/),
      facility_id: pharmacyId,
      customer_id: patientUser.user.id,
      patient_id: ownPatientId,
      status: 'pending',
      currency: 'KES',
      total: { amount: '750.00', currency_code: 'KES' },
      payment_state: 'none',
      delivery_address: 'Kenyatta Avenue 12, Nairobi',
    });
    expect(created.items).toEqual([
      {
        product_id: product['PCM-500'],
        sku: 'PCM-500',
        name: 'Paracetamol 500 mg tablets, 100',
        prescription_only: false,
        quantity: 3,
        unit_price: '250.00',
        amount: '750.00',
        eprescription_id: null,
      },
    ]);
    const reserved = await item(product['PCM-500']);
    expect({ onHand: reserved.onHand, reserved: reserved.reserved }).toEqual({ onHand: before.onHand, reserved: before.reserved + 3 });

    const cancelled = await patientUser.api.delete(`/api/marketplace/orders/${created.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      id: created.id,
      status: 'cancelled',
      cancelled_by: patientUser.user.id,
      cancelled_at: expect.any(String),
    });
    const released = await item(product['PCM-500']);
    expect({ onHand: released.onHand, reserved: released.reserved }).toEqual({ onHand: before.onHand, reserved: before.reserved });
    const rows = await app.em('revenue').find(StockMovement, { orderId: created.id }, { orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.reason, r.onHandChange, r.reservedChange])).toEqual([
      ['reserved', 0, 3],
      ['released', 0, -3],
    ]);
    const again = await patientUser.api.delete(`/api/marketplace/orders/${created.id}`);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'CONFLICT', message: 'Cannot cancel a supply order that is cancelled' });
  });

  it('go pending → verified → paid → packed → dispatched → delivered, and delivery consumes the stock', async () => {
    const before = await item(product['PCM-500']);
    const o = await order([{ sku: 'PCM-500', quantity: 2 }]);
    expect((await transition(o.id, 'packed')).status).toBe(409);
    expect((await clerk.api.post(`/api/marketplace/orders/${o.id}/verify`)).status).toBe(403); // pharmacists verify
    const verified = await pharmacist.api.post(`/api/marketplace/orders/${o.id}/verify`, { notes: 'checked' });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ status: 'verified', verified_by: pharmacist.user.id, verification_notes: 'checked' });
    expect((await transition(o.id, 'paid', billing.api)).status).toBe(403); // billing reads, does not move orders
    expect((await transition(o.id, 'paid', patientUser.api)).status).toBe(403);
    const paid = await transition(o.id, 'paid');
    expect(paid.body.data).toMatchObject({
      status: 'paid',
      payment_state: 'completed',
      payment_provider: 'counter',
      paid_at: expect.any(String),
    });
    expect((await patientUser.api.delete(`/api/marketplace/orders/${o.id}`)).status).toBe(409); // paid: too late to cancel
    expect((await transition(o.id, 'packed')).body.data.status).toBe('packed');
    expect((await transition(o.id, 'dispatched')).body.data).toMatchObject({ status: 'dispatched', dispatched_at: expect.any(String) });
    const delivered = await transition(o.id, 'delivered');
    expect(delivered.status).toBe(200);
    expect(delivered.body.data).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    const after = await item(product['PCM-500']);
    expect({ onHand: after.onHand, reserved: after.reserved }).toEqual({ onHand: before.onHand - 2, reserved: before.reserved });

    for (const status of ['cancelled', 'packed', 'delivered', 'verified']) {
      const res = await transition(o.id, status, status === 'verified' ? pharmacist.api : clerk.api);
      expect({ status, code: res.status }).toEqual({ status, code: 409 });
    }
    const back = await transition(o.id, 'pending');
    expect(back.status).toBe(409);
    expect(back.body.error.message).toBe('A supply order cannot return to pending');
    expect((await clerk.api.post(`/api/marketplace/orders/${o.id}/transition`, { status: 'lost' })).status).toBe(400);
  });

  it('can be collected at the counter once packed, and cancelled by the facility while verified', async () => {
    const o = await order([{ sku: 'PCM-500', quantity: 1 }]);
    await pharmacist.api.post(`/api/marketplace/orders/${o.id}/verify`);
    const cancelled = await transition(o.id, 'cancelled');
    expect(cancelled.body.data.status).toBe('cancelled');
    const p = await order([{ sku: 'PCM-500', quantity: 1 }]);
    await pharmacist.api.post(`/api/marketplace/orders/${p.id}/verify`);
    await transition(p.id, 'paid');
    await transition(p.id, 'packed');
    expect((await transition(p.id, 'delivered')).body.data.status).toBe('delivered');
  });

  it('never oversell: 50 orders at once for the last 10 units make exactly 10 reservations', async () => {
    const customers = [patientUser, c.nurse, c.doctor, clerk, owner];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        customers[i % customers.length].api.post('/api/marketplace/orders', {
          facility_id: pharmacyId,
          items: [{ product_id: product['LAST-10'], quantity: 1 }],
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    expect(results.find((r) => r.status === 409)!.body.error.message).toBe(
      'Not enough stock of Oral rehydration salts (LAST-10) at this facility: 0 available, 1 ordered',
    );
    const last = await item(product['LAST-10']);
    expect({ onHand: last.onHand, reserved: last.reserved, available: last.available }).toEqual({ onHand: 10, reserved: 10, available: 0 });
    const rows = await app.em('revenue').find(StockMovement, { inventoryItemId: last.id });
    expect(rows.filter((r) => r.reason === 'reserved')).toHaveLength(10);
    expect(rows.reduce((s, r) => s + r.reservedChange, 0)).toBe(10);
    expect(rows.reduce((s, r) => s + r.onHandChange, 0)).toBe(10);
    // Nothing is left to take, by order or by hand.
    expect(
      (
        await pharmacist.api.post('/api/marketplace/inventory/adjust', {
          facility_id: pharmacyId,
          product_id: product['LAST-10'],
          quantity: -1,
          reason: 'damaged',
        })
      ).status,
    ).toBe(409);
  });

  it.each([
    [{ items: [] }, 'items', 'must have at least one item'],
    [{ items: [{ product_id: 'PCM-500', quantity: 0 }] }, 'items.0.quantity', 'must be at least 1'],
    [{ facility_id: 'cbd' }, 'facility_id', 'must be an id (a UUID)'],
    [{ facility_id: '00000000-0000-4000-8000-000000000000' }, 'facility_id', 'must be an active organization'],
    [{ items: [{ product_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }] }, 'items.0.product_id', 'must be a known product'],
    [
      {
        items: [
          { product_id: 'PCM-500', quantity: 1 },
          { product_id: 'UGX-1', quantity: 1 },
        ],
      },
      'items.1.product_id',
      'is priced in UGX',
    ],
    [
      {
        items: [
          { product_id: 'PCM-500', quantity: 1 },
          { product_id: 'PCM-500', quantity: 1 },
        ],
      },
      'items.1.product_id',
      'is on another line already',
    ],
    [{ patient_id: 'me' }, 'patient_id', 'must be an id (a UUID)'],
    [{ delivery_address: '  ' }, 'delivery_address', 'must not be blank'],
  ])('refuse the order %j naming %s', async (fields, field, message) => {
    const body: Record<string, unknown> = { facility_id: pharmacyId, items: [{ product_id: product['PCM-500'], quantity: 1 }], ...fields };
    body.items = (body.items as { product_id: string }[]).map((i) => ({ ...i, product_id: product[i.product_id] ?? i.product_id }));
    const res = await patientUser.api.post('/api/marketplace/orders', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual({ field, message: expect.stringContaining(message) });
  });

  it('refuse what the facility cannot supply, and patients the caller may not see', async () => {
    const short = await patientUser.api.post('/api/marketplace/orders', {
      facility_id: pharmacyId,
      items: [{ product_id: product['ONE-1'], quantity: 2 }],
    });
    expect(short.status).toBe(409);
    const elsewhere = await patientUser.api.post('/api/marketplace/orders', {
      facility_id: westlands.id,
      items: [{ product_id: product['AMX-500'], quantity: 1 }],
    });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error.message).toMatch(/0 available/);
    // A prescription-only item is sold for a patient; the clerk has no patient profile of their own.
    const noPatient = await clerk.api.post('/api/marketplace/orders', {
      facility_id: pharmacyId,
      items: [{ product_id: product['AMX-500'], quantity: 1 }],
    });
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.error.details).toEqual([
      { field: 'patient_id', message: 'is required: prescription-only items are sold for a patient' },
    ]);
    // Someone else's patient (the clinic's) is not the clerk's to name.
    const hidden = await clerk.api.post('/api/marketplace/orders', {
      facility_id: pharmacyId,
      patient_id: c.patientId,
      items: [{ product_id: product['PCM-500'], quantity: 1 }],
    });
    expect(hidden.status).toBe(404);
    // The clinic's nurse may order for the clinic's patient.
    const forPatient = await c.nurse.api.post('/api/marketplace/orders', {
      facility_id: pharmacyId,
      patient_id: c.patientId,
      items: [{ product_id: product['PCM-500'], quantity: 1 }],
    });
    expect(forPatient.status).toBe(201);
    expect(forPatient.body.data.patient_id).toBe(c.patientId);
    expect(
      (await app.api.post('/api/marketplace/orders', { facility_id: pharmacyId, items: [{ product_id: product['PCM-500'], quantity: 1 }] }))
        .status,
    ).toBe(401);
  });

  it('are seen by their customer, their patient and the facility staff; anyone else gets 404', async () => {
    const o = await order([{ sku: 'PCM-500', quantity: 1 }], c.nurse.api, { patient_id: ownPatientId });
    expect((await c.nurse.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(200);
    expect((await patientUser.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(200); // the patient it is for
    expect((await clerk.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(200);
    expect((await billing.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(200);
    expect((await westlands.owner.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(404);
    expect((await c.doctor.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(404);
    expect((await c.doctor.api.delete(`/api/marketplace/orders/${o.id}`)).status).toBe(404);
    expect((await app.api.get(`/api/marketplace/orders/${o.id}`)).status).toBe(401);
    expect((await clerk.api.get('/api/marketplace/orders/not-an-id')).status).toBe(404);
    expect((await clerk.api.get(`/api/marketplace/orders/${randomUUID()}`)).status).toBe(404);

    const mine = await patientUser.api.get('/api/marketplace/orders?limit=100');
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((x: { id: string }) => x.id)).toContain(o.id);
    expect(
      mine.body.data.every(
        (x: { customer_id: string; patient_id: string }) => x.customer_id === patientUser.user.id || x.patient_id === ownPatientId,
      ),
    ).toBe(true);
    expect((await c.doctor.api.get('/api/marketplace/orders?limit=100')).body.data.map((x: { id: string }) => x.id)).not.toContain(o.id);
    const facility = await clerk.api.get(`/api/marketplace/orders?facility_id=${pharmacyId}&status=pending&limit=100`);
    expect(facility.body.data.map((x: { id: string }) => x.id)).toContain(o.id);
    expect(facility.body.meta.total).toBeGreaterThanOrEqual(1);
    expect((await westlands.owner.api.get(`/api/marketplace/orders?facility_id=${pharmacyId}`)).status).toBe(404);
    expect((await clerk.api.get('/api/marketplace/orders?status=lost')).status).toBe(400);
  });
});

describe('verification of prescription-only items', () => {
  async function ePrescription(medication: string, pharmacy = pharmacyId, transmit = true, patientId = ownPatientId): Promise<string> {
    const p = await c.doctor.api.post('/api/prescriptions', {
      patient_id: patientId,
      medication,
      dosage: '1 capsule',
      frequency: 'every 8 hours',
      duration: '7 days',
    });
    await c.doctor.api.post(`/api/prescriptions/${p.body.data.id}/sign`);
    const ep = await c.nurse.api.post('/api/eprescriptions', { prescription_id: p.body.data.id, pharmacy_id: pharmacy });
    if (ep.status !== 201) throw new Error(`e-prescription: ${ep.status} ${ep.text}`);
    if (transmit) await c.nurse.api.post(`/api/eprescriptions/${ep.body.data.id}/transmit`);
    return ep.body.data.id;
  }
  const verify = (id: string, covers: { sku: string; ep: string }[], api = pharmacist.api) =>
    api.post(`/api/marketplace/orders/${id}/verify`, {
      eprescriptions: covers.map((x) => ({ product_id: product[x.sku] ?? x.sku, eprescription_id: x.ep })),
    });

  it('needs a valid e-prescription of the patient, transmitted to this pharmacy, naming the product', async () => {
    const o = await order([
      { sku: 'AMX-500', quantity: 1 },
      { sku: 'PCM-500', quantity: 1 },
    ]);
    const none = await verify(o.id, []);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe(
      'Prescription-only Amoxicillin 500 mg capsules, 21 (AMX-500) cannot be sold without a valid e-prescription of the patient',
    );

    const wrongDrug = await ePrescription('Paracetamol 1 g tablet');
    expect((await verify(o.id, [{ sku: 'AMX-500', ep: wrongDrug }])).body.error.message).toMatch(
      /it prescribes Paracetamol 1 g tablet, not Amoxicillin/,
    );
    const notSent = await ePrescription('Amoxicillin 500 mg capsule', pharmacyId, false);
    expect((await verify(o.id, [{ sku: 'AMX-500', ep: notSent }])).body.error.message).toMatch(/has not been transmitted/);
    const otherPharmacy = await ePrescription('Amoxicillin 500 mg capsule', westlands.id);
    expect((await verify(o.id, [{ sku: 'AMX-500', ep: otherPharmacy }])).body.error.message).toMatch(/was not found/);
    const otherPatient = await ePrescription('Amoxicillin 500 mg capsule', pharmacyId, true, c.patientId);
    expect((await verify(o.id, [{ sku: 'AMX-500', ep: otherPatient }])).body.error.message).toMatch(/another patient's/);
    const bad = await verify(o.id, [{ sku: 'PCM-500', ep: notSent }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { field: 'eprescriptions.0.product_id', message: 'must be a prescription-only product of this order' },
    ]);
    const notAnId = await verify(o.id, [{ sku: 'AMX-500', ep: 'rx-1' }]);
    expect(notAnId.body.error.details).toEqual([{ field: 'eprescriptions[0].eprescription_id', message: 'must be an id (a UUID)' }]);
    expect((await supplyOrder(o.id)).status).toBe('pending');

    const valid = await ePrescription('Amoxicillin 500 mg capsule');
    expect((await verify(o.id, [{ sku: 'AMX-500', ep: valid }], clerk.api)).status).toBe(403);
    const ok = await verify(o.id, [{ sku: 'AMX-500', ep: valid }]);
    expect(ok.status).toBe(200);
    expect(ok.body.data.status).toBe('verified');
    expect(ok.body.data.items.find((i: { sku: string }) => i.sku === 'AMX-500').eprescription_id).toBe(valid);
    expect((await verify(o.id, [{ sku: 'AMX-500', ep: valid }])).status).toBe(409); // verified already

    // One e-prescription covers one open order.
    const second = await order([{ sku: 'AMX-500', quantity: 1 }]);
    const taken = await verify(second.id, [{ sku: 'AMX-500', ep: valid }]);
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(`E-prescription ${valid} already covers order ${o.number}`);
    // Cancelled, the first order frees it.
    await patientUser.api.delete(`/api/marketplace/orders/${o.id}`);
    expect((await verify(second.id, [{ sku: 'AMX-500', ep: valid }])).status).toBe(200);
  });
});

async function supplyOrder(id: string) {
  return app.em('revenue').findOneOrFail(SupplyOrder, { id }, { refresh: true } as never);
}

describe('cart checkout and payment', () => {
  it('creates the order and requests its mobile money payment in one transaction', async () => {
    const res = await patientUser.api.post('/api/marketplace/cart/checkout', {
      facility_id: pharmacyId,
      items: [{ product_id: product['PCM-500'], quantity: 1 }],
      payment: { provider: 'mobile-money-a', phone: '+254712345678' },
    });
    expect(res.status).toBe(201);
    const o = res.body.data.order;
    expect(o).toMatchObject({
      status: 'pending',
      payment_state: 'requested',
      payment_provider: 'mobile-money-a',
      total: { amount: '250.00', currency_code: 'KES' },
    });
    expect(res.body.data.payment).toEqual({
      state: 'requested',
      provider: 'mobile-money-a',
      order_id: o.id,
      amount: { amount: '250.00', currency_code: 'KES' },
    });
    const [event] = await app.em('revenue').find(OutboxEvent, { topic: 'svc.marketplace.payment_requested', payload: { order_id: o.id } });
    expect(event.payload).toEqual({
      order_id: o.id,
      organization_id: pharmacyId,
      patient_id: ownPatientId,
      amount: '250.00',
      currency: 'KES',
      provider: 'mobile-money-a',
      phone: '+254712345678',
      description: `Supply order ${o.number}`,
    });

    // Paid while pending: the payment is kept; verifying then takes the order straight to paid.
    const first = await paymentCompleted(o.id);
    await eventually(async () => (await supplyOrder(o.id)).paymentState === 'completed', 'the payment applied');
    expect(await supplyOrder(o.id)).toMatchObject({ status: 'pending', paymentId: first.payload.payment_id });
    // The same event delivered again changes nothing and is recorded once.
    await events.add(first.topic, first, { jobId: `${first.id}-again` });
    await eventually(
      () => app.em('revenue').findOne(ProcessedEvent, { consumer: 'supply-order-payments', eventId: first.id }),
      'the event recorded',
    );
    const verified = await pharmacist.api.post(`/api/marketplace/orders/${o.id}/verify`);
    expect(verified.body.data).toMatchObject({ status: 'paid', payment_state: 'completed', payment_id: first.payload.payment_id });
  });

  it('marks a verified order paid when the payment completes, once; payments for other purposes are not its business', async () => {
    const res = await patientUser.api.post('/api/marketplace/cart/checkout', {
      facility_id: pharmacyId,
      items: [{ product_id: product['PCM-500'], quantity: 2 }],
      payment: { provider: 'mobile-money-b', phone: '+254712345678' },
    });
    const o = res.body.data.order;
    await pharmacist.api.post(`/api/marketplace/orders/${o.id}/verify`);
    await paymentCompleted(o.id, { purpose_type: 'invoice', purpose_id: randomUUID(), amount: '500.00' });
    const event = await paymentCompleted(o.id, { amount: 500, provider: 'mobile-money-b' });
    await eventually(async () => (await supplyOrder(o.id)).status === 'paid', 'the order paid');
    const paid = await patientUser.api.get(`/api/marketplace/orders/${o.id}`);
    expect(paid.body.data).toMatchObject({
      status: 'paid',
      payment_state: 'completed',
      payment_id: event.payload.payment_id,
      paid_at: expect.any(String),
    });
    // A second payment for the same order does not pay it twice.
    const again = await paymentCompleted(o.id, { amount: '500.00' });
    await eventually(
      () => app.em('revenue').findOne(ProcessedEvent, { consumer: 'supply-order-payments', eventId: again.id }),
      'the second payment processed',
    );
    expect((await supplyOrder(o.id)).paymentId).toBe(event.payload.payment_id);
  });

  it('sends a payment that does not match its order to the dead letter queue', async () => {
    const o = await order([{ sku: 'PCM-500', quantity: 1 }]);
    const event = await paymentCompleted(o.id, { amount: '1.00' });
    const entry = await eventually(() => app.em('platform').findOne(DeadLetter, { eventId: event.id }), 'dead letter');
    expect(entry.error).toMatch(/does not match order/);
    expect((await supplyOrder(o.id)).paymentState).toBe('none');
  });

  it('checks the cart and the payment asked for', async () => {
    const res = await patientUser.api.post('/api/marketplace/cart/checkout', {
      facility_id: pharmacyId,
      items: [{ product_id: product['PCM-500'], quantity: 1 }],
      payment: { provider: 'Mobile Money!', phone: '0712345678' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['payment.phone', 'payment.provider']);
    const short = await patientUser.api.post('/api/marketplace/cart/checkout', {
      facility_id: pharmacyId,
      items: [{ product_id: product['LAST-10'], quantity: 1 }],
      payment: { provider: 'mobile-money-a', phone: '+254712345678' },
    });
    expect(short.status).toBe(409);
    // Nothing was asked of payments for an order that does not exist.
    const requested = await app.em('revenue').find(OutboxEvent, { topic: 'svc.marketplace.payment_requested' });
    const orders = new Set((await app.em('revenue').find(SupplyOrder, {})).map((x) => x.id));
    expect(requested.every((e) => orders.has(e.payload.order_id as string))).toBe(true);
    const without = await patientUser.api.post('/api/marketplace/cart/checkout', {
      facility_id: pharmacyId,
      items: [{ product_id: product['PCM-500'], quantity: 1 }],
    });
    expect(without.status).toBe(201);
    expect(without.body.data).toMatchObject({ order: { payment_state: 'none' }, payment: null });
  });
});

describe('emergency routing', () => {
  const ask = (body: Record<string, unknown>, api: Api = pharmacist.api) =>
    api.post('/api/marketplace/emergency-routing', { product_id: product['PCM-500'], quantity: 20, ...CBD, ...body });

  it("finds facilities and suppliers holding enough stock, nearest first, the caller's own left out", async () => {
    const res = await ask({});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ product_id: product['PCM-500'], quantity: 20, ...CBD });
    const sources = res.body.data.sources;
    expect(sources.map((s: { name: string }) => s.name)).toEqual([
      'Westlands Chemist',
      'Thika Medical Supplies',
      'Kisumu Lakeside Pharmacy',
    ]);
    expect(sources[0]).toMatchObject({
      kind: 'facility',
      id: westlands.id,
      available_quantity: 50,
      product_id: product['PCM-500'],
      ...WESTLANDS,
      city: 'Nairobi',
      country: 'KE',
    });
    expect(sources[0].distance_km).toBeCloseTo(2.2, 0);
    expect(sources[1]).toMatchObject({ kind: 'supplier', id: supplierId, available_quantity: 400 });
    expect(sources[1].distance_km).toBeGreaterThan(30);
    // Kisumu holds the same item (same GTIN) from another catalogue.
    expect(sources[2]).toMatchObject({ kind: 'facility', id: kisumu.id, product_id: product['PCM-OTHER'], available_quantity: 100 });
    expect(sources[2].distance_km).toBeGreaterThan(250);

    expect((await ask({ quantity: 60 })).body.data.sources.map((s: { name: string }) => s.name)).toEqual([
      'Thika Medical Supplies',
      'Kisumu Lakeside Pharmacy',
    ]);
    expect((await ask({ radius_km: 100 })).body.data.sources.map((s: { name: string }) => s.name)).toEqual([
      'Westlands Chemist',
      'Thika Medical Supplies',
    ]);
    expect((await ask({ limit: 1 })).body.data.sources).toHaveLength(1);
    // Westlands' own staff do not find Westlands.
    const fromWestlands = await ask({}, westlands.owner.api);
    expect(fromWestlands.body.data.sources.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([pharmacyId]));
    expect(fromWestlands.body.data.sources.map((s: { id: string }) => s.id)).not.toContain(westlands.id);
  });

  it('places facilities by their organization, updated through the organizations API', async () => {
    expect((await unplaced.owner.api.patch(`/api/organizations/${unplaced.id}`, { latitude: -1.29 })).status).toBe(400);
    const placed = await unplaced.owner.api.patch(`/api/organizations/${unplaced.id}`, { latitude: -1.2921, longitude: 36.8219 });
    expect(placed.status).toBe(200);
    expect(placed.body.data).toMatchObject({ latitude: -1.2921, longitude: 36.8219 });
    expect((await ask({})).body.data.sources[0]).toMatchObject({ id: unplaced.id, name: 'Pharmacy Somewhere' });
    await unplaced.owner.api.patch(`/api/organizations/${unplaced.id}`, { latitude: null, longitude: null });
    expect((await ask({})).body.data.sources.map((s: { id: string }) => s.id)).not.toContain(unplaced.id);
  });

  it('is for facility staff, with its input checked', async () => {
    expect((await ask({}, patientUser.api)).status).toBe(403);
    expect((await ask({}, app.api)).status).toBe(401);
    const bad = await ask({ latitude: 95, quantity: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['latitude', 'quantity']);
    expect((await ask({ product_id: 'paracetamol' })).body.error.details).toEqual([
      { field: 'product_id', message: 'must be an id (a UUID)' },
    ]);
    expect((await ask({ product_id: randomUUID() })).body.error.details).toEqual([
      { field: 'product_id', message: 'must be a known product' },
    ]);
    expect((await ask({ longitude: undefined })).status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('answers an order with its facility, its products and money, camelCase', async () => {
    const o = await order([{ sku: 'PCM-500', quantity: 1 }]);
    const res = await patientUser.api.graphql(
      `query($id: ID!) { supplyOrder(id: $id) { number status total { amount currencyCode } facility { id name latitude longitude } items { quantity unitPrice { amount } product { sku supplier { name } } } } }`,
      { id: o.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.supplyOrder).toEqual({
      number: o.number,
      status: 'pending',
      total: { amount: '250.00', currencyCode: 'KES' },
      facility: { id: pharmacyId, name: 'CBD Pharmacy', ...CBD },
      items: [{ quantity: 1, unitPrice: { amount: '250.00' }, product: { sku: 'PCM-500', supplier: { name: 'Thika Medical Supplies' } } }],
    });
    const hidden = await c.doctor.api.graphql('query($id: ID!) { supplyOrder(id: $id) { id } }', { id: o.id });
    expect(hidden.body.data.supplyOrder).toBeNull();
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const packed = await clerk.api.graphql('mutation($id: ID!) { packSupplyOrder(id: $id) { status } }', { id: o.id });
    expect(packed.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it("reads a ledger line's order, product, item and facility, and an order's customer, each under its root rule", async () => {
    const o = await order([{ sku: 'PCM-500', quantity: 1 }]);
    const LEDGER = `query($f: ID!, $p: ID!) {
      inventoryItems(facilityId: $f, productId: $p, limit: 1) {
        items { id movements(limit: 5) { items { orderId order { id number customer { id email } } product { sku } inventoryItem { id } facility { id } } } }
      }
    }`;
    const res = await pharmacist.api.graphql(LEDGER, { f: pharmacyId, p: product['PCM-500'] });
    expect(res.body.errors).toBeUndefined();
    const [stocked] = res.body.data.inventoryItems.items;
    const line = stocked.movements.items.find((m: { orderId: string | null }) => m.orderId === o.id);
    expect(line).toEqual({
      orderId: o.id,
      // The customer is no member of the pharmacy: the staff do not see who they are (the rule of user(id)).
      order: { id: o.id, number: o.number, customer: null },
      product: { sku: 'PCM-500' },
      inventoryItem: { id: stocked.id },
      facility: { id: pharmacyId },
    });
    const own = await patientUser.api.graphql('query($id: ID!) { supplyOrder(id: $id) { customer { id email } } }', { id: o.id });
    expect(own.body.data.supplyOrder.customer).toEqual({ id: patientUser.user.id, email: patientUser.user.email });
    // The customer does not read the facility's ledger.
    const theirs = await patientUser.api.graphql(LEDGER, { f: pharmacyId, p: product['PCM-500'] });
    expect(theirs.body.data?.inventoryItems?.items ?? []).toEqual([]);
  });
});

describe('the ledger', () => {
  it('sums to on hand and reserved for every item, and reserved is what open orders hold', async () => {
    // This suite's facilities (other suites share the database and run at the same time).
    const items = await app.em('revenue').find(InventoryItem, { facilityId: { $in: [pharmacyId, westlands.id, kisumu.id, unplaced.id] } });
    expect(items.length).toBeGreaterThan(5);
    const open = await app.em('revenue').find(SupplyOrder, { status: { $in: [...HOLDING_STOCK] } });
    for (const i of items) {
      const rows = await app.em('revenue').find(StockMovement, { inventoryItemId: i.id });
      const held = open
        .filter((o) => o.facilityId === i.facilityId)
        .flatMap((o) => o.items)
        .filter((x) => x.productId === i.productId)
        .reduce((s, x) => s + x.quantity, 0);
      expect({
        item: i.id,
        onHand: rows.reduce((s, r) => s + r.onHandChange, 0),
        reserved: rows.reduce((s, r) => s + r.reservedChange, 0),
        held,
      }).toEqual({
        item: i.id,
        onHand: i.onHand,
        reserved: i.reserved,
        held: i.reserved,
      });
    }
  });
});
