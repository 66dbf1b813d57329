/**
 * The hard rules of a roster, as pure functions over wall-clock minutes, shared by the generator (which builds them
 * into its model), the swap check and the tests that re-validate a generated roster.
 *
 * Time: shift times are the ward's wall clock. A moment is counted in minutes from 1970-01-01 00:00 of that clock
 * (`dayNumber(date) * 1440 + minute of day`); daylight-saving jumps are not modelled (a night across a change is
 * counted at its nominal length).
 *
 * Rules (each violation names one):
 * - `skills`: the member has every skill the shift type needs;
 * - `night_eligibility` / `weekend_eligibility`: night shifts only for members who may work nights, weekend shifts
 *   (starting on a Saturday or Sunday) only for members who may work weekends;
 * - `leave`: no shift overlaps a day of the member's approved leave (whole days, both ends included);
 * - `overlap`: no two shifts of a member overlap;
 * - `rest`: at least REST_MINUTES (11 hours, the EU Working Time Directive's daily rest) between the end of one
 *   shift and the start of the next;
 * - `contracted_hours`: within each calendar week (Monday to Sunday, by the day a shift starts), the member's minutes
 *   in all the organization's rosters do not exceed their contracted hours per week.
 */
export const REST_MINUTES = 11 * 60;
export const DAY_MINUTES = 1440;

/** Night time as the UK Working Time Regulations 1998 default it (23:00 to 06:00); a shift with at least
 * NIGHT_MIN_MINUTES (3 hours, the regulations' test for night work) in it is a night shift. */
export const NIGHT_START = 23 * 60;
export const NIGHT_END = 6 * 60;
export const NIGHT_MIN_MINUTES = 3 * 60;

export type HardRule = 'skills' | 'night_eligibility' | 'weekend_eligibility' | 'leave' | 'overlap' | 'rest' | 'contracted_hours';

export const HARD_RULES: readonly HardRule[] = [
  'skills',
  'night_eligibility',
  'weekend_eligibility',
  'leave',
  'overlap',
  'rest',
  'contracted_hours',
];

export const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
export const dateOfDay = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days);
/** 0 Sunday ... 6 Saturday, as Date.getUTCDay. */
export const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
export const isWeekendDate = (date: string): boolean => weekdayOf(date) === 0 || weekdayOf(date) === 6;

/** "HH:MM" to minutes of the day. */
export const minuteOfDay = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
/** Minutes of the day to "HH:MM". */
export const timeOfDay = (minute: number): string =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** A shift type's length from its start and end times: an end at or before the start is on the next day. */
export function shiftLength(start: string, end: string): { minutes: number; crossesMidnight: boolean } {
  const s = minuteOfDay(start);
  const e = minuteOfDay(end);
  return e > s ? { minutes: e - s, crossesMidnight: false } : { minutes: DAY_MINUTES - s + e, crossesMidnight: true };
}

/** Minutes of a shift starting at `startMinute` (of its day) that fall in night time (23:00 to 06:00). */
export function nightMinutes(startMinute: number, minutes: number): number {
  let total = 0;
  // Night windows relative to the shift's own day: the one ending this morning, tonight's, and tomorrow's.
  for (const offset of [-DAY_MINUTES, 0, DAY_MINUTES]) {
    const from = offset + NIGHT_START;
    const to = offset + DAY_MINUTES + NIGHT_END;
    total += Math.max(0, Math.min(startMinute + minutes, to) - Math.max(startMinute, from));
  }
  return total;
}

export const isNightShift = (startMinute: number, minutes: number): boolean => nightMinutes(startMinute, minutes) >= NIGHT_MIN_MINUTES;

/** One shift as the rules see it. */
export interface TimedShift {
  /** The assignment (or slot) it stands for. */
  id: string;
  /** What to call it in a message: "Night on 2031-03-02". */
  label: string;
  date: string;
  start: number;
  end: number;
  requiredSkills: readonly string[];
  isNight: boolean;
  isWeekend: boolean;
}

export interface RuleMember {
  id: string;
  name: string;
  contractedMinutesPerWeek: number;
  skills: readonly string[];
  nightEligible: boolean;
  weekendEligible: boolean;
  /** Approved leave, whole days from `start` to `end` inclusive. */
  leave: readonly { start: string; end: string }[];
}

/** A calendar week, Monday 00:00 to the next Monday 00:00, in minutes. */
export interface RosterWeek {
  start: number;
  end: number;
}

export interface Violation {
  rule: HardRule;
  message: string;
}

