import { randomUUID } from 'node:crypto';
import { resetConfig } from '../shared/config';
import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { createOrganization } from './support/org';

let app: TestApp;
let doctor: SignedUp;
let orgId: string;

beforeAll(async () => {
  app = await startApp();
  doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
  orgId = (await createOrganization(doctor.api, { name: 'Accra Ridge Hospital', type: 'hospital' })).id;
});
afterAll(() => app.close());

describe('POST /graphql', () => {
  it('resolves patient { organization { name } } across the clinical and org subgraphs', async () => {
    const created = await doctor.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT);
    const res = await doctor.api.graphql('query($id: ID!) { patient(id: $id) { id firstName mrn organization { id name type } } }', {
      id: created.body.data.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.patient).toEqual({
      id: created.body.data.id,
      firstName: SAMPLE_PATIENT.first_name,
      mrn: 'MRN-000001',
      organization: { id: orgId, name: 'Accra Ridge Hospital', type: 'hospital' },
    });
  });

  it("bills only a patient of the organization: another organization's or none is refused, nothing stored", async () => {
    const other = await signUp(app.api, { registration_role: 'DOCTOR' });
    const otherOrg = (await createOrganization(other.api)).id;
    const theirs = await other.api.post(`/api/organizations/${otherOrg}/patients`, SAMPLE_PATIENT);
    const line = { currency: 'GHS', items: [{ description: 'Consultation', quantity: 1, unit_price: '10.00' }] };
    const before = (await doctor.api.get(`/api/organizations/${orgId}/invoices`)).body.meta.total;
    const foreign = await doctor.api.post(`/api/organizations/${orgId}/invoices`, { ...line, patient_id: theirs.body.data.id });
    expect(foreign.status).toBe(404);
    const nobody = await doctor.api.post(`/api/organizations/${orgId}/invoices`, { ...line, patient_id: randomUUID() });
    expect(nobody.status).toBe(404);
    expect((await doctor.api.get(`/api/organizations/${orgId}/invoices`)).body.meta.total).toBe(before);
  });

  it('joins all three subgraphs: an invoice with its patient and organization', async () => {
    const patient = await doctor.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT);
    const invoice = await doctor.api.post(`/api/organizations/${orgId}/invoices`, {
      patient_id: patient.body.data.id,
      currency: 'GHS',
      items: [
        { description: 'Consultation', quantity: 1, unit_price: '150.00' },
        { description: 'Malaria RDT', quantity: 2, unit_price: 35.5 },
      ],
    });
    expect(invoice.status).toBe(201);
    expect(invoice.body.data).toMatchObject({ number: 'INV-000001', total_amount: '221.00', status: 'draft', currency: 'GHS' });
    expect(invoice.body.data.items[1]).toMatchObject({ description: 'Malaria RDT', quantity: 2, unit_price: '35.50', amount: '71.00' });

    const res = await doctor.api.graphql(
      `query($org: ID!) { organizationInvoices(organizationId: $org) {
          total items { number totalAmount { amount currencyCode } patient { firstName lastName } organization { name } } } }`,
      { org: orgId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organizationInvoices.items[0]).toEqual({
      number: 'INV-000001',
      totalAmount: { amount: '221.00', currencyCode: 'GHS' },
      patient: { firstName: SAMPLE_PATIENT.first_name, lastName: SAMPLE_PATIENT.last_name },
      organization: { name: 'Accra Ridge Hospital' },
    });
  });

  it("writes invoice amounts with their currency's decimals (UGX none, KWD three) and refuses more", async () => {
    const org = (await createOrganization(doctor.api)).id;
    const ugx = await doctor.api.post(`/api/organizations/${org}/invoices`, {
      currency: 'UGX',
      items: [
        { description: 'Consultation', quantity: 3, unit_price: 5000 },
        { description: 'RDT', unit_price: '2500.00' },
      ],
    });
    expect(ugx.status).toBe(201);
    expect(ugx.body.data).toMatchObject({ total_amount: '17500', currency: 'UGX' });
    expect(ugx.body.data.items).toMatchObject([
      { description: 'Consultation', quantity: 3, unit_price: '5000', amount: '15000' },
      { description: 'RDT', quantity: 1, unit_price: '2500', amount: '2500' },
    ]);
    const kwd = await doctor.api.post(`/api/organizations/${org}/invoices`, {
      currency: 'KWD',
      items: [{ description: 'Consultation', quantity: 3, unit_price: '1.255' }],
    });
    expect(kwd.status).toBe(201);
    expect(kwd.body.data).toMatchObject({ total_amount: '3.765', items: [{ unit_price: '1.255', amount: '3.765' }] });
    // Read back from the database: the amounts keep their three decimals.
    const listed = await doctor.api.graphql(
      'query($org: ID!) { organizationInvoices(organizationId: $org) { items { currency totalAmount { amount } } } }',
      { org },
    );
    expect(listed.body.data.organizationInvoices.items).toEqual(
      expect.arrayContaining([
        { currency: 'KWD', totalAmount: { amount: '3.765' } },
        { currency: 'UGX', totalAmount: { amount: '17500' } },
      ]),
    );

    const refused = await doctor.api.post(`/api/organizations/${org}/invoices`, {
      currency: 'UGX',
      items: [
        { description: 'A', unit_price: '100' },
        { description: 'B', unit_price: '5000.5' },
        { description: 'C', unit_price: '0.25' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'items.1.unit_price', message: 'UGX amounts have no decimals' },
      { field: 'items.2.unit_price', message: 'UGX amounts have no decimals' },
    ]);
    const noCurrency = await doctor.api.post(`/api/organizations/${org}/invoices`, {
      currency: 'XXX',
      items: [{ description: 'A', unit_price: '1' }],
    });
    expect(noCurrency.status).toBe(400);
    expect(noCurrency.body.error.details).toEqual([{ field: 'currency', message: 'must be an ISO 4217 currency code such as KES' }]);
    expect((await doctor.api.get(`/api/organizations/${org}/invoices`)).body.meta.total).toBe(2);
  });

  it('gives GraphQL clients the same rules as REST: 404-style NOT_FOUND, and field rules as INVALID userErrors', async () => {
    const stranger = await signUp(app.api);
    const created = await doctor.api.post('/api/patients', SAMPLE_PATIENT);
    const hidden = await stranger.api.graphql('query($id: ID!) { patient(id: $id) { id } }', { id: created.body.data.id });
    expect(hidden.body.data).toEqual({ patient: null });
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const invalid = await doctor.api.graphql(
      'mutation($i: CreatePatientInput!) { createPatient(input: $i) { patient { id } userErrors { field code } } }',
      { i: { firstName: 'A', lastName: 'B', dateOfBirth: '1990-02-31', phone: '12345' } },
    );
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data.createPatient.patient).toBeNull();
    expect(
      invalid.body.data.createPatient.userErrors.map((e: { field: string[]; code: string }) => `${e.field.join('.')} ${e.code}`).sort(),
    ).toEqual(['input.dateOfBirth INVALID', 'input.phone INVALID']);

    const anonymous = await app.api.graphql('{ me { id } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });

  it('answers 401 with a GraphQL error body for a bad token', async () => {
    const res = await app.api.graphql('{ me { id } }', undefined, { token: 'v4.public.garbage' });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });

  it('rejects queries deeper than the configured limit with a clear error', async () => {
    // The REST operations nest up to four levels (checked at start), so prove the rule with a gateway configured for four.
    process.env.GRAPHQL_MAX_DEPTH = '4';
    resetConfig();
    const strict = await startApp({ workers: false });
    try {
      const query = '{ organizationInvoices(organizationId: "%s") { items { patient { organization { rooms { id } } } } } }';
      const res = await strict.api.as(doctor.token).graphql(query.replace('%s', orgId));
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_DEEP', limit: 4, actual: 5 });
      expect(res.body.errors[0].message).toMatch(/exceeds maximum operation depth of 4/);
      const shallow = await strict.api.as(doctor.token).graphql('{ me { id } }');
      expect(shallow.body.errors).toBeUndefined();
    } finally {
      delete process.env.GRAPHQL_MAX_DEPTH;
      resetConfig();
      await strict.close();
    }
  });

  it('rejects queries costlier than the limit', async () => {
    const fields = Array.from(
      { length: 6 },
      (_, i) => `p${i}: organizations(limit: 100) { items { id name type status email phone address city country } }`,
    ).join(' ');
    const res = await doctor.api.graphql(`{ ${fields} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', measure: 'cost', limit: 5000, actual: expect.any(Number) });
    expect(res.body.errors[0].extensions.actual).toBeGreaterThan(5000);
    expect(res.body.errors[0].message).toMatch(/cost \d+ exceeds the maximum of 5000/);
  });

  it('has introspection switched off by default', async () => {
    const res = await doctor.api.graphql('{ __schema { queryType { name } } }');
    expect(res.body.errors[0].message).toMatch(/introspection/i);
  });

  it('answers malformed GraphQL with VALIDATION_ERROR, not a crash', async () => {
    const res = await doctor.api.graphql('{ me { id ');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const unknown = await doctor.api.graphql('{ me { shoeSize } }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });
});
