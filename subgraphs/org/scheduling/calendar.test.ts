import { IANAZone } from 'luxon';
import {
  addDays,
  ALWAYS_OPEN,
  dayBounds,
  daySlots,
  localDate,
  schedulesCollide,
  slotsOf,
  today,
  windowOn,
  windowsIn,
  withinWorkingHours,
  type Interval,
  type ScheduleLike,
} from './calendar';

const HOUR = 3_600_000;
const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const isoOf = (i: Interval) => [iso(i.start), iso(i.end)];
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

const schedule = (fields: Partial<ScheduleLike> = {}): ScheduleLike => ({
  daysOfWeek: EVERY_DAY,
  startTime: '09:00',
  endTime: '17:00',
  breaks: [],
  slotMinutes: 30,
  ...fields,
});

// 2026: London changes at 01:00 UTC on 29 March (to BST) and 25 October (to GMT); New York at 02:00 local on
// 8 March (to EDT) and 1 November (to EST); Nairobi stays at UTC+3.
const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';
const NAIROBI = 'Africa/Nairobi';

describe('dayBounds', () => {
  it.each([
    [LONDON, '2026-03-28', '2026-03-28T00:00:00.000Z', 24],
    [LONDON, '2026-03-29', '2026-03-29T00:00:00.000Z', 23],
    [LONDON, '2026-10-25', '2026-10-24T23:00:00.000Z', 25],
    [LONDON, '2026-10-26', '2026-10-26T00:00:00.000Z', 24],
    [NEW_YORK, '2026-03-08', '2026-03-08T05:00:00.000Z', 23],
    [NEW_YORK, '2026-11-01', '2026-11-01T04:00:00.000Z', 25],
    [NAIROBI, '2026-03-29', '2026-03-28T21:00:00.000Z', 24],
    [NAIROBI, '2026-10-25', '2026-10-24T21:00:00.000Z', 24],
  ])('%s %s starts at %s and lasts %i hours', (zone, date, start, hours) => {
    const day = dayBounds(date, zone);
    expect(iso(day.start)).toBe(start);
    expect((day.end - day.start) / HOUR).toBe(hours);
    expect(day.end).toBe(dayBounds(addDays(date, 1), zone).start);
  });
});

describe('local dates', () => {
  it('reads the date of an instant in a zone, across midnight and the changes', () => {
    expect(localDate(ms('2026-03-28T23:30:00Z'), LONDON)).toBe('2026-03-28');
    expect(localDate(ms('2026-03-29T23:30:00Z'), LONDON)).toBe('2026-03-30');
    expect(localDate(ms('2026-10-24T23:30:00Z'), LONDON)).toBe('2026-10-25');
    expect(localDate(ms('2026-03-08T04:59:00Z'), NEW_YORK)).toBe('2026-03-07');
    expect(localDate(ms('2026-03-08T21:00:00Z'), NAIROBI)).toBe('2026-03-09');
    expect(today(new Date('2026-03-08T21:00:00Z'), NAIROBI)).toBe('2026-03-09');
    expect(today(new Date('2026-03-08T21:00:00Z'))).toBe('2026-03-08');
  });

  it('adds days across month, year and daylight-saving boundaries', () => {
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });
});

