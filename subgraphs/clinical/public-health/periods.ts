/**
 * Reporting periods in DHIS2's period syntax (DHIS2 Web API, "Date and period format"): `20261121` a day,
 * `2026W47` an ISO 8601 week (Monday to Sunday; week 1 holds the year's first Thursday), `202611` a month,
 * `2026Q4` a quarter, `2026` a year. The same week numbers are the epidemiological weeks of the dashboard.
 */
export type PeriodType = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';

export interface Period {
  /** The period as DHIS2 writes it (weeks without a leading zero: `2026W7`). */
  id: string;
  type: PeriodType;
  /** First day, `YYYY-MM-DD`. */
  startDate: string;
  /** Last day, inclusive. */
  endDate: string;
}

const DAY_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

/** A `YYYY-MM-DD` date `days` later (or earlier). */
export function addDays(date: string, days: number): string {
  return iso(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The Monday of ISO week `week` of ISO year `year`. */
function isoWeekStart(year: number, week: number): number {
  const jan4 = utc(year, 1, 4);
  const jan4Weekday = (new Date(jan4).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return jan4 - jan4Weekday * DAY_MS + (week - 1) * 7 * DAY_MS;
}

/** The ISO 8601 week of a date: the week's year (which may differ from the date's near new year) and number. */
export function isoWeek(date: string): { year: number; week: number } {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = (d.getUTCDay() + 6) % 7;
  const thursday = new Date(d.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - isoWeekStart(year, 1)) / (7 * DAY_MS)) + 1;
  return { year, week };
}

/** Weeks in an ISO year: 53 when it has 53 Thursdays' weeks, else 52. */
function weeksInYear(year: number): number {
  return isoWeek(iso(utc(year, 12, 28))).week;
}

/** The DHIS2 weekly period holding a date (`2026W47`). */
export function weeklyPeriodOf(date: string): string {
  const { year, week } = isoWeek(date);
  return `${year}W${week}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month + 1, 0)).getUTCDate();
}

/** Parses a DHIS2 period; null when it is not one (or names a day, week or month that does not exist). */
export function parsePeriod(value: string): Period | null {
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})(\d{2})(\d{2})$/.exec(value))) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
    const day = iso(utc(y, mo, d));
    return { id: value, type: 'daily', startDate: day, endDate: day };
  }
  if ((m = /^(\d{4})W(\d{1,2})$/.exec(value))) {
    const [y, w] = [Number(m[1]), Number(m[2])];
    if (w < 1 || w > weeksInYear(y)) return null;
    const start = isoWeekStart(y, w);
    return { id: `${y}W${w}`, type: 'weekly', startDate: iso(start), endDate: iso(start + 6 * DAY_MS) };
  }
  if ((m = /^(\d{4})(\d{2})$/.exec(value))) {
    const [y, mo] = [Number(m[1]), Number(m[2])];
    if (mo < 1 || mo > 12) return null;
    return { id: value, type: 'monthly', startDate: iso(utc(y, mo, 1)), endDate: iso(utc(y, mo, daysInMonth(y, mo))) };
  }
  if ((m = /^(\d{4})Q([1-4])$/.exec(value))) {
    const [y, q] = [Number(m[1]), Number(m[2])];
    const first = (q - 1) * 3 + 1;
    return { id: value, type: 'quarterly', startDate: iso(utc(y, first, 1)), endDate: iso(utc(y, first + 2, daysInMonth(y, first + 2))) };
  }
  if ((m = /^(\d{4})$/.exec(value))) {
    const y = Number(m[1]);
    return { id: value, type: 'yearly', startDate: iso(utc(y, 1, 1)), endDate: iso(utc(y, 12, 31)) };
  }
  return null;
}

/** Completed years of age on `on` of someone born on `birth` (both `YYYY-MM-DD`). */
export function ageInYears(birth: string, on: string): number {
  const [by, bm, bd] = birth.split('-').map(Number);
  const [y, m, d] = on.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
