import { PermanentEventError, type ConsumerDefinition, type PayloadOf } from '../../../shared/events';
import { normalizeAmount, toMinor } from '../../../shared/money';
import { emitEvent } from '../../../shared/outbox';
import { InsurancePolicy, Payer } from '../insurance/insurance.entity';
import { PaymentMethod } from '../payments/payment.entity';
import { recordPayment } from '../payments/payment.ledger';
import { Claim, ClaimStatus, FraudFlag } from './claim.entity';
import { CLAIM_ADJUDICATED, CLAIM_SUBMITTED, FRAUD_FLAGGED, PAYER_CLAIM_RESPONSE } from './claim.events';
import { applyPayerResponse } from './claim.service';
import { amountOutliers, duplicateClaims, servicesAfterPolicyEnd, unbundledPanels } from './fraud';
import { payerAdapter } from './payer-adapter';

/** Hands submitted claims to their payer's adapter, and tells it when its decision has been recorded. */
export const payerGateway: ConsumerDefinition = {
  name: 'payer-gateway',
  description:
    "hands a submitted claim to its payer's adapter (the sandbox payer acknowledges and adjudicates it by the plan's rules) and, once the decision is recorded, lets the payer remit",
  topics: [CLAIM_SUBMITTED.name, CLAIM_ADJUDICATED.name],
  async handle(event, { em }) {
    const claimId = String(event.payload.claim_id ?? '');
    const claim = await em.findOne(Claim, { id: claimId });
    if (!claim) throw new PermanentEventError(`no claim ${claimId}`);
    const payer = await em.findOneOrFail(Payer, { id: claim.payerId });
    const adapter = payerAdapter(payer.adapter);
    if (event.topic === CLAIM_SUBMITTED.name) await adapter.submitClaim(em, claim);
    else await adapter.adjudicationRecorded(em, claim);
  },
};

/** Applies payers' answers to claims; a remittance is also recorded as a payment the organization received. */
export const payerResponses: ConsumerDefinition = {
  name: 'payer-responses',
  description:
    "applies a payer's answer to its claim (in review, approved, partially approved, denied, paid); a remittance is recorded as a payment received",
  topics: [PAYER_CLAIM_RESPONSE.name],
  async handle(event, { em }) {
    const parsed = PAYER_CLAIM_RESPONSE.payload.safeParse(event.payload);
    if (!parsed.success) throw new PermanentEventError(`not a payer response: ${parsed.error.message}`);
    const response = parsed.data as PayloadOf<typeof PAYER_CLAIM_RESPONSE>;
    const claim = await applyPayerResponse(em, response);
    if (!claim || response.kind !== 'paid') return;
    const payer = await em.findOneOrFail(Payer, { id: claim.payerId });
    recordPayment(em, {
      organizationId: claim.organizationId,
      method: PaymentMethod.insurance,
      amount: normalizeAmount(response.paid_amount ?? '0', claim.currency),
      currency: claim.currency,
      patientId: claim.patientId,
      claimId: claim.id,
      reference: response.payment_reference ?? null,
      payerName: payer.name,
      receivedAt: new Date(response.at),
    });
  },
};

/** Screens a submitted claim with the fraud rules (fraud.ts) and records what they find. */
export const claimFraudScreen: ConsumerDefinition = {
  name: 'claim-fraud-screen',
  description:
    'screens a submitted claim for duplicates, amounts far beyond peer providers, services after the policy ended and unbundled panels',
  topics: [CLAIM_SUBMITTED.name],
  async handle(event, { em }) {
    const claim = await em.findOne(Claim, { id: String(event.payload.claim_id ?? '') });
    if (!claim) return;
    const others = await em.find(Claim, { patientId: claim.patientId, id: { $ne: claim.id }, status: { $ne: ClaimStatus.draft } });
    const codes = [...new Set(claim.items.map((i) => i.code))];
    const rows = await em.getConnection().execute<{ organization_id: string; code: string; price: string }[]>(
      `select c.organization_id, item->>'code' as code, item->>'unitPrice' as price
         from "revenue".claims c, jsonb_array_elements(c.items) item
        where c.currency = ? and c.organization_id <> ? and c.status <> 'draft' and item->>'code' in (?)`,
      [claim.currency, claim.organizationId, codes],
      'all',
      em.getTransactionContext(),
    );
    const peers = new Map<string, Map<string, bigint[]>>();
    for (const r of rows) {
      const byProvider = peers.get(r.code) ?? new Map<string, bigint[]>();
      peers.set(r.code, byProvider);
      byProvider.set(r.organization_id, [...(byProvider.get(r.organization_id) ?? []), toMinor(r.price, claim.currency)]);
    }
    const policy = await em.findOne(InsurancePolicy, { id: claim.policyId });
    const screened = { id: claim.id, currency: claim.currency, items: claim.items };
    const findings = [
      ...duplicateClaims(screened, others),
      ...amountOutliers(screened, peers),
      ...(policy ? servicesAfterPolicyEnd(screened, policy) : []),
      ...unbundledPanels(screened),
    ];
    for (const finding of findings) {
      if (await em.count(FraudFlag, { claimId: claim.id, rule: finding.rule, fingerprint: finding.fingerprint })) continue;
      const flag = em.create(FraudFlag, {
        claimId: claim.id,
        organizationId: claim.organizationId,
        patientId: claim.patientId,
        payerId: claim.payerId,
        ...finding,
      });
      emitEvent(em, 'revenue', FRAUD_FLAGGED, {
        flag_id: flag.id,
        claim_id: claim.id,
        organization_id: claim.organizationId,
        payer_id: claim.payerId,
        rule: finding.rule,
        summary: finding.summary,
      });
    }
  },
};
