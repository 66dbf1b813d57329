import { randomBytes } from 'node:crypto';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { fromMinor, toMinor } from '../../../shared/money';
import { emitEvent } from '../../../shared/outbox';
import { BenefitCategory, InsurancePlan, InsurancePolicy, PayerAdapterKind } from '../insurance/insurance.entity';
import { ADJUDICATED, Claim, ClaimStatus, PreauthorizationStatus } from './claim.entity';
import { PAYER_CLAIM_RESPONSE } from './claim.events';
import type { PayerAdapter, PreauthorizationAnswer } from './payer-adapter';
import { adjudicate, eligibility, type Usage } from './plan-rules';

/** Notes containing this make the sandbox payer approve without ever remitting (to try reconciliation). */
export const NO_REMITTANCE = '[sandbox:no-remittance]';

const code = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex').toUpperCase()}`;

/**
 * What the policy used so far this term: the approved amounts of its other adjudicated claims, per category.
 * Denied lines approve nothing, so they use nothing.
 */
export async function policyUsage(em: EntityManager, policyId: string, exceptClaimId: string | null, currency: string): Promise<Usage> {
  const claims = await em.find(Claim, {
    policyId,
    status: { $in: ADJUDICATED.filter((s) => s !== ClaimStatus.denied) },
    ...(exceptClaimId ? { id: { $ne: exceptClaimId } } : {}),
  });
  const byCategory = new Map<BenefitCategory, bigint>();
  let total = 0n;
  for (const claim of claims) {
    for (const item of claim.items) {
      const approved = item.approvedAmount ? toMinor(item.approvedAmount, currency) : 0n;
      byCategory.set(item.category, (byCategory.get(item.category) ?? 0n) + approved);
      total += approved;
    }
  }
  return { byCategory, total };
}

async function termsOf(em: EntityManager, claim: Claim) {
  const policy = await em.findOneOrFail(InsurancePolicy, { id: claim.policyId });
  const plan = await em.findOneOrFail(InsurancePlan, { id: policy.planId });
  return { policy, plan };
}

/**
 * The sandbox payer: behaves like a clearing house on the event bus. A submitted claim is acknowledged and
 * adjudicated by its plan's rules (plan-rules.ts); once the platform has recorded the decision, an approved claim
 * is remitted in full (unless its notes carry NO_REMITTANCE). Eligibility and pre-authorization answer at once from the same rules.
 */
export class SandboxPayer implements PayerAdapter {
  readonly kind = PayerAdapterKind.sandbox;

  async submitClaim(em: EntityManager, claim: Claim): Promise<void> {
    const { policy, plan } = await termsOf(em, claim);
    const payerClaimId = `SBX-${claim.number}-${randomBytes(3).toString('hex').toUpperCase()}`;
    const at = clock.now().toISOString();
    const base = { claim_id: claim.id, payer_id: claim.payerId, payer_claim_id: payerClaimId, currency: claim.currency, at };
    emitEvent(em, 'revenue', PAYER_CLAIM_RESPONSE, { ...base, kind: 'acknowledged' });
    const usage = await policyUsage(em, policy.id, claim.id, claim.currency);
    const decision = adjudicate(plan, policy, claim.items, usage, { approved: claim.preauthStatus === PreauthorizationStatus.approved });
    emitEvent(em, 'revenue', PAYER_CLAIM_RESPONSE, {
      ...base,
      kind: 'adjudicated',
      outcome: decision.outcome,
      approved_amount: fromMinor(decision.approved, claim.currency),
      lines: decision.lines.map((l) => ({
        sequence: l.sequence,
        approved_amount: fromMinor(l.approved, claim.currency),
        reason: l.reason,
      })),
      reason: decision.reason,
    });
  }

  async adjudicationRecorded(em: EntityManager, claim: Claim): Promise<void> {
    if (claim.status !== ClaimStatus.approved && claim.status !== ClaimStatus.partially_approved) return;
    // A documented test switch, like a payment sandbox's test cards: a payer that approves and then never pays.
    if (claim.notes?.includes(NO_REMITTANCE)) return;
    emitEvent(em, 'revenue', PAYER_CLAIM_RESPONSE, {
      claim_id: claim.id,
      payer_id: claim.payerId,
      payer_claim_id: claim.payerClaimId ?? `SBX-${claim.number}`,
      kind: 'paid',
      paid_amount: claim.approvedAmount ?? fromMinor(0n, claim.currency),
      payment_reference: code('SBX-RA'),
      currency: claim.currency,
      at: clock.now().toISOString(),
    });
  }

  async checkEligibility(em: EntityManager, claim: Claim, date: string) {
    const { policy, plan } = await termsOf(em, claim);
    return eligibility(plan, policy, date, await policyUsage(em, policy.id, claim.id, claim.currency));
  }

  async requestPreauthorization(em: EntityManager, claim: Claim): Promise<PreauthorizationAnswer> {
    const { policy, plan } = await termsOf(em, claim);
    const usage = await policyUsage(em, policy.id, claim.id, claim.currency);
    const decision = adjudicate(plan, policy, claim.items, usage, undefined, { ignorePreauthorization: true });
    if (decision.approved === 0n) return { status: PreauthorizationStatus.denied, number: null, amount: null, reason: decision.reason };
    return {
      status: PreauthorizationStatus.approved,
      number: code('PA'),
      amount: fromMinor(decision.approved, claim.currency),
      reason: decision.reason,
    };
  }
}
