import { gini, loads } from './fairness';

describe('Gini coefficient', () => {
  it('is 0 when everyone works the same, and when nobody works', () => {
    expect(gini([40, 40, 40, 40])).toBe(0);
    expect(gini([0, 0, 0])).toBe(0);
    expect(gini([])).toBe(0);
  });

  it('matches a worked example: hours 10, 20, 30, 40', () => {
    // Ordered pairs' |differences|: 10,20,30 / 10,10,20 / 20,10,10 / 30,20,10, twice each way → Σ = 200;
    // mean 25, n = 4: G = 200 / (2 · 16 · 25) = 0.25.
    expect(gini([10, 20, 30, 40])).toBe(0.25);
    expect(gini([40, 10, 30, 20])).toBe(0.25);
  });

  it('tends to 1 when one member takes everything: (n - 1) / n', () => {
    expect(gini([0, 0, 0, 100])).toBe(0.75);
    expect(gini([...new Array(99).fill(0), 168])).toBe(0.99);
  });

  it('does not depend on the unit', () => {
    expect(gini([1, 2, 3, 4])).toBe(gini([60, 120, 180, 240]));
  });
});

describe('member loads', () => {
  it('counts hours, nights and weekends per member (mean hours 26 / 3), with their deviation from the mean, members without shifts included', () => {
    const result = loads(
      ['a', 'b', 'c'],
      [
        { memberId: 'a', minutes: 480, isNight: false, isWeekend: false },
        { memberId: 'a', minutes: 600, isNight: true, isWeekend: true },
        { memberId: 'b', minutes: 480, isNight: false, isWeekend: true },
        { memberId: 'z', minutes: 480, isNight: false, isWeekend: false },
      ],
    );
    expect(result).toEqual([
      { memberId: 'a', hours: 18, shifts: 2, nights: 1, weekends: 1, hoursDeviation: 9.33, nightsDeviation: 0.67, weekendsDeviation: 0.33 },
      {
        memberId: 'b',
        hours: 8,
        shifts: 1,
        nights: 0,
        weekends: 1,
        hoursDeviation: -0.67,
        nightsDeviation: -0.33,
        weekendsDeviation: 0.33,
      },
      {
        memberId: 'c',
        hours: 0,
        shifts: 0,
        nights: 0,
        weekends: 0,
        hoursDeviation: -8.67,
        nightsDeviation: -0.33,
        weekendsDeviation: -0.67,
      },
    ]);
  });
});
