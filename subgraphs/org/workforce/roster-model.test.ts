import { gini } from './fairness';
import { solveRoster } from './roster-generation';
import type { ProblemMember, RosterProblem, SkillNeed, Slot } from './roster-model';
import type { CoverageSlot } from './roster.entity';
import { addDays, memberViolations, minuteOfDay, rosterWeeks, shiftLength, timed, type TimedShift } from './rules';

/** Small wards solved by HiGHS for real (in its worker thread), each roster then re-checked rule by rule. */

interface TypeSpec {
  id: string;
  name: string;
  start: string;
  end: string;
  minStaff: number;
  skills?: SkillNeed[];
  requiredSkills?: string[];
}

const DAY: TypeSpec = { id: 'day', name: 'Day', start: '07:00', end: '15:00', minStaff: 2 };
const EVENING: TypeSpec = { id: 'eve', name: 'Evening', start: '15:00', end: '23:00', minStaff: 2 };
const NIGHT: TypeSpec = { id: 'night', name: 'Night', start: '23:00', end: '07:00', minStaff: 1 };
const MONDAY = '2031-03-03';

function member(i: number, over: Partial<ProblemMember> = {}): ProblemMember {
  return {
    id: `m${i}`,
    name: `Nurse ${i}`,
    contractedMinutesPerWeek: 40 * 60,
    skills: [],
    nightEligible: true,
    weekendEligible: true,
    leave: [],
    commitments: [],
    ...over,
  };
}

function ward(types: TypeSpec[], members: ProblemMember[], days: number, start = MONDAY) {
  const slots: Slot[] = [];
  const coverage: CoverageSlot[] = [];
  for (let d = 0; d < days; d++) {
    const date = addDays(start, d);
    for (const t of types) {
      const shift = timed(
        `${date}/${t.id}`,
        `${t.name} on ${date}`,
        date,
        minuteOfDay(t.start),
        shiftLength(t.start, t.end).minutes,
        t.requiredSkills ?? [],
      );
      slots.push({ ...shift, shiftTypeId: t.id, shiftName: t.name, minStaff: t.minStaff, skillNeeds: t.skills ?? [] });
      coverage.push({ date, shiftTypeId: t.id, minStaff: t.minStaff, skillNeeds: t.skills ?? [] });
    }
  }
  const end = addDays(start, days - 1);
  const problem: RosterProblem = { startDate: start, endDate: end, weeks: rosterWeeks(start, end), slots, members };
  return { problem, coverage };
}

async function solve(w: ReturnType<typeof ward>) {
  const solved = await solveRoster(w);
  const { problem } = w;
  const shiftsOf = (mi: number): TimedShift[] => solved.worked[mi].map((si) => problem.slots[si]);
  const onSlot = problem.slots.map((_, si) => problem.members.filter((_, mi) => solved.worked[mi].includes(si)));
  return { ...solved, shiftsOf, onSlot };
}

/** Re-validates every assignment of a roster against every hard rule, member by member. */
function expectNoBrokenRule(w: ReturnType<typeof ward>, shiftsOf: (mi: number) => TimedShift[]) {
  const broken = w.problem.members.flatMap((m, mi) =>
    memberViolations(m, shiftsOf(mi), w.problem.weeks, m.commitments).map((v) => v.message),
  );
  expect(broken).toEqual([]);
}

// Each solve may take the solver's full time limit on a busy machine.
jest.setTimeout(120_000);

