/**
 * The CDC Early Aberration Reporting System (EARS) C1, C2 and C3 statistics over a daily count series, as defined by
 * Hutwagner et al. (J Urban Health 2003;80 Suppl 1:i89-96) and restated by Fricker, Hegler & Dunfee (Stat Med
 * 2008;27:3407-29) and the R package `surveillance` (earsC):
 *
 * - C1-MILD: the baseline is the 7 days before day t (t-7 .. t-1); C1 = (Y(t) - mean) / sd; alert when C1 > 3.
 * - C2-MEDIUM: the same with a 2-day lag, baseline t-9 .. t-3; C2 = (Y(t) - mean) / sd; alert when C2 > 3.
 * - C3-ULTRA: C3 = sum over i = t-2 .. t of max(0, C2(i) - 1); alert when C3 > 2.
 *
 * `sd` is the sample standard deviation of the 7 baseline days, floored at `minSigma` so a quiet baseline (all
 * zeros: sd 0) does not divide by zero, and a single case after it does not alert by itself. The floor is 0.5, the
 * value Howard Burkom recommends for sparse counts (documented with earsC's `minSigma`): with it a flat series never
 * alerts, and a burst of 2 or more cases after a quiet week does. Thresholds 3 and 2 are CDC's fixed cut-offs (the
 * R package's normal quantiles for alpha 0.001 and 0.025 are 3.09 and 1.96).
 */
export type EarsMethod = 'c1' | 'c2' | 'c3';

export const EARS = {
  baselineDays: 7,
  /** Days between the baseline's last day and the day assessed, per method (C3 uses C2's). */
  lag: { c1: 0, c2: 2, c3: 2 } as Record<EarsMethod, number>,
  threshold: { c1: 3, c2: 3, c3: 2 } as Record<EarsMethod, number>,
  minSigma: 0.5,
} as const;

/** Days of history before day t that each method reads: C1 7, C2 9, C3 11 (C2 on t-2 reaches back to t-11). */
export const HISTORY_DAYS: Record<EarsMethod, number> = {
  c1: EARS.baselineDays,
  c2: EARS.baselineDays + EARS.lag.c2,
  c3: EARS.baselineDays + EARS.lag.c2 + 2,
};

export interface EarsResult {
  method: EarsMethod;
  /** The count on the day assessed. */
  observed: number;
  /** Mean and sample standard deviation of the baseline days (for C3: the C2 baseline of day t). */
  mean: number;
  sd: number;
  /** The standard deviation used: sd, or minSigma when sd is smaller. */
  sigma: number;
  /** Offsets of the baseline's first and last day from day t (negative: days before). */
  baselineFrom: number;
  baselineTo: number;
  statistic: number;
  threshold: number;
  /** The largest count of day t that does not alert (given the baseline, and for C3 the two days before). */
  upperBound: number;
  alert: boolean;
}

function meanSd(values: number[]): { mean: number; sd: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

/** C1 or C2 at index t of `series` (oldest first), or null when the series does not reach back far enough. */
function shewhart(series: readonly number[], t: number, method: 'c1' | 'c2'): EarsResult | null {
  const lag = EARS.lag[method];
  const baselineTo = -(1 + lag);
  const baselineFrom = baselineTo - (EARS.baselineDays - 1);
  if (t + baselineFrom < 0 || t >= series.length) return null;
  const baseline = series.slice(t + baselineFrom, t + baselineTo + 1);
  const { mean, sd } = meanSd(baseline);
  const sigma = Math.max(sd, EARS.minSigma);
  const observed = series[t];
  const statistic = (observed - mean) / sigma;
  const threshold = EARS.threshold[method];
  return {
    method,
    observed,
    mean,
    sd,
    sigma,
    baselineFrom,
    baselineTo,
    statistic,
    threshold,
    upperBound: mean + threshold * sigma,
    alert: statistic > threshold,
  };
}

export function c1(series: readonly number[], t: number): EarsResult | null {
  return shewhart(series, t, 'c1');
}

export function c2(series: readonly number[], t: number): EarsResult | null {
  return shewhart(series, t, 'c2');
}

export function c3(series: readonly number[], t: number): EarsResult | null {
  const today = c2(series, t);
  const yesterday = c2(series, t - 1);
  const before = c2(series, t - 2);
  if (!today || !yesterday || !before) return null;
  const excess = (r: EarsResult) => Math.max(0, r.statistic - 1);
  const lagged = excess(yesterday) + excess(before);
  const statistic = lagged + excess(today);
  const threshold = EARS.threshold.c3;
  return {
    ...today,
    method: 'c3',
    statistic,
    threshold,
    // Day t alerts when max(0, C2(t) - 1) > threshold - lagged, that is when Y(t) > mean + sigma (1 + threshold - lagged).
    upperBound: Math.max(0, today.mean + today.sigma * (1 + threshold - lagged)),
    alert: statistic > threshold,
  };
}

/** Every method that can be computed at index t. */
export function earsAt(series: readonly number[], t: number): EarsResult[] {
  return [c1(series, t), c2(series, t), c3(series, t)].filter((r): r is EarsResult => r !== null);
}
