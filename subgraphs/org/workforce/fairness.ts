/**
 * How evenly work is shared. The Gini coefficient is the mean absolute difference between every ordered pair of
 * members, over twice the mean: G = Σᵢ Σⱼ |xᵢ − xⱼ| / (2 n² x̄). 0 when everyone has the same; (n − 1)/n, towards 1,
 * when one member has it all. With nothing to share (all zero) it is 0.
 */
export function gini(values: readonly number[]): number {
  const n = values.length;
  const total = values.reduce((a, b) => a + b, 0);
  if (n === 0 || total <= 0) return 0;
  // Sorted, Σᵢ Σⱼ |xᵢ − xⱼ| = 2 Σᵢ (2i − n + 1) xᵢ (i from 0), in O(n log n).
  const sorted = [...values].sort((a, b) => a - b);
  let weighted = 0;
  sorted.forEach((x, i) => (weighted += (2 * i - n + 1) * x));
  return round((2 * weighted) / (2 * n * total), 6);
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

export interface WorkedShift {
  memberId: string;
  minutes: number;
  isNight: boolean;
  isWeekend: boolean;
}

export interface MemberLoad {
  memberId: string;
  hours: number;
  shifts: number;
  nights: number;
  weekends: number;
  hoursDeviation: number;
  nightsDeviation: number;
  weekendsDeviation: number;
}

/** Each member's hours, shifts, nights and weekend shifts, and how far each is from the mean of all `memberIds`. */
export function loads(memberIds: readonly string[], shifts: readonly WorkedShift[]): MemberLoad[] {
  const by = new Map(memberIds.map((id) => [id, { memberId: id, minutes: 0, shifts: 0, nights: 0, weekends: 0 }]));
  for (const s of shifts) {
    const m = by.get(s.memberId);
    if (!m) continue;
    m.minutes += s.minutes;
    m.shifts += 1;
    if (s.isNight) m.nights += 1;
    if (s.isWeekend) m.weekends += 1;
  }
  const list = [...by.values()];
  const meanHours = mean(list.map((m) => m.minutes / 60));
  const meanNights = mean(list.map((m) => m.nights));
  const meanWeekends = mean(list.map((m) => m.weekends));
  return list.map((m) => ({
    memberId: m.memberId,
    hours: round(m.minutes / 60),
    shifts: m.shifts,
    nights: m.nights,
    weekends: m.weekends,
    hoursDeviation: round(m.minutes / 60 - meanHours),
    nightsDeviation: round(m.nights - meanNights),
    weekendsDeviation: round(m.weekends - meanWeekends),
  }));
}
