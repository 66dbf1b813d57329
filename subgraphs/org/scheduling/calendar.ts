import { DateTime, IANAZone } from 'luxon';

/**
 * The time arithmetic of scheduling, with no database: schedules are written in local wall-clock time (`HH:MM` in
 * an IANA zone) and turned here into instants, day by day, so daylight saving and zone offsets are honoured.
 * Instants are epoch milliseconds; dates are `YYYY-MM-DD`.
 */

export interface Interval {
  start: number;
  end: number;
}

export interface ScheduleLike {
  daysOfWeek: number[];
  startTime: string;
  endTime: string;
  timeZone?: string | null;
  breaks: { startTime: string; endTime: string }[];
  slotMinutes: number;
  validFrom?: string | null;
  validUntil?: string | null;
}

/** A schedule's working window on one of its local dates, with its breaks. */
export interface WorkingWindow extends Interval {
  breaks: Interval[];
  slotMinutes: number;
}

export interface Slot extends Interval {
  available: boolean;
}

export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const isTimeZone = (zone: unknown): zone is string => typeof zone === 'string' && IANAZone.isValidZone(zone);

export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export const overlaps = (a: Interval, b: Interval) => a.start < b.end && a.end > b.start;

/** The date `days` after `date`. */
export const addDays = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;

/** Today's date in a zone. */
export const today = (now: Date, zone = 'UTC') => DateTime.fromJSDate(now, { zone }).toISODate()!;

/** The local date of an instant in a zone. */
export const localDate = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toISODate()!;

/** A local date as UTC midnight of the same calendar day (for calendar arithmetic only). */
const calendarDay = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const DAY_MS = 86_400_000;

/**
 * The instants a local date spans in a zone: [its midnight, the next midnight), read as the schedules' wall-clock
 * times are, so a day's windows start inside it. Where a change skips midnight the day starts when the clock
 * jumps; where it repeats midnight, at one of the two.
 */
export function dayBounds(date: string, zone: string): Interval {
  const z = IANAZone.create(zone);
  const day = calendarDay(date);
  return { start: wallClock(z, day, '00:00'), end: wallClock(z, day + DAY_MS, '00:00') };
}

/**
 * The instant of a wall-clock time on a date in a zone: a time skipped by a daylight saving change moves forward
 * by the change (as luxon does); a repeated time takes one of its two instants, always the same one (luxon's
 * choice depends on today's date).
 */
function wallClock(zone: IANAZone, day: number, hhmm: string): number {
  const local = day + minutesOf(hhmm) * 60_000;
  const o1 = zone.offset(local);
  const o2 = zone.offset(local - o1 * 60_000);
  if (o1 === o2) return local - o1 * 60_000;
  const o3 = zone.offset(local - o2 * 60_000);
  if (o2 === o3) return local - o2 * 60_000;
  return local - Math.min(o2, o3) * 60_000;
}

function windowAt(schedule: ScheduleLike, zone: IANAZone, day: number, date: string): WorkingWindow | null {
  if (schedule.validFrom && date < schedule.validFrom) return null;
  if (schedule.validUntil && date > schedule.validUntil) return null;
  const weekday = new Date(day).getUTCDay() || 7;
  if (!schedule.daysOfWeek.includes(weekday)) return null;
  return {
    start: wallClock(zone, day, schedule.startTime),
    end: wallClock(zone, day, schedule.endTime),
    breaks: schedule.breaks.map((b) => ({ start: wallClock(zone, day, b.startTime), end: wallClock(zone, day, b.endTime) })),
    slotMinutes: schedule.slotMinutes,
  };
}

/** The schedule's window on a date of its own zone, or null when it does not work that day. */
export function windowOn(schedule: ScheduleLike, date: string, resourceZone: string): WorkingWindow | null {
  return windowAt(schedule, IANAZone.create(schedule.timeZone ?? resourceZone), calendarDay(date), date);
}

/** Every window of the schedule that starts within `range` (the zone's dates around it are all looked at). */
export function windowsIn(schedule: ScheduleLike, range: Interval, resourceZone: string): WorkingWindow[] {
  const name = schedule.timeZone ?? resourceZone;
  const zone = IANAZone.create(name);
  const out: WorkingWindow[] = [];
  const last = calendarDay(localDate(range.end, name)) + DAY_MS;
  for (let day = calendarDay(localDate(range.start, name)) - DAY_MS; day <= last; day += DAY_MS) {
    const w = windowAt(schedule, zone, day, new Date(day).toISOString().slice(0, 10));
    if (w && w.start >= range.start && w.start < range.end) out.push(w);
  }
  return out;
}

/**
 * Working hours of a resource that has no schedule yet: every day, all day, in 30-minute slots. A resource is
 * bookable as soon as it exists; its first schedule sets its hours (and from then on bookings outside them are a 400).
 */
