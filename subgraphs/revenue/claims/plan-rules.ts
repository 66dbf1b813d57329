import { applyRate, fromMinor, toMinor } from '../../../shared/money';
import { addDays, inForceOn, type BenefitCategory, type InsurancePlan, type InsurancePolicy } from '../insurance/insurance.entity';
import { percentToRate } from '../invoices/invoice.service';
import type { ClaimItemRecord, EligibilityBenefitRecord } from './claim.entity';

/**
 * The sandbox payer's rules, as a real payer applies its plan: a line is covered when the policy is in force on its
 * date, the plan covers its category and the waiting periods are over; the payer pays its share (co-insurance) of
 * the line, within what is left of the category's limit and of the overall cover for the term. Claims above the
 * plan's pre-authorization threshold need an approved pre-authorization. Pure: amounts in minor units (bigint).
 */
export type PlanTerms = Pick<
  InsurancePlan,
  'currency' | 'coverLimit' | 'coinsurancePercent' | 'waitingPeriodDays' | 'preauthThreshold' | 'benefits'
>;
export type PolicyTerms = Pick<InsurancePolicy, 'status' | 'startDate' | 'endDate'>;

/** What the policy already used this term: approved amounts of earlier claims, per category (minor units). */
export interface Usage {
  byCategory: Map<BenefitCategory, bigint>;
  total: bigint;
}

export interface LineDecision {
  sequence: number;
  approved: bigint;
  reason: string | null;
}

export interface Adjudication {
  outcome: 'approved' | 'partially_approved' | 'denied';
  approved: bigint;
  lines: LineDecision[];
  reason: string | null;
}

/** The first day a category may be used: the policy start plus the longer of the plan's and the benefit's waits. */
export function waitingEnds(plan: PlanTerms, policy: PolicyTerms, category: BenefitCategory): string | null {
  if (!policy.startDate) return null;
  const benefit = plan.benefits.find((b) => b.category === category);
  return addDays(policy.startDate, Math.max(plan.waitingPeriodDays, benefit?.waitingPeriodDays ?? 0));
}

type Line = Pick<ClaimItemRecord, 'sequence' | 'category' | 'net' | 'servicedDate'>;

export function adjudicate(
  plan: PlanTerms,
  policy: PolicyTerms,
  lines: readonly Line[],
  usage: Usage,
  preauth: { approved: boolean } = { approved: false },
  opts: { ignorePreauthorization?: boolean } = {},
): Adjudication {
  const { currency } = plan;
  const total = lines.reduce((sum, l) => sum + toMinor(l.net, currency), 0n);
  if (!opts.ignorePreauthorization && plan.preauthThreshold && total > toMinor(plan.preauthThreshold, currency) && !preauth.approved) {
    const reason = `pre-authorization required for claims above ${plan.preauthThreshold} ${currency}`;
    return { outcome: 'denied', approved: 0n, reason, lines: lines.map((l) => ({ sequence: l.sequence, approved: 0n, reason })) };
  }
  const usedByCategory = new Map(usage.byCategory);
  let usedTotal = usage.total;
  const cover = toMinor(plan.coverLimit, currency);
  const share = percentToRate(String(plan.coinsurancePercent));
  const decisions = [...lines]
    .sort((a, b) => a.sequence - b.sequence)
    .map((line): LineDecision => {
      const refuse = (reason: string) => ({ sequence: line.sequence, approved: 0n, reason });
      if (!inForceOn(policy, line.servicedDate)) return refuse(`policy not in force on ${line.servicedDate}`);
      const benefit = plan.benefits.find((b) => b.category === line.category);
      if (!benefit) return refuse(`${line.category} is not covered by the plan`);
      const waitEnds = waitingEnds(plan, policy, line.category)!;
      if (line.servicedDate < waitEnds) return refuse(`${line.category} is in its waiting period until ${waitEnds}`);
      const eligible = applyRate(toMinor(line.net, currency), share, currency);
      const categoryLeft = toMinor(benefit.limit, currency) - (usedByCategory.get(line.category) ?? 0n);
      const coverLeft = cover - usedTotal;
      const approved = [eligible, categoryLeft, coverLeft].reduce((a, b) => (b < a ? b : a));
      const paid = approved > 0n ? approved : 0n;
      usedByCategory.set(line.category, (usedByCategory.get(line.category) ?? 0n) + paid);
      usedTotal += paid;
      if (paid === eligible) return { sequence: line.sequence, approved: paid, reason: null };
      return {
        sequence: line.sequence,
        approved: paid,
        reason: categoryLeft <= coverLeft ? `${line.category} limit reached` : 'cover limit reached',
      };
    });
  const approved = decisions.reduce((sum, d) => sum + d.approved, 0n);
  const reasons = [...new Set(decisions.flatMap((d) => (d.reason ? [d.reason] : [])))];
  const outcome = approved === 0n ? 'denied' : reasons.length ? 'partially_approved' : 'approved';
  return { outcome, approved, lines: decisions, reason: reasons.length ? reasons.join('; ') : null };
}

export interface Eligibility {
  inforce: boolean;
  disposition: string | null;
  coverAllowed: string;
  coverUsed: string;
  coverRemaining: string;
  benefits: EligibilityBenefitRecord[];
}

/** Coverage on a date, as a CoverageEligibilityResponse answers it: in force, and each benefit's allowance, use and wait. */
export function eligibility(plan: PlanTerms, policy: PolicyTerms, date: string, usage: Usage): Eligibility {
  const { currency } = plan;
  const money = (minor: bigint) => fromMinor(minor < 0n ? 0n : minor, currency);
  const inforce = inForceOn(policy, date);
  const disposition = inforce
    ? null
    : policy.status !== 'active'
      ? `policy is ${String(policy.status).replace('_', ' ')}`
      : `policy does not cover ${date} (term ${policy.startDate} to ${policy.endDate})`;
  const cover = toMinor(plan.coverLimit, currency);
  return {
    inforce,
    disposition,
    coverAllowed: money(cover),
    coverUsed: money(usage.total),
    coverRemaining: money(cover - usage.total),
    benefits: plan.benefits.map((b) => {
      const limit = toMinor(b.limit, currency);
      const used = usage.byCategory.get(b.category) ?? 0n;
      const ends = waitingEnds(plan, policy, b.category);
      return {
        category: b.category,
        covered: true,
        allowed: money(limit),
        used: money(used),
        remaining: money(limit - used),
        waitingPeriodEndsOn: ends,
        inWaitingPeriod: !!ends && date < ends,
      };
    }),
  };
}
