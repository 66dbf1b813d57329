import { addDays, ageInYears, daysBetween, isoWeek, parsePeriod, weeklyPeriodOf } from './periods';

describe('DHIS2 periods', () => {
  it.each([
    ['20261121', 'daily', '2026-11-21', '2026-11-21'],
    ['2026W47', 'weekly', '2026-11-16', '2026-11-22'],
    ['2026W1', 'weekly', '2025-12-29', '2026-01-04'],
    ['2026W01', 'weekly', '2025-12-29', '2026-01-04'],
    ['2020W53', 'weekly', '2020-12-28', '2021-01-03'],
    ['202611', 'monthly', '2026-11-01', '2026-11-30'],
    ['202402', 'monthly', '2024-02-01', '2024-02-29'],
    ['2026Q4', 'quarterly', '2026-10-01', '2026-12-31'],
    ['2026', 'yearly', '2026-01-01', '2026-12-31'],
  ])('reads %s as %s from %s to %s', (id, type, startDate, endDate) => {
    expect(parsePeriod(id)).toMatchObject({ type, startDate, endDate });
  });

  it('writes weeks without a leading zero, as DHIS2 does', () => {
    expect(parsePeriod('2026W07')!.id).toBe('2026W7');
  });

  it.each(['2026W0', '2025W53', '2026W54', '202613', '20260230', '2026Q5', '26W4', '2026-11', 'W47', ''])('refuses %s', (id) => {
    expect(parsePeriod(id)).toBeNull();
  });

  it('numbers ISO weeks across the new year', () => {
    expect(isoWeek('2021-01-03')).toEqual({ year: 2020, week: 53 });
    expect(isoWeek('2024-12-30')).toEqual({ year: 2025, week: 1 });
    expect(weeklyPeriodOf('2026-11-21')).toBe('2026W47');
    expect(weeklyPeriodOf('2026-01-01')).toBe('2026W1');
  });

  it('counts days and ages', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(daysBetween('2026-11-01', '2026-11-22')).toBe(21);
    expect(ageInYears('2021-11-22', '2026-11-21')).toBe(4);
    expect(ageInYears('2021-11-21', '2026-11-21')).toBe(5);
  });
});
