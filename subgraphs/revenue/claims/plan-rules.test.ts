import { BenefitCategory, PolicyStatus } from '../insurance/insurance.entity';
import { adjudicate, eligibility, type PlanTerms, type PolicyTerms, type Usage } from './plan-rules';

const plan: PlanTerms = {
  currency: 'KES',
  coverLimit: '50000.00',
  coinsurancePercent: 80,
  waitingPeriodDays: 0,
  preauthThreshold: '20000.00',
  benefits: [
    { category: BenefitCategory.outpatient, limit: '30000.00', waitingPeriodDays: 0 },
    { category: BenefitCategory.laboratory, limit: '10000.00', waitingPeriodDays: 0 },
    { category: BenefitCategory.maternity, limit: '40000.00', waitingPeriodDays: 300 },
  ],
};
const policy: PolicyTerms = { status: PolicyStatus.active, startDate: '2026-01-01', endDate: '2026-12-31' };
const none: Usage = { byCategory: new Map(), total: 0n };
const line = (sequence: number, category: BenefitCategory, net: string, servicedDate = '2026-03-01') => ({
  sequence,
  category,
  net,
  servicedDate,
});

describe("adjudicate (the sandbox payer's plan rules)", () => {
  it("pays the insurer's share of covered lines, rounded half-even", () => {
    const r = adjudicate(
      plan,
      policy,
      [line(1, BenefitCategory.outpatient, '2500.00'), line(2, BenefitCategory.laboratory, '100.05')],
      none,
    );
    expect(r.outcome).toBe('approved');
    expect(r.lines.map((l) => l.approved)).toEqual([200000n, 8004n]);
    expect(r.approved).toBe(208004n);
    expect(r.reason).toBeNull();
  });

  it('reduces a line to what is left of its category and of the cover', () => {
    const used: Usage = { byCategory: new Map([[BenefitCategory.laboratory, 900000n]]), total: 4900000n };
    const r = adjudicate(plan, policy, [line(1, BenefitCategory.laboratory, '5000.00')], used);
    // Laboratory has 1000.00 left, the cover 1000.00: 80% of 5000.00 is cut to 1000.00.
    expect(r).toMatchObject({ outcome: 'partially_approved', approved: 100000n });
    expect(r.lines[0].reason).toMatch(/limit reached/);
    const empty = adjudicate(plan, policy, [line(1, BenefitCategory.outpatient, '10.00')], { byCategory: new Map(), total: 5000000n });
    expect(empty).toMatchObject({ outcome: 'denied', approved: 0n, reason: 'cover limit reached' });
  });

  it('refuses lines outside the term, outside the plan, or in a waiting period', () => {
    const r = adjudicate(
      plan,
      policy,
      [
        line(1, BenefitCategory.outpatient, '100.00', '2027-01-01'),
        line(2, BenefitCategory.dental, '100.00'),
        line(3, BenefitCategory.maternity, '100.00', '2026-06-01'),
        line(4, BenefitCategory.outpatient, '100.00'),
      ],
      none,
    );
    expect(r.outcome).toBe('partially_approved');
    expect(r.lines.map((l) => l.reason)).toEqual([
      'policy not in force on 2027-01-01',
      'dental is not covered by the plan',
      'maternity is in its waiting period until 2026-10-28',
      null,
    ]);
    expect(
      adjudicate(plan, { ...policy, status: PolicyStatus.cancelled }, [line(1, BenefitCategory.outpatient, '1.00')], none).outcome,
    ).toBe('denied');
  });

  it('needs an approved pre-authorization above the threshold', () => {
    const big = [line(1, BenefitCategory.outpatient, '20000.01')];
    expect(adjudicate(plan, policy, big, none).reason).toMatch(/pre-authorization required/);
    expect(adjudicate(plan, policy, big, none, { approved: true }).outcome).toBe('approved');
    expect(adjudicate(plan, policy, big, none, undefined, { ignorePreauthorization: true }).approved).toBe(1600001n);
    expect(adjudicate(plan, policy, [line(1, BenefitCategory.outpatient, '20000.00')], none).outcome).toBe('approved');
  });
});

describe('eligibility', () => {
  it('answers in force, allowed, used, remaining and waiting periods', () => {
    const e = eligibility(plan, policy, '2026-03-01', { byCategory: new Map([[BenefitCategory.outpatient, 250000n]]), total: 250000n });
    expect(e).toMatchObject({
      inforce: true,
      disposition: null,
      coverAllowed: '50000.00',
      coverUsed: '2500.00',
      coverRemaining: '47500.00',
    });
    expect(e.benefits.find((b) => b.category === BenefitCategory.outpatient)).toMatchObject({
      allowed: '30000.00',
      used: '2500.00',
      remaining: '27500.00',
      inWaitingPeriod: false,
    });
    expect(e.benefits.find((b) => b.category === BenefitCategory.maternity)).toMatchObject({
      waitingPeriodEndsOn: '2026-10-28',
      inWaitingPeriod: true,
    });
    expect(eligibility(plan, { status: PolicyStatus.pending_payment, startDate: null, endDate: null }, '2026-03-01', none)).toMatchObject({
      inforce: false,
      disposition: 'policy is pending payment',
    });
    expect(eligibility(plan, policy, '2027-02-01', none).disposition).toBe(
      'policy does not cover 2027-02-01 (term 2026-01-01 to 2026-12-31)',
    );
  });
});
