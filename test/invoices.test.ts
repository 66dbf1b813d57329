import { randomUUID } from 'node:crypto';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };
let receptionist: SignedUp;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  receptionist = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, receptionist.user.id, 'ORG:RECEPTIONIST');
});
afterAll(() => app.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

describe('revenue cycle invoices', () => {
  it('creates an invoice with discounts and tax, every total the sum of its lines', async () => {
    const res = await c.billing.api.post('/api/rcm/invoices', {
      organization_id: c.orgId,
      patient_id: c.patientId,
      currency: 'KES',
      due_date: '2030-01-31',
      items: [
        { description: 'Consultation', code: '99213', quantity: 2, unit_price: '1000.00', discount: '100', tax_rate: '16' },
        // 333.33 at 16% is 53.3328 of tax: 53.33, half-even.
        { description: 'Dressing', quantity: 1, unit_price: '333.33', tax_rate: '16' },
        { description: 'Paracetamol', quantity: 3, unit_price: '25.10' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      number: expect.stringMatching(/^INV-\d{6}$/),
      organization_id: c.orgId,
      status: 'draft',
      subtotal: '2408.63',
      discount_total: '100.00',
      tax_total: '357.33',
      total_amount: '2665.96',
      amount_paid: '0.00',
      amount_due: '2665.96',
      due_date: '2030-01-31',
      claim_id: null,
    });
    expect(res.body.data.items[0]).toEqual({
      description: 'Consultation',
      code: '99213',
      quantity: 2,
      unit_price: '1000.00',
      amount: '2000.00',
      discount: '100.00',
      tax_rate: '16',
      tax_amount: '304.00',
      total: '2204.00',
    });
    expect(res.body.data.items[1]).toMatchObject({ tax_amount: '53.33', total: '386.66' });
    const detail = await receptionist.api.get(`/api/rcm/invoices/${res.body.data.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: res.body.data.id, total_amount: '2665.96', payments: [] });
  });

  it("keeps each currency's decimals (UGX none) and refuses more", async () => {
    const ugx = await c.billing.api.post('/api/rcm/invoices', {
      organization_id: c.orgId,
      currency: 'UGX',
      items: [{ description: 'Visit', unit_price: '15000', tax_rate: '18', discount: '1000' }],
    });
    expect(ugx.body.data).toMatchObject({ subtotal: '15000', discount_total: '1000', tax_total: '2520', total_amount: '16520' });
    const bad = await c.billing.api.post('/api/rcm/invoices', {
      organization_id: c.orgId,
      currency: 'UGX',
      items: [{ description: 'Visit', unit_price: '150.5' }],
    });
    expect(bad.body.error.details[0]).toEqual({ field: 'items.0.unit_price', message: 'UGX amounts have no decimals' });
  });

  it('names every bad field', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.billing.api.post('/api/rcm/invoices', {
        organization_id: c.orgId,
        currency: 'KES',
        items: [{ description: 'x', unit_price: '10' }],
        ...body,
      });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ organization_id: undefined })).toBe('organization_id');
    expect(await field({ organization_id: 'nope' })).toBe('organization_id');
    expect(await field({ items: [] })).toBe('items');
    expect(await field({ items: [{ description: 'x', unit_price: '10', discount: '11' }] })).toBe('items.0.discount');
    expect(await field({ items: [{ description: 'x', unit_price: '10', tax_rate: '101' }] })).toBe('items.0.tax_rate');
    expect(await field({ items: [{ description: 'x', unit_price: '10', tax_rate: '-1' }] })).toBe('items.0.tax_rate');
    expect(await field({ items: [{ description: '', unit_price: '10' }] })).toBe('items.0.description');
    expect(await field({ currency: 'ABC' })).toBe('currency');
    expect(await field({ due_date: '31/01/2030' })).toBe('due_date');
    expect(await field({ claim_id: randomUUID() })).toBe('claim_id');
    expect(await field({ patient_id: 'nope' })).toBe('patient_id');
  });

  it('lists for invoices:read members only: 401, 403, 404, and nothing of other organizations', async () => {
    const mine = (
      await c.billing.api.post(`/api/organizations/${c.orgId}/invoices`, {
        currency: 'KES',
        items: [{ description: 'x', unit_price: '10' }],
      })
    ).body.data.id;
    expect(ids(await receptionist.api.get('/api/rcm/invoices?limit=100'))).toContain(mine);
    expect(ids(await c.billing.api.get(`/api/rcm/invoices?organization_id=${c.orgId}&status=draft&limit=100`))).toContain(mine);
    expect(ids(await c.billing.api.get(`/api/rcm/invoices?patient_id=${c.patientId}&limit=100`))).not.toContain(mine);
    expect(ids(await c.billing.api.get(`/api/organizations/${c.orgId}/invoices?limit=100`))).toContain(mine);
    expect((await app.api.get('/api/rcm/invoices')).status).toBe(401);
    expect((await c.nurse.api.get(`/api/rcm/invoices/${mine}`)).status).toBe(403);
    expect((await c.nurse.api.get(`/api/organizations/${c.orgId}/invoices`)).status).toBe(403);
    expect((await c.nurse.api.get(`/api/rcm/invoices?organization_id=${c.orgId}`)).status).toBe(403);
    expect((await c.nurse.api.get('/api/rcm/invoices')).body.data).toEqual([]);
    expect((await stranger.api.get(`/api/rcm/invoices/${mine}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/organizations/${c.orgId}/invoices`)).status).toBe(404);
    expect((await stranger.api.get(`/api/rcm/invoices?organization_id=${c.orgId}`)).status).toBe(404);
    expect(ids(await stranger.api.get('/api/rcm/invoices'))).not.toContain(mine);
    expect(
      (
        await stranger.api.post('/api/rcm/invoices', {
          organization_id: c.orgId,
          currency: 'KES',
          items: [{ description: 'x', unit_price: '1' }],
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await receptionist.api.post('/api/rcm/invoices', {
          organization_id: c.orgId,
          currency: 'KES',
          items: [{ description: 'x', unit_price: '1' }],
        })
      ).status,
    ).toBe(403);
    expect((await c.billing.api.get(`/api/rcm/invoices/${randomUUID()}`)).status).toBe(404);
    expect((await c.billing.api.get('/api/rcm/invoices/INV-000001')).status).toBe(404);
  });

  it('issues and voids through GraphQL, once each, and never voids an invoice with payments', async () => {
    const id = (
      await c.billing.api.post(`/api/organizations/${c.orgId}/invoices`, {
        currency: 'KES',
        items: [{ description: 'x', unit_price: '100' }],
      })
    ).body.data.id;
    const issue = 'mutation($id: ID!) { issueInvoice(id: $id) { status issuedAt } }';
    const voided = 'mutation($id: ID!) { voidInvoice(id: $id) { status } }';
    expect((await c.billing.api.graphql(issue, { id })).body.data.issueInvoice.status).toBe('issued');
    expect((await c.billing.api.graphql(issue, { id })).body.errors[0].extensions.code).toBe('CONFLICT');
    expect((await receptionist.api.graphql(voided, { id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    await c.billing.api.post(`/api/organizations/${c.orgId}/payments`, { amount: '40', currency: 'KES', method: 'card', invoice_id: id });
    expect((await c.billing.api.graphql(voided, { id })).body.errors[0].extensions.code).toBe('CONFLICT');
    const other = (
      await c.billing.api.post(`/api/organizations/${c.orgId}/invoices`, {
        currency: 'KES',
        items: [{ description: 'x', unit_price: '100' }],
      })
    ).body.data.id;
    expect((await c.billing.api.graphql(voided, { id: other })).body.data.voidInvoice.status).toBe('void');
    expect(
      (
        await c.billing.api.post(`/api/organizations/${c.orgId}/payments`, {
          amount: '1',
          currency: 'KES',
          method: 'cash',
          invoice_id: other,
        })
      ).status,
    ).toBe(409);
    const read = await c.billing.api.graphql(
      'query($id: ID!) { invoice(id: $id) { status amountPaid { amount } amountDue { amount currencyCode } payments { method amount { amount } } organization { id } } }',
      { id },
    );
    expect(read.body.data.invoice).toEqual({
      status: 'partially_paid',
      amountPaid: { amount: '40.00' },
      amountDue: { amount: '60.00', currencyCode: 'KES' },
      payments: [{ method: 'card', amount: { amount: '40.00' } }],
      organization: { id: c.orgId },
    });
  });
});
