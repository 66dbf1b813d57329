import { c1, c2, c3, EARS, earsAt, HISTORY_DAYS } from './ears';

const last = (series: number[]) => series.length - 1;
const alerts = (series: number[]) =>
  earsAt(series, last(series))
    .filter((r) => r.alert)
    .map((r) => r.method);

describe('EARS C1, C2 and C3', () => {
  it('never alerts on a flat series, whatever its level (the sd floor stands in for a zero sd)', () => {
    for (const level of [0, 1, 4, 25]) {
      const series = Array(14).fill(level);
      for (let t = 0; t < series.length; t++) expect(earsAt(series, t).filter((r) => r.alert)).toEqual([]);
    }
  });

  it('alerts on a burst after a quiet week, on all three methods', () => {
    const series = [...Array(11).fill(0), 5];
    expect(alerts(series)).toEqual(['c1', 'c2', 'c3']);
    const r = c1(series, last(series))!;
    expect(r).toMatchObject({
      observed: 5,
      mean: 0,
      sd: 0,
      sigma: EARS.minSigma,
      statistic: 10,
      threshold: 3,
      upperBound: 1.5,
      baselineFrom: -7,
      baselineTo: -1,
    });
  });

  it('does not alert on one case after a quiet week, and does on two (floor 0.5: statistics 2 and 4)', () => {
    expect(alerts([...Array(11).fill(0), 1])).toEqual([]);
    expect(c1([...Array(11).fill(0), 1], 11)!.statistic).toBe(2);
    expect(alerts([...Array(11).fill(0), 2])).toEqual(['c1', 'c2', 'c3']);
  });

  it('computes C1 from the 7 days before, with the sample standard deviation', () => {
    const series = [2, 4, 4, 4, 5, 5, 7, 9, 20];
    const r = c1(series, 8)!;
    // Baseline 4,4,4,5,5,7,9: mean 38/7, sample variance (sum of squared deviations)/6.
    const mean = 38 / 7;
    const sd = Math.sqrt([4, 4, 4, 5, 5, 7, 9].reduce((a, v) => a + (v - mean) ** 2, 0) / 6);
    expect(r.mean).toBeCloseTo(mean, 10);
    expect(r.sd).toBeCloseTo(sd, 10);
    expect(r.statistic).toBeCloseTo((20 - mean) / sd, 10);
    expect(r.alert).toBe(true);
    expect(c1(series, 6)).toBeNull(); // not 7 days of history
  });

  it('lags C2 by two days: a burst in the two days before does not enter its baseline', () => {
    const series = [1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6];
    const r1 = c1(series, 10)!;
    const r2 = c2(series, 10)!;
    expect(r2).toMatchObject({ baselineFrom: -9, baselineTo: -3, mean: 1, sd: 0, sigma: 0.5, statistic: 10, alert: true });
    // C1's baseline takes in yesterday's 6 and does not alert on today's.
    expect(r1.mean).toBeCloseTo(12 / 7, 10);
    expect(r1.alert).toBe(false);
    expect(c2(series, 8)).toBeNull();
  });

  it('sums C3 over three days of C2 excesses over 1', () => {
    // Baselines flat at 2 (sigma floored at 0.5); the last three days 2.75, 2.75, 3: C2 = 1.5, 1.5, 2.
    const series = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2.75, 2.75, 3];
    const r = c3(series, 12)!;
    expect(r.statistic).toBeCloseTo(0.5 + 0.5 + 1, 10);
    expect(r.alert).toBe(false); // 2 is not above 2
    expect(c2(series, 12)!.alert).toBe(false);
    const higher = [...series.slice(0, 12), 3.5];
    expect(c3(higher, 12)!.statistic).toBeCloseTo(0.5 + 0.5 + 2, 10);
    expect(c3(higher, 12)!.alert).toBe(true);
    expect(c3(higher, 12)!.upperBound).toBeCloseTo(2 + 0.5 * (1 + 2 - 1), 10);
    expect(c3(series, 10)).toBeNull(); // C2 of t-2 needs 9 days before it
  });

  it('names how much history each method reads', () => {
    expect(HISTORY_DAYS).toEqual({ c1: 7, c2: 9, c3: 11 });
    const series = Array(12).fill(0);
    expect(earsAt(series, 7).map((r) => r.method)).toEqual(['c1']);
    expect(earsAt(series, 9).map((r) => r.method)).toEqual(['c1', 'c2']);
    expect(earsAt(series, 11).map((r) => r.method)).toEqual(['c1', 'c2', 'c3']);
  });
});