export const ALWAYS_OPEN: ScheduleLike = {
  daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
  startTime: '00:00',
  endTime: '24:00',
  breaks: [],
  slotMinutes: 30,
};

/** The schedules that set a resource's hours: its own, or ALWAYS_OPEN when it has none. */
export const workingSchedules = (schedules: ScheduleLike[]): ScheduleLike[] => (schedules.length ? schedules : [ALWAYS_OPEN]);

/** Whether [start, end) lies wholly inside one working window of the schedules and clear of its breaks. */
export function withinWorkingHours(schedules: ScheduleLike[], resourceZone: string, span: Interval): boolean {
  return workingSchedules(schedules).some((s) => {
    const w = windowOn(s, localDate(span.start, s.timeZone ?? resourceZone), resourceZone);
    return !!w && w.start <= span.start && span.end <= w.end && !w.breaks.some((b) => overlaps(b, span));
  });
}

/**
 * The slots of a window: the window is cut by its breaks into working stretches, and each stretch into slots of
 * `slotMinutes` from its start (a remainder shorter than a slot is not offered).
 */
export function slotsOf(window: WorkingWindow): Interval[] {
  const breaks = [...window.breaks].sort((a, b) => a.start - b.start);
  const stretches: Interval[] = [];
  let from = window.start;
  for (const b of breaks) {
    if (b.start > from) stretches.push({ start: from, end: b.start });
    from = Math.max(from, b.end);
  }
  if (from < window.end) stretches.push({ start: from, end: window.end });
  const step = window.slotMinutes * 60_000;
  const out: Interval[] = [];
  for (const s of stretches) {
    for (let t = s.start; t + step <= s.end; t += step) out.push({ start: t, end: t + step });
  }
  return out;
}

/**
 * The slots of a resource on one of its local dates that have not begun yet, each marked available unless an
 * appointment holding its time overlaps it.
 */
export function daySlots(schedules: ScheduleLike[], resourceZone: string, date: string, taken: Interval[], nowMs: number): Slot[] {
  const day = dayBounds(date, resourceZone);
  const slots = workingSchedules(schedules)
    .flatMap((s) => windowsIn(s, day, resourceZone))
    .flatMap(slotsOf)
    .filter((slot) => slot.start >= nowMs)
    .sort((a, b) => a.start - b.start);
  return slots.map((slot) => ({ ...slot, available: !taken.some((t) => overlaps(t, slot)) }));
}

/** Whether a zone keeps one UTC offset all year (no daylight saving), sampled monthly from now. */
function steadyOffset(zone: string, now: Date): boolean {
  const z = IANAZone.create(zone);
  const first = z.offset(now.getTime());
  for (let month = 1; month <= 12; month++) if (z.offset(now.getTime() + month * 30.5 * 86_400_000) !== first) return false;
  return true;
}

/**
 * Whether two schedules ever work at the same moment, from today (or the later start of validity) on. In one time
 * zone the wall-clock hours and the weekdays decide; schedules in different zones are compared on real dates over a
 * year, which covers every weekday and daylight-saving pattern.
 */
export function schedulesCollide(a: ScheduleLike, b: ScheduleLike, resourceZone: string, now: Date): boolean {
  let from = today(now);
  for (const s of [a, b]) if (s.validFrom && s.validFrom > from) from = s.validFrom;
  let to = addDays(from, 371);
  for (const s of [a, b]) if (s.validUntil && s.validUntil < to) to = s.validUntil;
  if (to < from) return false;
  const zoneA = a.timeZone ?? resourceZone;
  const zoneB = b.timeZone ?? resourceZone;
  if (zoneA === zoneB) {
    const hoursMeet = minutesOf(a.startTime) < minutesOf(b.endTime) && minutesOf(b.startTime) < minutesOf(a.endTime);
    if (!hoursMeet) return false;
    for (let date = from, n = 0; date <= to && n < 7; date = addDays(date, 1), n++) {
      const day = DateTime.fromISO(date, { zone: 'UTC' }).weekday;
      if (a.daysOfWeek.includes(day) && b.daysOfWeek.includes(day)) return true;
    }
    return false;
  }
  // Without daylight saving in either zone, one week (and a day either side) shows every pattern.
  if (steadyOffset(zoneA, now) && steadyOffset(zoneB, now) && to > addDays(from, 8)) to = addDays(from, 8);
  const range = { start: dayBounds(addDays(from, -1), 'UTC').start, end: dayBounds(addDays(to, 1), 'UTC').end };
  const wa = windowsIn(a, range, resourceZone);
  const wb = windowsIn(b, range, resourceZone);
  // Both lists are in time order: walk them together.
  for (let i = 0, j = 0; i < wa.length && j < wb.length;) {
    if (overlaps(wa[i], wb[j])) return true;
    if (wa[i].end <= wb[j].end) i++;
    else j++;
  }
  return false;
}
