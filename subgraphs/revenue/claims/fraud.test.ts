import { FraudRule } from './claim.entity';
import { amountOutliers, duplicateClaims, median, servicesAfterPolicyEnd, unbundledPanels } from './fraud';

const claim = (items: { code: string; servicedDate: string; unitPrice?: string }[]) => ({
  id: 'c1',
  currency: 'KES',
  items: items.map((i) => ({ unitPrice: '100.00', ...i })),
});

describe('fraud rules', () => {
  it('finds the same patient, code and date on another claim, once per code and date', () => {
    const found = duplicateClaims(
      claim([
        { code: '99213', servicedDate: '2026-03-01' },
        { code: '99213', servicedDate: '2026-03-01' },
        { code: '85025', servicedDate: '2026-03-01' },
      ]),
      [
        { id: 'c0', number: 'CLM-000001', organizationId: 'o1', items: [{ code: '99213', servicedDate: '2026-03-01' }] },
        { id: 'c2', number: 'CLM-000007', organizationId: 'o2', items: [{ code: '99213', servicedDate: '2026-03-02' }] },
      ],
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      rule: FraudRule.duplicate_claim,
      fingerprint: '99213|2026-03-01',
      evidence: { other_claims: [{ claim_id: 'c0', number: 'CLM-000001', organization_id: 'o1' }] },
    });
  });

  it('compares a unit price with the median of enough peer providers', () => {
    expect(median([5n, 1n, 3n])).toBe(3n);
    expect(median([4n, 1n, 3n, 2n])).toBe(2n);
    const peers = new Map([
      [
        '99213',
        new Map([
          ['a', [10000n]],
          ['b', [9000n, 11000n]],
          ['c', [12000n]],
        ]),
      ],
    ]);
    expect(amountOutliers(claim([{ code: '99213', servicedDate: '2026-03-01', unitPrice: '300.01' }]), peers)).toHaveLength(1);
    expect(amountOutliers(claim([{ code: '99213', servicedDate: '2026-03-01', unitPrice: '300.00' }]), peers)).toEqual([]);
    const few = new Map([
      [
        '99213',
        new Map([
          ['a', [100n]],
          ['b', [100n]],
        ]),
      ],
    ]);
    expect(amountOutliers(claim([{ code: '99213', servicedDate: '2026-03-01', unitPrice: '9000' }]), few)).toEqual([]);
  });

  it('finds services after the policy ended or was cancelled', () => {
    const items = claim([
      { code: 'A', servicedDate: '2026-03-01' },
      { code: 'B', servicedDate: '2026-04-02' },
    ]);
    expect(servicesAfterPolicyEnd(items, { endDate: '2026-12-31', policyNumber: 'P-1' })).toEqual([]);
    expect(servicesAfterPolicyEnd(items, { endDate: '2026-03-31', policyNumber: 'P-1' }).map((f) => f.fingerprint)).toEqual([
      'B|2026-04-02',
    ]);
    expect(
      servicesAfterPolicyEnd(items, { endDate: '2026-12-31', cancelledAt: new Date('2026-02-15T10:00:00Z'), policyNumber: 'P-1' }),
    ).toHaveLength(2);
  });

  it('finds a panel billed as its components on one date, naming the largest panel only', () => {
    const lipid = ['82465', '83718', '84478'].map((code) => ({ code, servicedDate: '2026-03-01' }));
    expect(unbundledPanels(claim(lipid))[0].evidence).toMatchObject({ panel_code: '80061' });
    expect(unbundledPanels(claim([...lipid, { code: '80061', servicedDate: '2026-03-01' }]))).toEqual([]);
    expect(unbundledPanels(claim(lipid.map((i, n) => ({ ...i, servicedDate: `2026-03-0${n + 1}` }))))).toEqual([]);
    const cmp = [
      '82040',
      '82247',
      '82310',
      '82374',
      '82435',
      '82565',
      '82947',
      '84075',
      '84132',
      '84155',
      '84295',
      '84450',
      '84460',
      '84520',
    ].map((code) => ({ code, servicedDate: '2026-03-01' }));
    expect(unbundledPanels(claim(cmp)).map((f) => f.evidence.panel_code)).toEqual(['80053']);
  });
});