describe('windowOn', () => {
  it.each([
    [LONDON, '2026-03-28', '2026-03-28T09:00:00.000Z', '2026-03-28T17:00:00.000Z'],
    [LONDON, '2026-03-29', '2026-03-29T08:00:00.000Z', '2026-03-29T16:00:00.000Z'],
    [LONDON, '2026-10-25', '2026-10-25T09:00:00.000Z', '2026-10-25T17:00:00.000Z'],
    [NEW_YORK, '2026-03-07', '2026-03-07T14:00:00.000Z', '2026-03-07T22:00:00.000Z'],
    [NEW_YORK, '2026-03-08', '2026-03-08T13:00:00.000Z', '2026-03-08T21:00:00.000Z'],
    [NEW_YORK, '2026-11-01', '2026-11-01T14:00:00.000Z', '2026-11-01T22:00:00.000Z'],
    [NAIROBI, '2026-03-29', '2026-03-29T06:00:00.000Z', '2026-03-29T14:00:00.000Z'],
    [NAIROBI, '2026-11-01', '2026-11-01T06:00:00.000Z', '2026-11-01T14:00:00.000Z'],
  ])('09:00-17:00 in %s on %s is %s to %s', (zone, date, start, end) => {
    expect(isoOf(windowOn(schedule(), date, zone)!)).toEqual([start, end]);
  });

  it("uses the schedule's own zone over the resource's", () => {
    expect(isoOf(windowOn(schedule({ timeZone: NEW_YORK }), '2026-03-08', NAIROBI)!)).toEqual([
      '2026-03-08T13:00:00.000Z',
      '2026-03-08T21:00:00.000Z',
    ]);
  });

  it('moves a wall-clock time skipped by spring-forward on by the change', () => {
    expect(iso(windowOn(schedule({ startTime: '01:30' }), '2026-03-29', LONDON)!.start)).toBe('2026-03-29T01:30:00.000Z'); // 02:30 BST
    expect(iso(windowOn(schedule({ startTime: '02:30' }), '2026-03-08', NEW_YORK)!.start)).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
  });

  it('gives a wall-clock time repeated by fall-back one of its two instants', () => {
    expect(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']).toContain(
      iso(windowOn(schedule({ startTime: '01:30' }), '2026-10-25', LONDON)!.start),
    );
    expect(['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z']).toContain(
      iso(windowOn(schedule({ startTime: '01:30' }), '2026-11-01', NEW_YORK)!.start),
    );
  });

  it('honours weekdays (ISO: Monday 1 to Sunday 7) and the validity dates', () => {
    const weekdays = schedule({ daysOfWeek: [1, 2, 3, 4, 5] });
    expect(windowOn(weekdays, '2026-03-08', NEW_YORK)).toBeNull(); // a Sunday
    expect(windowOn(weekdays, '2026-03-09', NEW_YORK)).not.toBeNull();
    expect(windowOn(schedule({ daysOfWeek: [7] }), '2026-03-08', NEW_YORK)).not.toBeNull();
    const bounded = schedule({ validFrom: '2026-03-09', validUntil: '2026-03-10' });
    expect(['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11'].map((d) => !!windowOn(bounded, d, LONDON))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('slots', () => {
  const local = (zone: string) => (t: number) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);

  it('cuts a night shift over spring-forward into the hours that exist (New York)', () => {
    const w = windowOn(schedule({ startTime: '00:00', endTime: '06:00', slotMinutes: 60 }), '2026-03-08', NEW_YORK)!;
    const slots = slotsOf(w);
    expect(slots.map((s) => local(NEW_YORK)(s.start))).toEqual(['00:00', '01:00', '03:00', '04:00', '05:00']);
    expect(slots.every((s) => s.end - s.start === HOUR)).toBe(true);
    expect(iso(slots[4].end)).toBe('2026-03-08T10:00:00.000Z');
  });

  it('cuts a night shift over fall-back into every hour that passes, the repeated one twice (New York)', () => {
    const w = windowOn(schedule({ startTime: '00:00', endTime: '06:00', slotMinutes: 60 }), '2026-11-01', NEW_YORK)!;
    const slots = slotsOf(w);
    expect(slots.map((s) => local(NEW_YORK)(s.start))).toEqual(['00:00', '01:00', '01:00', '02:00', '03:00', '04:00', '05:00']);
    expect(slots.map((s) => s.start - w.start)).toEqual([0, 1, 2, 3, 4, 5, 6].map((h) => h * HOUR));
  });

  it('offers a break that falls in a skipped hour as no break at all (London)', () => {
    const w = windowOn(
      schedule({ startTime: '00:00', endTime: '04:00', slotMinutes: 60, breaks: [{ startTime: '01:00', endTime: '02:00' }] }),
      '2026-03-29',
      LONDON,
    )!;
    expect(slotsOf(w).map((s) => local(LONDON)(s.start))).toEqual(['00:00', '02:00', '03:00']);
  });

  it('cuts around breaks from each stretch start, dropping a remainder shorter than a slot', () => {
    const w = windowOn(
      schedule({ startTime: '09:00', endTime: '12:10', slotMinutes: 45, breaks: [{ startTime: '10:00', endTime: '10:15' }] }),
      '2026-06-01',
      NAIROBI,
    )!;
    expect(slotsOf(w).map((s) => local(NAIROBI)(s.start))).toEqual(['09:00', '10:15', '11:00']);
  });

  it.each([
    [LONDON, '2026-03-29', 46],
    [LONDON, '2026-10-25', 50],
    [NEW_YORK, '2026-03-08', 46],
    [NEW_YORK, '2026-11-01', 50],
    [NAIROBI, '2026-03-29', 48],
  ])('a resource with no schedule offers every half hour of %s %s: %i slots, tiling the day', (zone, date, count) => {
    const day = dayBounds(date, zone);
    const slots = daySlots([], zone, date, [], 0);
    expect(slots).toHaveLength(count);
    expect(slots[0].start).toBe(day.start);
    expect(slots[slots.length - 1].end).toBe(day.end);
    expect(slots.every((s, i) => s.end - s.start === 30 * 60_000 && (i === 0 || s.start === slots[i - 1].end))).toBe(true);
  });

  it('offers only slots not begun yet, marks those an appointment holds, and merges schedules in time order', () => {
    const morning = schedule({ startTime: '09:00', endTime: '10:00' });
    const evening = schedule({ startTime: '18:00', endTime: '19:00', timeZone: NAIROBI });
    const now = ms('2026-03-30T08:10:00Z'); // 09:10 BST
    const taken = [{ start: ms('2026-03-30T08:30:00Z'), end: ms('2026-03-30T08:45:00Z') }];
    const slots = daySlots([evening, morning], LONDON, '2026-03-30', taken, now);
    expect(slots.map((s) => [iso(s.start), s.available])).toEqual([
      ['2026-03-30T08:30:00.000Z', false],
      ['2026-03-30T15:00:00.000Z', true], // 18:00 in Nairobi
      ['2026-03-30T15:30:00.000Z', true],
    ]);
  });

  it('lists the windows that start within a range, whichever local date they belong to', () => {
    const range = { start: ms('2026-03-29T00:00:00Z'), end: ms('2026-03-30T00:00:00Z') };
    expect(windowsIn(schedule({ startTime: '23:00', endTime: '23:30' }), range, NAIROBI).map((w) => iso(w.start))).toEqual([
      '2026-03-29T20:00:00.000Z',
    ]);
    expect(windowsIn(schedule({ startTime: '01:00', endTime: '02:00' }), range, NAIROBI).map((w) => iso(w.start))).toEqual([
      '2026-03-29T22:00:00.000Z', // 01:00 on 30 March in Nairobi
    ]);
  });
});

describe('days in zones that change at midnight', () => {
  // Havana springs forward at 00:00 (8 March 2026 has no midnight) and falls back from 01:00 to 00:00 (1 November
  // 2026 has two); Santiago, Beirut and Cairo spring forward at midnight; Lord Howe changes by half an hour.
  const ZONES = [LONDON, NEW_YORK, NAIROBI, 'America/Havana', 'America/Santiago', 'Asia/Beirut', 'Africa/Cairo', 'Australia/Lord_Howe'];
  /** The dates of 2026 around each change of the zone's offset (and a plain one, so a zone without changes has some). */
  const aroundChanges = (name: string) => {
    const zone = IANAZone.create(name);
    const dates = new Set(['2026-06-15']);
    for (let noon = ms('2026-01-01T12:00:00Z'); noon < ms('2027-01-01T00:00:00Z'); noon += 24 * HOUR) {
      if (zone.offset(noon) === zone.offset(noon + 24 * HOUR)) continue;
      for (const n of [-1, 0, 1, 2]) dates.add(iso(noon + n * 24 * HOUR).slice(0, 10));
    }
    return [...dates].sort();
  };

  afterEach(() => jest.useRealTimers());

  it.each(ZONES)('%s: consecutive days meet, and a resource with no schedule offers the whole of each day', (zone) => {
    for (const date of aroundChanges(zone)) {
      const day = dayBounds(date, zone);
      expect([date, day.end]).toEqual([date, dayBounds(addDays(date, 1), zone).start]);
      expect((day.end - day.start) / HOUR).toBeGreaterThanOrEqual(23);
      expect((day.end - day.start) / HOUR).toBeLessThanOrEqual(25);
      const slots = daySlots([], zone, date, [], 0);
      expect([date, slots[0]?.start, slots.at(-1)?.end]).toEqual([date, day.start, day.end]);
      expect(slots.every((s, i) => i === 0 || s.start === slots[i - 1].end)).toBe(true);
    }
  });

  it('Havana: 8 March starts at 01:00 and ends at the next midnight; 1 November starts at its first midnight', () => {
    expect(isoOf(dayBounds('2026-03-08', 'America/Havana'))).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect(daySlots([], 'America/Havana', '2026-03-08', [], 0)).toHaveLength(46);
    expect(isoOf(dayBounds('2026-11-01', 'America/Havana'))).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    expect(daySlots([], 'America/Havana', '2026-11-01', [], 0)).toHaveLength(50);
  });

  it('answers the same whatever the date is today', () => {
    const answers = ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z'].map((now) => {
      jest.useFakeTimers({ now: new Date(now) });
      return ['America/Havana', LONDON, NEW_YORK].flatMap((zone) =>
        aroundChanges(zone).map((date) => [dayBounds(date, zone), daySlots([], zone, date, [], 0).length]),
      );
    });
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('withinWorkingHours', () => {
  const clinic = schedule({ daysOfWeek: [1, 2, 3, 4, 5], breaks: [{ startTime: '12:00', endTime: '13:00' }] });
  const span = (from: string, to: string) => ({ start: ms(from), end: ms(to) });

  it('accepts a span inside a window and refuses one outside it, over a break or on a day off (London, first BST week)', () => {
    expect(withinWorkingHours([clinic], LONDON, span('2026-03-30T08:00:00Z', '2026-03-30T08:30:00Z'))).toBe(true); // 09:00 BST
    expect(withinWorkingHours([clinic], LONDON, span('2026-03-30T07:30:00Z', '2026-03-30T08:30:00Z'))).toBe(false);
    expect(withinWorkingHours([clinic], LONDON, span('2026-03-30T15:30:00Z', '2026-03-30T16:00:00Z'))).toBe(true); // ends 17:00 BST
    expect(withinWorkingHours([clinic], LONDON, span('2026-03-30T15:30:00Z', '2026-03-30T16:30:00Z'))).toBe(false);
    expect(withinWorkingHours([clinic], LONDON, span('2026-03-30T10:30:00Z', '2026-03-30T11:30:00Z'))).toBe(false); // the break
    expect(withinWorkingHours([clinic], LONDON, span('2026-03-28T10:00:00Z', '2026-03-28T10:30:00Z'))).toBe(false); // Saturday
  });

  it('reads the same UTC span in the schedule zone: an hour apart either side of the change', () => {
    const at = span('2026-03-27T16:30:00Z', '2026-03-27T17:00:00Z'); // Friday 16:30 GMT
    const week = span('2026-04-03T16:30:00Z', '2026-04-03T17:00:00Z'); // Friday 17:30 BST
    expect(withinWorkingHours([clinic], LONDON, at)).toBe(true);
    expect(withinWorkingHours([clinic], LONDON, week)).toBe(false);
  });

  it('treats a resource without schedules as always open', () => {
    expect(withinWorkingHours([], NAIROBI, span('2026-03-29T01:00:00Z', '2026-03-29T03:00:00Z'))).toBe(true);
  });
});

describe('schedulesCollide', () => {
  const now = new Date('2026-04-06T00:00:00Z');

  it('in one zone, compares wall-clock hours on the weekdays both work', () => {
    const weekdays = schedule({ daysOfWeek: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '13:00' });
    expect(schedulesCollide(weekdays, schedule({ daysOfWeek: [6, 7] }), LONDON, now)).toBe(false);
    expect(schedulesCollide(weekdays, schedule({ daysOfWeek: [5], startTime: '12:00', endTime: '14:00' }), LONDON, now)).toBe(true);
    expect(schedulesCollide(weekdays, schedule({ daysOfWeek: [1], startTime: '13:00', endTime: '15:00' }), LONDON, now)).toBe(false);
  });

  it('in one zone, looks only at the dates both are valid', () => {
    const weekdays = schedule({ daysOfWeek: [1, 2, 3, 4, 5] });
    expect(schedulesCollide(weekdays, schedule({ validUntil: '2026-04-01' }), LONDON, now)).toBe(false); // over before today
    expect(schedulesCollide(weekdays, schedule({ validFrom: '2026-04-11', validUntil: '2026-04-12' }), LONDON, now)).toBe(false); // a weekend
    expect(schedulesCollide(weekdays, schedule({ validFrom: '2026-04-11', validUntil: '2026-04-13' }), LONDON, now)).toBe(true);
    expect(schedulesCollide(schedule({ validUntil: '2026-05-01' }), schedule({ validFrom: '2026-05-02' }), LONDON, now)).toBe(false);
  });

  // London 12:00-13:00 and New York 08:00-09:00 only touch while both zones keep the same daylight-saving state
  // (5 hours apart); in the weeks when only New York has changed (4 hours apart) they overlap.
  const london = schedule({ startTime: '12:00', endTime: '13:00', timeZone: LONDON });
  const newYork = schedule({ startTime: '08:00', endTime: '09:00', timeZone: NEW_YORK });

  it('across zones, finds an overlap that exists only while one zone has changed and the other not', () => {
    expect(schedulesCollide(london, newYork, NAIROBI, now)).toBe(true); // late October comes within the year
    expect(schedulesCollide({ ...london, validUntil: '2026-10-20' }, newYork, NAIROBI, now)).toBe(false);
    expect(schedulesCollide(london, { ...newYork, validFrom: '2026-10-26', validUntil: '2026-10-30' }, NAIROBI, now)).toBe(true);
    expect(schedulesCollide(london, { ...newYork, validFrom: '2026-11-02', validUntil: '2027-03-07' }, NAIROBI, now)).toBe(false);
    expect(schedulesCollide(london, { ...newYork, validFrom: '2027-03-15', validUntil: '2027-03-20' }, NAIROBI, now)).toBe(true);
  });

  it('across zones without daylight saving, compares real instants, weekdays shifting with the zones', () => {
    const nairobi = schedule({ startTime: '09:00', endTime: '10:00', timeZone: NAIROBI }); // 06:00-07:00 UTC
    expect(schedulesCollide(nairobi, schedule({ startTime: '07:00', endTime: '08:00', timeZone: 'Africa/Lagos' }), LONDON, now)).toBe(true);
    expect(schedulesCollide(nairobi, schedule({ startTime: '08:00', endTime: '09:00', timeZone: 'Africa/Lagos' }), LONDON, now)).toBe(
      false,
    );
    // Tuesday 00:00-02:00 in Nairobi is Monday 22:00-24:00 in Lagos.
    const tuesdayNight = schedule({ daysOfWeek: [2], startTime: '00:00', endTime: '02:00', timeZone: NAIROBI });
    const mondayLate = schedule({ daysOfWeek: [1], startTime: '22:00', endTime: '23:30', timeZone: 'Africa/Lagos' });
    const tuesdayLate = schedule({ daysOfWeek: [2], startTime: '22:00', endTime: '23:30', timeZone: 'Africa/Lagos' });
    expect(schedulesCollide(tuesdayNight, mondayLate, LONDON, now)).toBe(true);
    expect(schedulesCollide(tuesdayNight, tuesdayLate, LONDON, now)).toBe(false);
  });
});

describe('ALWAYS_OPEN', () => {
  it('is every day, all day, in half-hour slots', () => {
    expect(ALWAYS_OPEN).toMatchObject({ daysOfWeek: EVERY_DAY, startTime: '00:00', endTime: '24:00', breaks: [], slotMinutes: 30 });
  });
});
