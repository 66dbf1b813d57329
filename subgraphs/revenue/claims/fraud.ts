import { toMinor } from '../../../shared/money';
import type { ClaimItemRecord } from './claim.entity';
import { FraudRule } from './claim.entity';
import rules from './data/fraud-rules.json';

/**
 * Fraud rules applied to a claim when it is submitted (data/fraud-rules.json names the sources). Pure: the caller
 * gathers the claims and prices to compare with. Each finding has a fingerprint, so screening a claim again adds
 * nothing twice.
 */
export interface Finding {
  rule: FraudRule;
  fingerprint: string;
  summary: string;
  evidence: Record<string, unknown>;
}

type Item = Pick<ClaimItemRecord, 'code' | 'servicedDate' | 'unitPrice'>;

export interface ScreenedClaim {
  id: string;
  currency: string;
  items: readonly Item[];
}

export interface OtherClaim {
  id: string;
  number: string;
  organizationId: string;
  items: readonly Pick<ClaimItemRecord, 'code' | 'servicedDate'>[];
}

/** The same patient billed for the same code on the same date on another (non-draft) claim. */
export function duplicateClaims(claim: ScreenedClaim, others: readonly OtherClaim[]): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const item of claim.items) {
    const key = `${item.code}|${item.servicedDate}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const matches = others.filter(
      (o) => o.id !== claim.id && o.items.some((i) => i.code === item.code && i.servicedDate === item.servicedDate),
    );
    if (!matches.length) continue;
    findings.push({
      rule: FraudRule.duplicate_claim,
      fingerprint: key,
      summary: `${item.code} on ${item.servicedDate} is also billed on ${matches.map((m) => m.number).join(', ')}`,
      evidence: {
        code: item.code,
        serviced_date: item.servicedDate,
        other_claims: matches.map((m) => ({ claim_id: m.id, number: m.number, organization_id: m.organizationId })),
      },
    });
  }
  return findings;
}

/** The median of non-empty minor amounts (the lower middle for an even count, so no rounding is needed). */
export function median(values: readonly bigint[]): bigint {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * A unit price more than `factor` times the median of other providers' for the same code and currency. Each peer
 * provider counts once (its own median), and at least `minPeers` providers must have billed the code.
 */
export function amountOutliers(
  claim: ScreenedClaim,
  peerPrices: ReadonlyMap<string, ReadonlyMap<string, readonly bigint[]>>,
  opts: { factor: string; minPeers: number } = rules.outlier,
): Finding[] {
  const findings: Finding[] = [];
  const factor = BigInt(Math.round(Number(opts.factor) * 100));
  for (const item of claim.items) {
    const byProvider = peerPrices.get(item.code);
    if (!byProvider || byProvider.size < opts.minPeers) continue;
    const peerMedian = median([...byProvider.values()].map((prices) => median(prices)));
    const price = toMinor(item.unitPrice, claim.currency);
    if (price * 100n <= peerMedian * factor) continue;
    if (findings.some((f) => f.fingerprint === item.code)) continue;
    findings.push({
      rule: FraudRule.amount_outlier,
      fingerprint: item.code,
      summary: `${item.code} billed at ${item.unitPrice} ${claim.currency}, over ${opts.factor} times the median of ${byProvider.size} other providers`,
      evidence: {
        code: item.code,
        unit_price: item.unitPrice,
        currency: claim.currency,
        peer_median_minor_units: peerMedian.toString(),
        peer_providers: byProvider.size,
        factor: opts.factor,
      },
    });
  }
  return findings;
}

/** Services dated after the policy's last day (or after it was cancelled). */
export function servicesAfterPolicyEnd(
  claim: ScreenedClaim,
  policy: { endDate?: string | null; cancelledAt?: Date | null; policyNumber: string },
): Finding[] {
  const cancelledOn = policy.cancelledAt ? policy.cancelledAt.toISOString().slice(0, 10) : null;
  const ended = [policy.endDate, cancelledOn].filter((d): d is string => !!d).sort()[0];
  if (!ended) return [];
  return claim.items
    .filter((i) => i.servicedDate > ended)
    .filter((i, n, all) => all.findIndex((o) => o.code === i.code && o.servicedDate === i.servicedDate) === n)
    .map((i) => ({
      rule: FraudRule.service_after_policy_end,
      fingerprint: `${i.code}|${i.servicedDate}`,
      summary: `${i.code} on ${i.servicedDate}, after policy ${policy.policyNumber} ended on ${ended}`,
      evidence: { code: i.code, serviced_date: i.servicedDate, policy_ended_on: ended, policy_number: policy.policyNumber },
    }));
}

/** Every component of a panel billed separately on one date, without the panel's own code. */
export function unbundledPanels(claim: ScreenedClaim, panels = rules.panels): Finding[] {
  const findings: Finding[] = [];
  const dates = [...new Set(claim.items.map((i) => i.servicedDate))];
  for (const date of dates) {
    const codes = new Set(claim.items.filter((i) => i.servicedDate === date).map((i) => i.code));
    for (const panel of panels) {
      if (codes.has(panel.code) || !panel.components.every((c) => codes.has(c))) continue;
      findings.push({
        rule: FraudRule.unbundled_codes,
        fingerprint: `${panel.code}|${date}`,
        summary: `the components of ${panel.code} (${panel.name}) are billed separately on ${date}`,
        evidence: { panel_code: panel.code, panel_name: panel.name, component_codes: panel.components, serviced_date: date },
      });
    }
  }
  // A smaller panel inside a larger one found on the same date says the same thing twice: keep the larger.
  return findings.filter(
    (f) =>
      !findings.some(
        (g) =>
          g !== f &&
          g.evidence.serviced_date === f.evidence.serviced_date &&
          (g.evidence.component_codes as string[]).length > (f.evidence.component_codes as string[]).length &&
          (f.evidence.component_codes as string[]).every((c) => (g.evidence.component_codes as string[]).includes(c)),
      ),
  );
}
