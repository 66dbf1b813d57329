import { randomUUID } from 'node:crypto';
import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { InsurancePolicy } from '../subgraphs/revenue/insurance/insurance.entity';
import { SANDBOX_PAYER_ID, sandboxPlanId } from '../subgraphs/revenue/insurance/sandbox-marketplace';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { eventually } from './support/wait';

process.env.MOBILE_MONEY_SANDBOX_DELAY_MS = '100';
resetConfig();

let app: TestApp;
let admin: Api;
let c: Clinic;
let stranger: SignedUp & { orgId: string };

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
  c = await clinic(app);
  stranger = await outsider(app);
});
afterAll(() => app.close());

const KES_PLAN = sandboxPlanId('outpatient-basic-kes');
const UGX_PLAN = sandboxPlanId('essential-ugx');
const today = () => new Date().toISOString().slice(0, 10);
const policyOf = (id: string) => app.em('revenue').findOneOrFail(InsurancePolicy, { id });

async function newPatient(): Promise<string> {
  const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
    ...SAMPLE_PATIENT,
    first_name: `P${randomUUID().slice(0, 6)}`,
  });
  return res.body.data.id;
}

describe('plans', () => {
  it('lists the plans on sale with premium, cover limits, waiting periods and currency', async () => {
    const res = await c.nurse.api.get('/api/rcm/marketplace/plans?limit=100');
    expect(res.status).toBe(200);
    const kes = res.body.data.find((p: { id: string }) => p.id === KES_PLAN);
    expect(kes).toMatchObject({
      name: 'Outpatient Basic',
      currency: 'KES',
      premium: { amount: '6000.00', currency_code: 'KES' },
      cover_limit: { amount: '50000.00', currency_code: 'KES' },
      coinsurance_percent: 80,
      waiting_period_days: 0,
      term_months: 12,
      preauthorization_threshold: { amount: '20000.00', currency_code: 'KES' },
      payer: { id: SANDBOX_PAYER_ID, name: 'Sandbox Health Mutual', code: 'SANDBOX-HM', payment_terms_days: 30 },
      active: true,
    });
    expect(kes.benefits).toContainEqual({ category: 'laboratory', limit_amount: '10000.00', waiting_period_days: 0 });
    expect(res.body.meta.total).toBeGreaterThanOrEqual(3);

    const ugx = await c.nurse.api.get('/api/rcm/marketplace/plans?currency=UGX');
    expect(ugx.body.data.map((p: { id: string }) => p.id)).toContain(UGX_PLAN);
    expect(ugx.body.data.every((p: { currency: string }) => p.currency === 'UGX')).toBe(true);
    const maternity = await c.nurse.api.get('/api/rcm/marketplace/plans?category=maternity');
    expect(maternity.body.data.map((p: { name: string }) => p.name)).toEqual(['Family Comprehensive']);
    expect((await c.nurse.api.get('/api/rcm/marketplace/plans?currency=kes')).status).toBe(400);
    expect((await c.nurse.api.get('/api/rcm/marketplace/plans?category=spa')).status).toBe(400);
    expect((await c.nurse.api.get('/api/rcm/marketplace/plans?payer_id=x')).status).toBe(400);
    expect((await app.api.get('/api/rcm/marketplace/plans')).status).toBe(401);
  });

  it('are added by platform administrators through GraphQL, with their rules checked', async () => {
    const code = `TEST-${randomUUID().slice(0, 6).toUpperCase()}`;
    const payer = await admin.graphql(
      'mutation($input: CreatePayerInput!) { createPayer(input: $input) { payer { id code paymentTermsDays adapter } userErrors { code } } }',
      {
        input: { name: 'Test Mutual', code, paymentTermsDays: 45, countryCode: 'GH' },
      },
    );
    expect(payer.body.data.createPayer).toEqual({
      payer: { id: expect.any(String), code, paymentTermsDays: 45, adapter: 'sandbox' },
      userErrors: [],
    });
    const plan = (input: Record<string, unknown>) =>
      admin.graphql(
        'mutation($input: CreateInsurancePlanInput!) { createInsurancePlan(input: $input) { id name premium { amount currencyCode } benefits { category limit { amount } } } }',
        {
          input: {
            payerId: payer.body.data.createPayer.payer.id,
            name: 'Ghana Basic',
            currency: 'GHS',
            premium: '240',
            coverLimit: '5000',
            coinsurancePercent: 90,
            benefits: [{ category: 'outpatient', limit: '3000' }],
            ...input,
          },
        },
      );
    const ok = await plan({});
    expect(ok.body.data.createInsurancePlan).toMatchObject({
      premium: { amount: '240.00', currencyCode: 'GHS' },
      benefits: [{ category: 'outpatient', limit: { amount: '3000.00' } }],
    });
    const issue = async (input: Record<string, unknown>) => (await plan(input)).body.errors[0].extensions.details[0].field;
    expect(await issue({ premium: '0' })).toBe('premium');
    expect(await issue({ benefits: [{ category: 'outpatient', limit: '6000' }] })).toBe('benefits.0.limit');
    expect(
      await issue({
        benefits: [
          { category: 'outpatient', limit: '1' },
          { category: 'outpatient', limit: '2' },
        ],
      }),
    ).toBe('benefits.1.category');
    expect(await issue({ coinsurancePercent: 0 })).toBe('coinsurancePercent');
    expect(await issue({ premium: '1.234' })).toBe('premium');
    // A code taken and a bad field are the administrator's to fix: userErrors, the payer null.
    const create = 'mutation($input: CreatePayerInput!) { createPayer(input: $input) { payer { id } userErrors { field message code } } }';
    expect((await admin.graphql(create, { input: { name: 'Again', code } })).body.data.createPayer).toEqual({
      payer: null,
      userErrors: [{ field: null, message: `A payer with code ${code} exists`, code: 'DUPLICATE' }],
    });
    expect((await admin.graphql(create, { input: { name: 'Lower', code: 'lower' } })).body.data.createPayer).toEqual({
      payer: null,
      userErrors: [{ field: ['input', 'code'], message: 'must be 2 to 32 capitals, digits or dashes', code: 'INVALID' }],
    });
    const refused = await c.billing.api.graphql(create, {
      input: { name: 'Mine', code: 'MINE-1' },
    });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('enrollment and policies', () => {
  it('enrolls a patient of the organization: pending until the first premium is paid, then active for the term', async () => {
    const patientId = await newPatient();
    const res = await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      policy_number: expect.stringMatching(/^SANDBOX-HM-\d{6}$/),
      plan_id: KES_PLAN,
      plan: { name: 'Outpatient Basic' },
      payer_id: SANDBOX_PAYER_ID,
      patient_id: patientId,
      organization_id: c.orgId,
      status: 'pending_payment',
      in_force: false,
      premium: { amount: '6000.00', currency_code: 'KES' },
      start_date: null,
      enrolled_by: c.billing.user.id,
    });
    const policyId = res.body.data.id;
    expect((await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId })).status).toBe(409);
    // Pending policies are not active ones.
    const active = await c.billing.api.get(`/api/rcm/marketplace/policies?organization_id=${c.orgId}&limit=100`);
    expect(active.body.data.map((p: { id: string }) => p.id)).not.toContain(policyId);
    const pending = await c.billing.api.get(`/api/rcm/marketplace/policies?organization_id=${c.orgId}&status=pending_payment&limit=100`);
    expect(pending.body.data.map((p: { id: string }) => p.id)).toContain(policyId);

    // The premium, and nothing else, pays it.
    const pay = (body: Record<string, unknown>) =>
      c.billing.api.post('/api/payments/mobile-money/initiate', {
        provider: 'mobile_money_a',
        phone: '+254712345678',
        currency: 'KES',
        amount: '6000',
        order_id: policyId,
        ...body,
      });
    expect((await pay({ amount: '5000' })).body.error.details[0]).toEqual({
      field: 'amount',
      message: 'must be the premium (6000.00 KES)',
    });
    const paid = await pay({});
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ purpose_type: 'premium', purpose_id: policyId });
    await eventually(async () => (await policyOf(policyId)).status === 'active', 'activation');
    const policy = await policyOf(policyId);
    expect(policy).toMatchObject({ startDate: today(), premiumPaymentId: paid.body.data.id });
    const end = new Date(`${today()}T00:00:00Z`);
    expect(policy.endDate! > today()).toBe(true);
    expect(new Date(`${policy.endDate}T00:00:00Z`).getTime() - end.getTime()).toBeGreaterThanOrEqual(364 * 86_400_000);
    expect(await app.em('revenue').count(OutboxEvent, { topic: 'svc.insurance.policy_activated', payload: { policy_id: policyId } })).toBe(
      1,
    );

    const listed = await c.billing.api.get(`/api/rcm/marketplace/policies?organization_id=${c.orgId}&limit=100`);
    expect(listed.body.data.find((p: { id: string }) => p.id === policyId)).toMatchObject({
      status: 'active',
      in_force: true,
      start_date: today(),
    });
    // Paid once: another premium payment for it is refused.
    expect((await pay({ phone: '+254712345600' })).status).toBe(409);
    // Premiums go to the insurer, not to the organization.
    expect(
      (await c.billing.api.get(`/api/organizations/${c.orgId}/payments?limit=100`)).body.data.some(
        (p: { mobile_money_payment_id: string }) => p.mobile_money_payment_id === paid.body.data.id,
      ),
    ).toBe(false);
  });

  it('answers GraphQL clients a policy of the plan already open and a bad field as userErrors, the policy null', async () => {
    const patientId = await newPatient();
    const enroll = `mutation($input: EnrollInPlanInput!) {
      enrollInPlan(input: $input) { insurancePolicy { id status } userErrors { field message code } }
    }`;
    const first = await c.billing.api.graphql(enroll, { input: { planId: KES_PLAN, patientId } });
    expect(first.body.data.enrollInPlan).toEqual({
      insurancePolicy: { id: expect.any(String), status: 'pending_payment' },
      userErrors: [],
    });
    const again = await c.billing.api.graphql(enroll, { input: { planId: KES_PLAN, patientId } });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.enrollInPlan).toEqual({
      insurancePolicy: null,
      userErrors: [
        {
          field: null,
          message: expect.stringMatching(/^The patient already has a pending payment policy of this plan/),
          code: 'BUSINESS_RULE',
        },
      ],
    });
    const bad = await c.billing.api.graphql(enroll, {
      input: { planId: KES_PLAN, patientId: await newPatient(), startDate: '2020-01-01' },
    });
    expect(bad.body.data.enrollInPlan).toEqual({
      insurancePolicy: null,
      userErrors: [{ field: ['input', 'startDate'], message: expect.any(String), code: 'INVALID' }],
    });
  });

  it('lets a patient enroll themselves and pay their own premium', async () => {
    const person = await signUp(app.api, { registration_role: 'PATIENT' });
    const profile = await person.api.post('/api/patients', SAMPLE_PATIENT);
    expect(profile.status).toBe(201);
    const res = await person.api.post('/api/rcm/marketplace/enroll', { plan_id: UGX_PLAN, patient_id: profile.body.data.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organization_id: null,
      status: 'pending_payment',
      premium: { amount: '450000', currency_code: 'UGX' },
    });
    const paid = await person.api.post('/api/payments/mobile-money/initiate', {
      provider: 'mobile_money_b',
      phone: '+256772123456',
      currency: 'UGX',
      amount: 450000,
      order_id: res.body.data.id,
    });
    expect(paid.status).toBe(201);
    await eventually(async () => (await policyOf(res.body.data.id)).status === 'active', 'activation');
    const mine = await person.api.get('/api/rcm/marketplace/policies');
    expect(mine.body.data.map((p: { id: string }) => p.id)).toEqual([res.body.data.id]);
    expect((await person.api.get(`/api/payments/mobile-money/status/${res.body.data.id}`)).body.data.state).toBe('completed');
    // Someone else can neither see nor pay it.
    const other = await signUp(app.api);
    expect((await other.api.get('/api/rcm/marketplace/policies')).body.data).toEqual([]);
    expect((await other.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: profile.body.data.id })).status).toBe(404);
  });

  it('refuses outsiders (404), members without insurance:write (403), bad input (400) and cancels through GraphQL', async () => {
    const patientId = await newPatient();
    expect((await app.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId })).status).toBe(401);
    expect((await stranger.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId })).status).toBe(404);
    expect((await c.nurse.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId })).status).toBe(403);
    expect((await c.nurse.api.get(`/api/rcm/marketplace/policies?organization_id=${c.orgId}`)).status).toBe(403);
    expect((await stranger.api.get(`/api/rcm/marketplace/policies?organization_id=${c.orgId}`)).status).toBe(404);
    const field = async (body: Record<string, unknown>) =>
      (await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId, ...body })).body.error.details[0]
        .field;
    expect(await field({ plan_id: 'x' })).toBe('plan_id');
    expect(await field({ patient_id: 'x' })).toBe('patient_id');
    expect(await field({ start_date: '2020-01-01' })).toBe('start_date');
    expect(await field({ start_date: '2026-02-30' })).toBe('start_date');
    expect((await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: randomUUID(), patient_id: patientId })).status).toBe(404);

    const later = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const policy = (
      await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId, start_date: later })
    ).body.data;
    expect(policy.requested_start_date).toBe(later);
    const cancel = 'mutation($id: ID!) { cancelInsurancePolicy(id: $id) { status cancelledAt } }';
    expect((await c.nurse.api.graphql(cancel, { id: policy.id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await stranger.api.graphql(cancel, { id: policy.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await c.billing.api.graphql(cancel, { id: policy.id })).body.data.cancelInsurancePolicy.status).toBe('cancelled');
    expect((await c.billing.api.graphql(cancel, { id: policy.id })).body.errors[0].extensions.code).toBe('CONFLICT');
    const premium = await c.billing.api.post('/api/payments/mobile-money/initiate', {
      provider: 'mobile_money_a',
      phone: '+254712345678',
      currency: 'KES',
      amount: '6000',
      order_id: policy.id,
    });
    expect(premium.status).toBe(409);
    // Cancelled, the patient may enroll in the plan again.
    expect((await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: patientId })).status).toBe(201);
  });
});
