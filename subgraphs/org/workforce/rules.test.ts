import {
  isNightShift,
  memberViolations,
  minuteOfDay,
  nightMinutes,
  pairViolation,
  rosterWeeks,
  shiftLength,
  shiftViolations,
  timed,
  weeksSpan,
  type RuleMember,
} from './rules';

const nurse = (over: Partial<RuleMember> = {}): RuleMember => ({
  id: 'n1',
  name: 'Ama',
  contractedMinutesPerWeek: 40 * 60,
  skills: ['icu'],
  nightEligible: true,
  weekendEligible: true,
  leave: [],
  ...over,
});
const day = (date: string, skills: string[] = []) => timed(`day/${date}`, `Day on ${date}`, date, minuteOfDay('07:00'), 480, skills);
const night = (date: string) => timed(`night/${date}`, `Night on ${date}`, date, minuteOfDay('23:00'), 480);
const evening = (date: string) => timed(`eve/${date}`, `Evening on ${date}`, date, minuteOfDay('15:00'), 480);

describe('shift times', () => {
  it('puts an end at or before the start on the next day', () => {
    expect(shiftLength('07:00', '15:00')).toEqual({ minutes: 480, crossesMidnight: false });
    expect(shiftLength('21:00', '07:00')).toEqual({ minutes: 600, crossesMidnight: true });
    expect(shiftLength('08:00', '08:00')).toEqual({ minutes: 1440, crossesMidnight: true });
  });

  it('calls a shift a night shift with at least 3 hours between 23:00 and 06:00', () => {
    expect(nightMinutes(minuteOfDay('23:00'), 480)).toBe(420);
    expect(isNightShift(minuteOfDay('23:00'), 480)).toBe(true);
    expect(isNightShift(minuteOfDay('00:00'), 480)).toBe(true);
    expect(isNightShift(minuteOfDay('19:00'), 720)).toBe(true);
    expect(isNightShift(minuteOfDay('15:00'), 480)).toBe(false);
    expect(isNightShift(minuteOfDay('04:00'), 480)).toBe(false); // 2 hours before 06:00
    expect(isNightShift(minuteOfDay('07:00'), 480)).toBe(false);
  });

  it('counts hours in calendar weeks, Monday to Sunday', () => {
    expect(weeksSpan(rosterWeeks('2031-03-03', '2031-03-12'))).toEqual({ from: '2031-03-03', to: '2031-03-16' });
    expect(rosterWeeks('2031-03-05', '2031-03-05')).toHaveLength(1);
    expect(weeksSpan(rosterWeeks('2031-03-05', '2031-03-10'))).toEqual({ from: '2031-03-03', to: '2031-03-16' });
  });
});

describe('hard rules', () => {
  it('needs 11 hours of rest between shifts, and no overlap', () => {
    const m = nurse();
    expect(pairViolation(m, evening('2031-03-03'), day('2031-03-04'))).toEqual({
      rule: 'rest',
      message: 'Ama would have 8 h of rest between Evening on 2031-03-03 and Day on 2031-03-04 (at least 11 h)',
    });
    expect(pairViolation(m, night('2031-03-03'), day('2031-03-04'))?.rule).toBe('rest');
    expect(pairViolation(m, day('2031-03-03'), timed('x', 'Long day on 2031-03-03', '2031-03-03', minuteOfDay('08:00'), 720))?.rule).toBe(
      'overlap',
    );
    expect(pairViolation(m, day('2031-03-03'), day('2031-03-04'))).toBeNull(); // 16 hours apart
    expect(pairViolation(m, night('2031-03-03'), night('2031-03-04'))).toBeNull();
  });

  it('checks skills, night and weekend eligibility and leave for one shift', () => {
    expect(shiftViolations(nurse({ skills: [] }), day('2031-03-03', ['icu'])).map((v) => v.rule)).toEqual(['skills']);
    expect(shiftViolations(nurse({ nightEligible: false }), night('2031-03-03')).map((v) => v.rule)).toEqual(['night_eligibility']);
    expect(shiftViolations(nurse({ weekendEligible: false }), day('2031-03-08')).map((v) => v.rule)).toEqual(['weekend_eligibility']);
    const onLeave = nurse({ leave: [{ start: '2031-03-04', end: '2031-03-05' }] });
    expect(shiftViolations(onLeave, day('2031-03-04')).map((v) => v.rule)).toEqual(['leave']);
    // A night starting the evening before the leave runs into its first day.
    expect(shiftViolations(onLeave, night('2031-03-03')).map((v) => v.rule)).toEqual(['leave']);
    expect(shiftViolations(onLeave, day('2031-03-06'))).toEqual([]);
  });

  it('keeps each week of a roster within the contracted hours, counting other rosters too', () => {
    const weeks = rosterWeeks('2031-03-03', '2031-03-09');
    const m = nurse({ contractedMinutesPerWeek: 16 * 60 });
    expect(memberViolations(m, [day('2031-03-03'), day('2031-03-05')], weeks)).toEqual([]);
    const over = memberViolations(m, [day('2031-03-03'), day('2031-03-05')], weeks, [day('2031-03-07')]);
    expect(over).toEqual([{ rule: 'contracted_hours', message: 'Ama would work 24 h in the week from 2031-03-03, over 16 h contracted' }]);
  });
});
