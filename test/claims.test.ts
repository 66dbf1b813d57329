import { randomUUID } from 'node:crypto';
import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { Claim, ClaimStatus } from '../subgraphs/revenue/claims/claim.entity';
import { InsurancePolicy } from '../subgraphs/revenue/insurance/insurance.entity';
import { sandboxPlanId } from '../subgraphs/revenue/insurance/sandbox-marketplace';
import { SAMPLE_PATIENT, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember, createOrganization } from './support/org';
import { eventually } from './support/wait';

process.env.MOBILE_MONEY_SANDBOX_DELAY_MS = '100';
resetConfig();

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
});
afterAll(() => app.close());

const today = () => new Date().toISOString().slice(0, 10);
const KES_PLAN = sandboxPlanId('outpatient-basic-kes');

async function newPatient(api: Api, orgId: string): Promise<string> {
  const res = await api.post(`/api/organizations/${orgId}/patients`, { ...SAMPLE_PATIENT, first_name: `P${randomUUID().slice(0, 6)}` });
  if (res.status !== 201) throw new Error(`patient: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** A policy of the outpatient plan (premium 6000 KES) for a patient, paid by mobile money so it is active from today. */
async function activePolicy(api: Api, patientId: string, plan = KES_PLAN, premium = '6000'): Promise<string> {
  const enrolled = await api.post('/api/rcm/marketplace/enroll', { plan_id: plan, patient_id: patientId });
  if (enrolled.status !== 201) throw new Error(`enroll: ${enrolled.status} ${enrolled.text}`);
  const policyId = enrolled.body.data.id;
  const paid = await api.post('/api/payments/mobile-money/initiate', {
    provider: 'mobile_money_a',
    phone: '+254712345678',
    amount: premium,
    currency: 'KES',
    order_id: policyId,
  });
  if (paid.status !== 201) throw new Error(`premium: ${paid.status} ${paid.text}`);
  await eventually(
    async () => (await app.em('revenue').findOne(InsurancePolicy, { id: policyId }))?.status === 'active',
    'the policy to become active',
  );
  return policyId;
}

const item = (fields: Record<string, unknown> = {}) => ({
  code: '99213',
  code_system: 'CPT',
  category: 'outpatient',
  description: 'Office visit, established patient',
  quantity: 1,
  unit_price: '2500.00',
  serviced_date: today(),
  ...fields,
});

const claimBody = (patientId: string, policyId: string, fields: Record<string, unknown> = {}) => ({
  organization_id: c.orgId,
  patient_id: patientId,
  policy_id: policyId,
  type: 'professional',
  diagnoses: [{ code: 'j069', display: 'Acute upper respiratory infection' }],
  items: [item()],
  ...fields,
});

const claimOf = (id: string) => app.em('revenue').findOneOrFail(Claim, { id });
const settledClaim = (id: string, status: string) =>
  eventually(async () => (await claimOf(id)).status === status && claimOf(id), `claim ${status}`);

let patientId: string;
let policyId: string;

beforeAll(async () => {
  patientId = await newPatient(c.doctor.api, c.orgId);
  policyId = await activePolicy(c.billing.api, patientId);
});

describe('claims: draft to paid with the sandbox payer', () => {
  it('creates, edits, submits once, and is acknowledged, adjudicated by the plan and paid', async () => {
    const created = await c.billing.api.post(
      '/api/rcm/claims',
      claimBody(patientId, policyId, {
        items: [item(), item({ code: '85025', category: 'laboratory', description: 'CBC', unit_price: '800.50', quantity: 2 })],
      }),
    );
    expect(created.status).toBe(201);
    const claim = created.body.data;
    expect(claim).toMatchObject({
      number: expect.stringMatching(/^CLM-\d{6}$/),
      status: 'draft',
      organization_id: c.orgId,
      patient_id: patientId,
      policy_id: policyId,
      currency: 'KES',
      diagnoses: [{ sequence: 1, code: 'J06.9', display: 'Acute upper respiratory infection' }],
      total: { amount: '4101.00', currency_code: 'KES' },
      paid_amount: { amount: '0.00', currency_code: 'KES' },
      approved_amount: null,
    });
    expect(claim.items[1]).toMatchObject({
      sequence: 2,
      code: '85025',
      net: { amount: '1601.00', currency_code: 'KES' },
      approved_amount: null,
    });

    const edited = await c.billing.api.patch(`/api/rcm/claims/${claim.id}`, { items: [item()], notes: 'Follow-up visit' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      total: { amount: '2500.00', currency_code: 'KES' },
      notes: 'Follow-up visit',
      status: 'draft',
    });

    const submitted = await c.billing.api.post(`/api/rcm/claims/${claim.id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ status: 'submitted', submitted_by: c.billing.user.id, submitted_at: expect.any(String) });
    const twice = await c.billing.api.post(`/api/rcm/claims/${claim.id}/submit`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('CONFLICT');
    const late = await c.billing.api.patch(`/api/rcm/claims/${claim.id}`, { notes: 'too late' });
    expect(late.status).toBe(409);

    const paid = await settledClaim(claim.id, 'paid');
    // The outpatient plan pays 80%: 2000.00 of 2500.00.
    expect(paid).toMatchObject({
      adjudicationOutcome: 'approved',
      approvedAmount: '2000.00',
      paidAmount: '2000.00',
      payerClaimId: expect.stringMatching(/^SBX-CLM-/),
    });
    expect(paid.reviewStartedAt).toBeTruthy();
    const read = (await c.billing.api.get(`/api/rcm/claims/${claim.id}`)).body.data;
    expect(read).toMatchObject({
      status: 'paid',
      adjudication_outcome: 'approved',
      approved_amount: { amount: '2000.00', currency_code: 'KES' },
      paid_amount: { amount: '2000.00', currency_code: 'KES' },
      payment_reference: expect.stringMatching(/^SBX-RA-/),
      payer: { name: 'Sandbox Health Mutual', code: 'SANDBOX-HM' },
    });
    expect(read.items[0].approved_amount).toEqual({ amount: '2000.00', currency_code: 'KES' });
    for (const topic of ['svc.claims.claim_submitted', 'svc.claims.claim_adjudicated', 'svc.claims.claim_paid']) {
      expect(await app.em('revenue').count(OutboxEvent, { topic, payload: { claim_id: claim.id } })).toBe(1);
    }
    // The remittance is a payment the organization received.
    const payments = await c.billing.api.get(`/api/organizations/${c.orgId}/payments?claim_id=${claim.id}`);
    expect(payments.body.data).toEqual([
      expect.objectContaining({
        method: 'insurance',
        amount: { amount: '2000.00', currency_code: 'KES' },
        payer_name: 'Sandbox Health Mutual',
      }),
    ]);
  });

  it('partially approves lines beyond their benefit limit and denies categories the plan does not cover', async () => {
    const p = await newPatient(c.doctor.api, c.orgId);
    const pol = await activePolicy(c.billing.api, p);
    // Laboratory has 10000.00 a term: 80% of 15000.00 is 12000.00, reduced to 10000.00.
    const lab = await c.billing.api.post(
      '/api/rcm/claims',
      claimBody(p, pol, { items: [item({ code: '80053', category: 'laboratory', unit_price: '15000.00' })] }),
    );
    await c.billing.api.post(`/api/rcm/claims/${lab.body.data.id}/submit`);
    const partial = await settledClaim(lab.body.data.id, 'paid');
    expect(partial).toMatchObject({
      adjudicationOutcome: 'partially_approved',
      approvedAmount: '10000.00',
      adjudicationReason: 'laboratory limit reached',
    });
    // Now the laboratory benefit is used up; dental is not in the plan.
    const more = await c.billing.api.post(
      '/api/rcm/claims',
      claimBody(p, pol, {
        items: [
          item({ code: '85025', category: 'laboratory', unit_price: '100' }),
          item({ code: 'D0120', category: 'dental', unit_price: '900' }),
        ],
      }),
    );
    await c.billing.api.post(`/api/rcm/claims/${more.body.data.id}/submit`);
    const denied = await settledClaim(more.body.data.id, 'denied');
    expect(denied.adjudicationReason).toMatch(/laboratory limit reached.*dental is not covered by the plan/);
    expect(denied.paidAmount).toBe('0.00');
  });

  it('denies a claim above the pre-authorization threshold without one, and approves it with one', async () => {
    const p = await newPatient(c.doctor.api, c.orgId);
    const pol = await activePolicy(c.billing.api, p);
    const big = claimBody(p, pol, { items: [item({ unit_price: '12000.00' }), item({ code: '99214', unit_price: '10000.00' })] });
    const without = await c.billing.api.post('/api/rcm/claims', big);
    await c.billing.api.post(`/api/rcm/claims/${without.body.data.id}/submit`);
    expect((await settledClaim(without.body.data.id, 'denied')).adjudicationReason).toMatch(
      /pre-authorization required for claims above 20000.00 KES/,
    );

    const withPreauth = await c.billing.api.post('/api/rcm/claims', big);
    const preauth = await c.billing.api.post(`/api/rcm/claims/${withPreauth.body.data.id}/preauth`);
    expect(preauth.status).toBe(200);
    expect(preauth.body.data).toMatchObject({
      status: 'draft',
      preauth_status: 'approved',
      preauth_number: expect.stringMatching(/^PA-[0-9A-F]{8}$/),
      preauth_amount: { amount: '17600.00', currency_code: 'KES' },
    });
    await c.billing.api.post(`/api/rcm/claims/${withPreauth.body.data.id}/submit`);
    expect(await settledClaim(withPreauth.body.data.id, 'paid')).toMatchObject({ approvedAmount: '17600.00' });
    // Pre-authorization is asked before submission only.
    expect((await c.billing.api.post(`/api/rcm/claims/${withPreauth.body.data.id}/preauth`)).status).toBe(409);
    // Dental alone is not covered: the pre-authorization is denied with the reason.
    const dental = await c.billing.api.post('/api/rcm/claims', claimBody(p, pol, { items: [item({ code: 'D0120', category: 'dental' })] }));
    const refused = await c.billing.api.post(`/api/rcm/claims/${dental.body.data.id}/preauth`);
    expect(refused.body.data).toMatchObject({
      preauth_status: 'denied',
      preauth_number: null,
      preauth_reason: 'dental is not covered by the plan',
    });
  });

  it("files a claim for an organization in one step and lists the organization's claims", async () => {
    const { organization_id: _, ...body } = claimBody(patientId, policyId, { items: [item({ code: '99212', unit_price: '1000' })] });
    const filed = await c.billing.api.post(`/api/organizations/${c.orgId}/claims`, body);
    expect(filed.status).toBe(201);
    expect(filed.body.data.status).toBe('submitted');
    const list = await c.billing.api.get(`/api/organizations/${c.orgId}/claims?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(filed.body.data.id);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    const submittedOnly = await c.billing.api.get(`/api/rcm/claims?organization_id=${c.orgId}&status=draft`);
    expect(submittedOnly.body.data.every((x: { status: string }) => x.status === 'draft')).toBe(true);
    await settledClaim(filed.body.data.id, 'paid');
  });
});

describe('claims: access and validation', () => {
  let draftId: string;
  beforeAll(async () => {
    draftId = (await c.billing.api.post('/api/rcm/claims', claimBody(patientId, policyId))).body.data.id;
  });

  it('answers 401 without a token, 403 to members without claims permissions, 404 to other organizations', async () => {
    expect((await app.api.get('/api/rcm/claims')).status).toBe(401);
    expect((await app.api.post('/api/rcm/claims', claimBody(patientId, policyId))).status).toBe(401);
    expect((await c.nurse.api.get(`/api/rcm/claims/${draftId}`)).status).toBe(403);
    expect((await c.nurse.api.post('/api/rcm/claims', claimBody(patientId, policyId))).status).toBe(403);
    expect((await c.nurse.api.get(`/api/organizations/${c.orgId}/claims`)).status).toBe(403);
    for (const res of [
      await stranger.api.get(`/api/rcm/claims/${draftId}`),
      await stranger.api.patch(`/api/rcm/claims/${draftId}`, { notes: 'x' }),
      await stranger.api.post(`/api/rcm/claims/${draftId}/submit`),
      await stranger.api.post(`/api/rcm/claims/${draftId}/eligibility`),
      await stranger.api.post(`/api/rcm/claims/${draftId}/preauth`),
      await stranger.api.get(`/api/organizations/${c.orgId}/claims`),
      await stranger.api.post('/api/rcm/claims', claimBody(patientId, policyId)),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const listed = await stranger.api.get('/api/rcm/claims');
    expect(listed.body.data).toEqual([]);
    expect((await c.billing.api.get(`/api/rcm/claims/${randomUUID()}`)).status).toBe(404);
    expect((await c.billing.api.get('/api/rcm/claims/not-an-id')).status).toBe(404);
    expect((await stranger.api.get(`/api/rcm/claims?organization_id=${c.orgId}`)).status).toBe(404);
  });

  it('names every bad field', async () => {
    const field = async (fields: Record<string, unknown>) => {
      const res = await c.billing.api.post('/api/rcm/claims', claimBody(patientId, policyId, fields));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return res.body.error.details[0].field;
    };
    expect(await field({ diagnoses: [{ code: 'flu' }] })).toBe('diagnoses.0.code');
    expect(await field({ diagnoses: [] })).toBe('diagnoses');
    expect(await field({ diagnoses: [{ code: 'J06.9' }, { code: 'J069' }] })).toBe('diagnoses.1.code');
    expect(await field({ items: [] })).toBe('items');
    expect(await field({ items: [item({ quantity: 0 })] })).toBe('items.0.quantity');
    expect(await field({ items: [item({ unit_price: '10.001' })] })).toBe('items.0.unit_price');
    expect(await field({ items: [item({ serviced_date: '2099-01-01' })] })).toBe('items.0.serviced_date');
    expect(await field({ items: [item({ category: 'spa' })] })).toBe('items[0].category');
    expect(await field({ items: [item({ code: 'no spaces' })] })).toBe('items.0.code');
    expect(await field({ currency: 'UGX' })).toBe('currency');
    expect(await field({ policy_id: randomUUID() })).toBe('policy_id');
    expect(await field({ policy_id: 'nope' })).toBe('policy_id');
    expect(await field({ practitioner_id: randomUUID() })).toBe('practitioner_id');
    expect(await field({ organization_id: 'nope' })).toBe('organization_id');
    expect(
      (await c.billing.api.post('/api/rcm/claims', { ...claimBody(patientId, policyId), organization_id: undefined })).body.error.details[0]
        .field,
    ).toBe('organization_id');
    // Another patient's policy is not this patient's.
    const other = await newPatient(c.doctor.api, c.orgId);
    expect(await field({ patient_id: other })).toBe('policy_id');
    // A practitioner of the organization is taken.
    const ok = await c.billing.api.post('/api/rcm/claims', claimBody(patientId, policyId, { practitioner_id: c.doctor.user.id }));
    expect(ok.status).toBe(201);
    expect(ok.body.data.practitioner_id).toBe(c.doctor.user.id);
  });
});

describe('eligibility', () => {
  it('answers coverage in force, the plan, benefits used and left, and waiting periods', async () => {
    const draft = (await c.billing.api.post('/api/rcm/claims', claimBody(patientId, policyId))).body.data.id;
    const res = await c.billing.api.post(`/api/rcm/claims/${draft}/eligibility`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      claim_id: draft,
      policy_id: policyId,
      inforce: true,
      serviced_date: today(),
      benefit_period_start: today(),
      plan: { name: 'Outpatient Basic' },
      cover_allowed: { amount: '50000.00', currency_code: 'KES' },
      disposition: null,
    });
    const outpatient = res.body.data.benefits.find((b: { category: string }) => b.category === 'outpatient');
    expect(outpatient).toMatchObject({
      covered: true,
      allowed: { amount: '30000.00', currency_code: 'KES' },
      in_waiting_period: false,
      waiting_period_ends_on: today(),
    });
    expect(Number(outpatient.used.amount)).toBeGreaterThan(0);
    expect(Number(outpatient.used.amount) + Number(outpatient.remaining.amount)).toBe(30000);
    expect((await c.billing.api.get(`/api/rcm/claims/${draft}/eligibility`)).body.data.inforce).toBe(true);
  });

  it('says a policy waiting for its premium is not in force', async () => {
    const p = await newPatient(c.doctor.api, c.orgId);
    const pending = (await c.billing.api.post('/api/rcm/marketplace/enroll', { plan_id: KES_PLAN, patient_id: p })).body.data.id;
    const draft = (await c.billing.api.post('/api/rcm/claims', claimBody(p, pending))).body.data.id;
    const res = await c.billing.api.post(`/api/rcm/claims/${draft}/eligibility`);
    expect(res.body.data).toMatchObject({ inforce: false, disposition: 'policy is pending payment', benefit_period_start: null });
  });
});

describe('fraud flags, analytics and reconciliation', () => {
  it('flags a duplicate claim, unbundled panel codes and services after the policy ended, with the evidence', async () => {
    const p = await newPatient(c.doctor.api, c.orgId);
    const pol = await activePolicy(c.billing.api, p);
    const panel = ['82465', '83718', '84478'].map((code) => item({ code, category: 'laboratory', unit_price: '300' }));
    const first = (await c.billing.api.post(`/api/organizations/${c.orgId}/claims`, { ...claimBody(p, pol), organization_id: undefined }))
      .body.data;
    const second = (
      await c.billing.api.post(`/api/organizations/${c.orgId}/claims`, {
        ...claimBody(p, pol, { items: [item(), ...panel] }),
        organization_id: undefined,
      })
    ).body.data;
    const flags = await eventually(async () => {
      const res = await c.billing.api.get(`/api/rcm/claims/fraud-flags?claim_id=${second.id}`);
      return res.body.data.length >= 2 && res.body.data;
    }, 'flags');
    const duplicate = flags.find((f: { rule: string }) => f.rule === 'duplicate_claim');
    expect(duplicate.evidence).toMatchObject({
      code: '99213',
      serviced_date: today(),
      other_claims: [expect.objectContaining({ claim_id: first.id, number: first.number })],
    });
    const unbundled = flags.find((f: { rule: string }) => f.rule === 'unbundled_codes');
    expect(unbundled.evidence).toMatchObject({ panel_code: '80061', component_codes: ['82465', '83718', '84478'] });
    expect(unbundled.summary).toMatch(/Lipid panel/);

    // The policy ended yesterday (arranged in storage): a service today is after its end.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await app.em('revenue').nativeUpdate(InsurancePolicy, { id: pol }, { endDate: yesterday });
    const after = (
      await c.billing.api.post(`/api/organizations/${c.orgId}/claims`, {
        ...claimBody(p, pol, { items: [item({ code: '99211' })] }),
        organization_id: undefined,
      })
    ).body.data;
    const ended = await eventually(
      async () => (await c.billing.api.get(`/api/rcm/claims/fraud-flags?claim_id=${after.id}&rule=service_after_policy_end`)).body.data[0],
      'flag',
    );
    expect(ended.evidence).toMatchObject({ code: '99211', policy_ended_on: yesterday });
    // The payer agrees: not in force that day.
    expect((await settledClaim(after.id, 'denied')).adjudicationReason).toMatch(/policy not in force/);
    expect((await stranger.api.get('/api/rcm/claims/fraud-flags')).body.data).toEqual([]);
    expect((await c.nurse.api.get(`/api/rcm/claims/fraud-flags?organization_id=${c.orgId}`)).status).toBe(403);
    expect((await c.billing.api.get('/api/rcm/claims/fraud-flags?rule=forgery')).status).toBe(400);
  });

  it("flags a unit price far beyond other providers' for the same code", async () => {
    // Three other providers bill 90999 at 1000 KES.
    for (let i = 0; i < 3; i++) {
      const owner = await signUp(app.api, { registration_role: 'DOCTOR' });
      const org = (await createOrganization(owner.api)).id;
      const p = await newPatient(owner.api, org);
      const pol = await activePolicy(owner.api, p);
      const res = await owner.api.post(`/api/organizations/${org}/claims`, {
        patient_id: p,
        policy_id: pol,
        diagnoses: [{ code: 'Z00.0' }],
        items: [item({ code: '90999', unit_price: '1000' })],
      });
      expect(res.status).toBe(201);
    }
    const p = await newPatient(c.doctor.api, c.orgId);
    const pol = await activePolicy(c.billing.api, p);
    const pricey = (
      await c.billing.api.post(`/api/organizations/${c.orgId}/claims`, {
        ...claimBody(p, pol, { items: [item({ code: '90999', unit_price: '5000' })] }),
        organization_id: undefined,
      })
    ).body.data;
    const flag = await eventually(
      async () => (await c.billing.api.get(`/api/rcm/claims/fraud-flags?claim_id=${pricey.id}&rule=amount_outlier`)).body.data[0],
      'outlier flag',
    );
    expect(flag.evidence).toMatchObject({ code: '90999', unit_price: '5000.00', peer_median_minor_units: '100000', peer_providers: 3 });
  });

  it('reports analytics by insurer and by provider over a period', async () => {
    await eventually(
      async () =>
        (await app
          .em('revenue')
          .count(Claim, { organizationId: c.orgId, status: { $in: [ClaimStatus.submitted, ClaimStatus.in_review] } })) === 0,
      'claims settled',
    );
    const res = await c.billing.api.get(`/api/rcm/claims/analytics/by-insurer?organization_id=${c.orgId}&from=${today()}&to=${today()}`);
    expect(res.status).toBe(200);
    const row = res.body.data.find((r: { payer: { code: string } }) => r.payer.code === 'SANDBOX-HM');
    expect(row).toMatchObject({ currency: 'KES', billed: { currency_code: 'KES' }, average_days_to_payment: expect.any(Number) });
    expect(row.claims).toBe(row.approved_count + row.partially_approved_count + row.denied_count + row.pending_count);
    expect(row.denial_rate).toBeCloseTo(row.denied_count / (row.approved_count + row.partially_approved_count + row.denied_count), 4);
    const claims = await app.em('revenue').find(Claim, { organizationId: c.orgId, submittedAt: { $ne: null } });
    const sum = (key: 'totalAmount' | 'paidAmount') => claims.reduce((s, x) => s + Math.round(Number(x[key]) * 100), 0) / 100;
    expect(Number(row.billed.amount)).toBeCloseTo(sum('totalAmount'), 2);
    expect(Number(row.paid.amount)).toBeCloseTo(sum('paidAmount'), 2);

    const providers = await c.billing.api.get('/api/rcm/claims/analytics/by-provider');
    expect(providers.body.data).toEqual([expect.objectContaining({ organization_id: c.orgId, currency: 'KES', claims: row.claims })]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await c.billing.api.get(`/api/rcm/claims/analytics/by-insurer?from=${tomorrow}`)).body.data).toEqual([]);
    expect((await c.billing.api.get('/api/rcm/claims/analytics/by-insurer?from=2026-13-01')).status).toBe(400);
    expect((await c.billing.api.get(`/api/rcm/claims/analytics/by-insurer?from=${today()}&to=2020-01-01`)).status).toBe(400);
    expect((await stranger.api.get('/api/rcm/claims/analytics/by-provider')).body.data).toEqual([]);
    expect((await app.api.get('/api/rcm/claims/analytics/by-insurer')).status).toBe(401);
  });

  it('reconciles payments against claims: paid, short-paid with the difference, unpaid, overdue', async () => {
    const p = await newPatient(c.doctor.api, c.orgId);
    const pol = await activePolicy(c.billing.api, p);
    const file = async (unit: string) =>
      (
        await c.billing.api.post(`/api/organizations/${c.orgId}/claims`, {
          ...claimBody(p, pol, { items: [item({ unit_price: unit })], notes: 'Held by the payer [sandbox:no-remittance]' }),
          organization_id: undefined,
        })
      ).body.data.id as string;
    const short = await file('1000');
    const unpaid = await file('2000');
    const overdue = await file('3000');
    for (const id of [short, unpaid, overdue]) await settledClaim(id, 'approved');
    // The payer transfers less than it approved for one claim; another was submitted long ago.
    const transfer = await c.billing.api.post(`/api/organizations/${c.orgId}/payments`, {
      amount: '700',
      currency: 'KES',
      method: 'bank_transfer',
      claim_id: short,
      reference: 'EFT-77',
    });
    expect(transfer.status).toBe(201);
    await app.em('revenue').nativeUpdate(Claim, { id: overdue }, { submittedAt: new Date(Date.now() - 45 * 86_400_000) });

    const report = await c.billing.api.get(`/api/rcm/claims/reconciliation?organization_id=${c.orgId}&limit=100`);
    expect(report.status).toBe(200);
    const line = (id: string) => report.body.data.lines.find((l: { claim_id: string }) => l.claim_id === id);
    expect(line(short)).toMatchObject({
      status: 'short_paid',
      claim_status: 'paid',
      expected: { amount: '800.00' },
      paid: { amount: '700.00' },
      difference: { amount: '100.00', currency_code: 'KES' },
    });
    expect(line(unpaid)).toMatchObject({
      status: 'unpaid',
      claim_status: 'approved',
      difference: { amount: '1600.00' },
      days_overdue: null,
    });
    expect(line(overdue)).toMatchObject({ status: 'overdue', days_overdue: 15 });
    const kes = report.body.data.summary.find((s: { currency: string }) => s.currency === 'KES');
    expect(kes.short_paid_count).toBeGreaterThanOrEqual(1);
    expect(kes.overdue_count).toBeGreaterThanOrEqual(1);
    const onlyShort = await c.billing.api.get(`/api/rcm/claims/reconciliation?organization_id=${c.orgId}&status=short_paid`);
    expect(onlyShort.body.data.lines.every((l: { status: string }) => l.status === 'short_paid')).toBe(true);
    // A claim that is not approved takes no payment.
    const draft = (await c.billing.api.post('/api/rcm/claims', claimBody(p, pol))).body.data.id;
    expect(
      (
        await c.billing.api.post(`/api/organizations/${c.orgId}/payments`, {
          amount: '1',
          currency: 'KES',
          method: 'cash',
          claim_id: draft,
        })
      ).status,
    ).toBe(409);
    expect((await c.nurse.api.get(`/api/rcm/claims/reconciliation?organization_id=${c.orgId}`)).status).toBe(403);
  });
});

describe('claims through GraphQL', () => {
  it('creates and reads a claim with its payer, policy and patient', async () => {
    const create = await c.billing.api.graphql(
      `mutation($org: ID!, $input: CreateClaimInput!) { createClaim(organizationId: $org, input: $input) { id status total { amount currencyCode } payer { code } policy { policyNumber } patient { id } } }`,
      {
        org: c.orgId,
        input: {
          patientId,
          policyId,
          diagnoses: [{ code: 'A09' }],
          items: [{ code: '99213', category: 'outpatient', description: 'Visit', unitPrice: '1500', servicedDate: today() }],
        },
      },
    );
    expect(create.body.errors).toBeUndefined();
    expect(create.body.data.createClaim).toMatchObject({
      status: 'draft',
      total: { amount: '1500.00', currencyCode: 'KES' },
      payer: { code: 'SANDBOX-HM' },
      patient: { id: patientId },
    });
    const missing = await c.billing.api.graphql('query($id: ID!) { claim(id: $id) { id } }', { id: randomUUID() });
    expect(missing.body.data.claim).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const submit = await c.billing.api.graphql('mutation($id: ID!) { submitClaim(id: $id) { status } }', {
      id: create.body.data.createClaim.id,
    });
    expect(submit.body.data.submitClaim.status).toBe('submitted');
    const again = await c.billing.api.graphql('mutation($id: ID!) { submitClaim(id: $id) { status } }', {
      id: create.body.data.createClaim.id,
    });
    expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it('links reconciliation lines and payments to their claims, only for claims:read members', async () => {
    const query = `query($org: ID!) {
      claimReconciliation(organizationId: $org, limit: 5) { lines { claimId claim { id number } payer { code } organization { id } } }
      organizationPayments(organizationId: $org, method: insurance, limit: 5) { items { claimId claim { id } } }
    }`;
    const res = await c.billing.api.graphql(query, { org: c.orgId });
    expect(res.body.errors).toBeUndefined();
    const line = res.body.data.claimReconciliation.lines[0];
    expect(line).toMatchObject({ claim: { id: line.claimId }, payer: { code: 'SANDBOX-HM' }, organization: { id: c.orgId } });
    const payment = res.body.data.organizationPayments.items[0];
    expect(payment.claim).toEqual({ id: payment.claimId });
    // A receptionist reads payments, not claims.
    const receptionist = await signUp(app.api, { registration_role: 'STAFF' });
    await addMember(app, c.orgId, receptionist.user.id, 'ORG:RECEPTIONIST');
    const theirs = await receptionist.api.graphql(
      'query($org: ID!) { organizationPayments(organizationId: $org, method: insurance, limit: 5) { items { claimId claim { id } } } }',
      { org: c.orgId },
    );
    expect(theirs.body.data.organizationPayments.items[0]).toEqual({ claimId: payment.claimId, claim: null });
  });
});