/** The calendar weeks (Monday to Sunday) that days `startDate` to `endDate` fall in. */
export function rosterWeeks(startDate: string, endDate: string): RosterWeek[] {
  const monday = (date: string) => dayNumber(date) - ((weekdayOf(date) + 6) % 7);
  const weeks: RosterWeek[] = [];
  for (let d = monday(startDate); d <= dayNumber(endDate); d += 7) weeks.push({ start: d * DAY_MINUTES, end: (d + 7) * DAY_MINUTES });
  return weeks;
}

/** The first and last day of those weeks, as dates. */
export const weeksSpan = (weeks: readonly RosterWeek[]): { from: string; to: string } => ({
  from: dateOfDay(weeks[0].start / DAY_MINUTES),
  to: dateOfDay(weeks[weeks.length - 1].end / DAY_MINUTES - 1),
});

/** A shift starting at `minute` of `date`. */
export function timed(
  id: string,
  label: string,
  date: string,
  startMinute: number,
  minutes: number,
  requiredSkills: readonly string[] = [],
): TimedShift {
  const start = dayNumber(date) * DAY_MINUTES + startMinute;
  return {
    id,
    label,
    date,
    start,
    end: start + minutes,
    requiredSkills,
    isNight: isNightShift(startMinute, minutes),
    isWeekend: isWeekendDate(date),
  };
}

const hours = (minutes: number) => `${Math.round((minutes / 60) * 10) / 10} h`;

/** What stops `member` from working `shift` on its own (skills, eligibility, leave), whatever else they work. */
export function shiftViolations(member: RuleMember, shift: TimedShift): Violation[] {
  const out: Violation[] = [];
  const missing = shift.requiredSkills.filter((s) => !member.skills.includes(s));
  if (missing.length) out.push({ rule: 'skills', message: `${member.name} lacks ${missing.join(', ')} needed for ${shift.label}` });
  if (shift.isNight && !member.nightEligible)
    out.push({ rule: 'night_eligibility', message: `${member.name} does not work nights (${shift.label})` });
  if (shift.isWeekend && !member.weekendEligible) {
    out.push({ rule: 'weekend_eligibility', message: `${member.name} does not work weekends (${shift.label})` });
  }
  const leave = member.leave.find(
    (l) => shift.start < (dayNumber(l.end) + 1) * DAY_MINUTES && shift.end > dayNumber(l.start) * DAY_MINUTES,
  );
  if (leave) out.push({ rule: 'leave', message: `${member.name} is on leave from ${leave.start} to ${leave.end} (${shift.label})` });
  return out;
}

/** Why two shifts of one member cannot both be worked (overlap, or less than REST_MINUTES between them); null if they can. */
export function pairViolation(member: RuleMember, a: TimedShift, b: TimedShift, restMinutes = REST_MINUTES): Violation | null {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  if (second.start < first.end)
    return { rule: 'overlap', message: `${member.name} would work ${first.label} and ${second.label}, which overlap` };
  const rest = second.start - first.end;
  if (rest < restMinutes) {
    return {
      rule: 'rest',
      message: `${member.name} would have ${hours(rest)} of rest between ${first.label} and ${second.label} (at least ${hours(restMinutes)})`,
    };
  }
  return null;
}

/** Whether two shifts conflict for one person (the relation the generator's clique constraints encode). */
export const conflicts = (a: { start: number; end: number }, b: { start: number; end: number }, restMinutes = REST_MINUTES): boolean =>
  a.start <= b.start ? b.start < a.end + restMinutes : a.start < b.end + restMinutes;

/**
 * Every hard rule `member` breaks working all of `shifts` (those of the roster being checked and, as `others`, what
 * they already work elsewhere, which count for rest, overlap and hours but are not re-judged for skills).
 */
export function memberViolations(
  member: RuleMember,
  shifts: readonly TimedShift[],
  weeks: readonly RosterWeek[],
  others: readonly TimedShift[] = [],
  restMinutes = REST_MINUTES,
): Violation[] {
  const out: Violation[] = [];
  for (const s of shifts) out.push(...shiftViolations(member, s));
  const all = [...shifts, ...others].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length && all[j].start < all[i].end + restMinutes; j++) {
      const v = pairViolation(member, all[i], all[j], restMinutes);
      if (v) out.push(v);
    }
  }
  for (const w of weeks) {
    const cap = member.contractedMinutesPerWeek;
    const worked = all.filter((s) => s.start >= w.start && s.start < w.end).reduce((n, s) => n + (s.end - s.start), 0);
    if (worked > cap) {
      out.push({
        rule: 'contracted_hours',
        message: `${member.name} would work ${hours(worked)} in the week from ${dateOfDay(w.start / DAY_MINUTES)}, over ${hours(cap)} contracted`,
      });
    }
  }
  return out;
}