describe('roster generation with HiGHS', () => {
  it('covers a realistic ward in full, breaks no hard rule, and shares hours evenly (Gini < 0.1)', async () => {
    const types: TypeSpec[] = [
      { ...DAY, minStaff: 3, skills: [{ skill: 'icu', minStaff: 1 }] },
      { ...EVENING, minStaff: 2, skills: [{ skill: 'icu', minStaff: 1 }] },
      { ...NIGHT, minStaff: 2, skills: [{ skill: 'icu', minStaff: 1 }] },
    ];
    const members = Array.from({ length: 12 }, (_, i) => member(i, { skills: i % 2 === 0 ? ['icu'] : [] }));
    const w = ward(types, members, 14);
    const { worked, shiftsOf, onSlot, coverage } = await solve(w);
    expectNoBrokenRule(w, shiftsOf);
    // Every requirement met in full: staff and ICU skill.
    w.problem.slots.forEach((s, si) => {
      expect({ slot: s.label, staff: onSlot[si].length }).toEqual({ slot: s.label, staff: s.minStaff });
      expect(onSlot[si].filter((m) => m.skills.includes('icu')).length).toBeGreaterThanOrEqual(1);
    });
    expect(coverage.every((c) => !c.shortfalls)).toBe(true);
    const hours = worked.map((slots) => slots.length * 8);
    expect(gini(hours)).toBeLessThan(0.1);
  });

  it('never leaves a requirement that can be met short to part-fill one that cannot be met anyway', async () => {
    // At the same time of day: "Theatre" needs 5 (only 3 nurses exist), "Ward" needs 2. Filling places alone would be
    // as happy with 3 in theatre and the ward empty; meeting what can be met comes first: the ward gets its 2.
    const theatre: TypeSpec = { id: 'theatre', name: 'Theatre', start: '08:00', end: '16:00', minStaff: 5 };
    const wardShift: TypeSpec = { id: 'ward', name: 'Ward', start: '08:00', end: '16:00', minStaff: 2 };
    const w = ward([theatre, wardShift], [member(1), member(2), member(3)], 1);
    const { onSlot, coverage, shiftsOf } = await solve(w);
    expectNoBrokenRule(w, shiftsOf);
    const [theatreSlot, wardSlot] = [0, 1];
    expect(onSlot[wardSlot]).toHaveLength(2);
    expect(onSlot[theatreSlot]).toHaveLength(1); // then the rest is filled where it helps
    expect(coverage[wardSlot].shortfalls).toBeUndefined();
    expect(coverage[theatreSlot].shortfalls?.total).toEqual({
      reason: 'not_enough_staff',
      message: '1 of 5 on it: only 3 of 3 members may work it; of them, 2 work an overlapping shift',
    });
  });

  it('respects approved leave, skills, contracted hours, night and weekend eligibility and other rosters', async () => {
    const icuDay: TypeSpec = { ...DAY, id: 'icu-day', name: 'ICU day', minStaff: 1, requiredSkills: ['icu'] };
    const members = [
      member(0, { skills: ['icu'], leave: [{ start: '2031-03-04', end: '2031-03-05' }] }),
      member(1, { skills: ['icu'], contractedMinutesPerWeek: 16 * 60 }),
      member(2, { skills: ['icu'], nightEligible: false, weekendEligible: false }),
      member(3, { skills: [] }),
      member(4, { skills: ['icu'], commitments: [timed('elsewhere', 'Clinic on 2031-03-06', '2031-03-06', minuteOfDay('06:00'), 600)] }),
    ];
    const w = ward([icuDay, NIGHT], members, 7);
    const { shiftsOf, worked } = await solve(w);
    expectNoBrokenRule(w, shiftsOf);
    expect(shiftsOf(0).some((s) => s.date === '2031-03-04' || s.date === '2031-03-05')).toBe(false);
    expect(shiftsOf(0).some((s) => s.date === '2031-03-03' && s.isNight)).toBe(false); // that night runs into the leave
    expect(worked[1].length).toBeLessThanOrEqual(2);
    expect(shiftsOf(2).some((s) => s.isNight || s.isWeekend)).toBe(false);
    expect(shiftsOf(3).some((s) => s.requiredSkills.includes('icu'))).toBe(false);
    expect(shiftsOf(4).some((s) => s.date === '2031-03-06' && !s.isNight)).toBe(false);
  });

  it('says why what could not be covered was not: too few with the skill, or staff at their limits', async () => {
    const night: TypeSpec = { ...NIGHT, minStaff: 2, skills: [{ skill: 'midwife', minStaff: 1 }] };
    const members = [member(1, { skills: ['midwife'], contractedMinutesPerWeek: 16 * 60 }), member(2), member(3), member(4)];
    const w = ward([night], members, 7);
    const { coverage, shiftsOf, onSlot } = await solve(w);
    expectNoBrokenRule(w, shiftsOf);
    expect(onSlot.every((staff) => staff.length === 2)).toBe(true); // staff in all: met every night
    const short = coverage.filter((c) => c.shortfalls);
    expect(short).toHaveLength(5); // the one midwife works 2 nights of 8 hours in 16 contracted
    for (const c of short) {
      expect(Object.keys(c.shortfalls!)).toEqual(['midwife']);
      expect(c.shortfalls!.midwife.reason).toBe('staff_at_limits');
      expect(c.shortfalls!.midwife.message).toBe(
        '0 of 1 with midwife on it: every other member with midwife who may work it is busy (1 are at their contracted hours that week)',
      );
    }
  });
});
