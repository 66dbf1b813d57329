import {
  conflicts,
  dayNumber,
  memberViolations,
  REST_MINUTES,
  shiftViolations,
  type HardRule,
  type RosterWeek,
  type RuleMember,
  type TimedShift,
  type Violation,
} from './rules';
import type { SolverModel, SolverStage } from './solver';

/**
 * The roster as a mixed-integer program for HiGHS, with three objectives in strict order:
 *   1. cover in full as many requirements (a date and shift type with its minimum staff and per-skill minimums) as
 *      can be covered in full;
 *   2. keeping that, fill as many of the remaining places (staff and per-skill) as possible;
 *   3. keeping that, spread the work fairly: the smallest spread of contracted hours used, of nights and of weekend
 *      shifts between members.
 * 1 before 2 means a requirement that can be met is never left short to part-fill one that cannot.
 *
 * Variables: x[m,s] = 1 when member m works slot s (only where the member may work it on its own: skills,
 * eligibility, leave, their commitments in other rosters); met[s] = 1 when slot s is covered in full; y[s,k] the
 * places of skill k filled on s (at most its minimum); six continuous bounds for the fairness spreads.
 * Hard rules as rows: per member, one row for every point in time saying at most one of the shifts whose
 * "shift plus rest" interval contains it (these shifts conflict pairwise: a clique); per member and week, worked
 * minutes within the contracted ones (less what other rosters already take).
 */

export interface SkillNeed {
  skill: string;
  minStaff: number;
}

/** One shift of one day to staff: a requirement instance. */
export interface Slot extends TimedShift {
  shiftTypeId: string;
  shiftName: string;
  minStaff: number;
  skillNeeds: readonly SkillNeed[];
}

export interface ProblemMember extends RuleMember {
  /** Work already rostered elsewhere (other rosters of the organization): counts for rest, overlap and hours. */
  commitments: readonly TimedShift[];
}

export interface RosterProblem {
  /** The roster's first and last day. */
  startDate: string;
  endDate: string;
  /** The calendar weeks it falls in (contracted hours are per week). */
  weeks: readonly RosterWeek[];
  slots: readonly Slot[];
  members: readonly ProblemMember[];
  restMinutes?: number;
}

/** Weights of the fairness stage: a spread of one 8-hour shift in a 160-hour month of contract counts like one
 * night or one weekend shift more than a colleague. */
const HOURS_SPREAD_WEIGHT = 20;
const NIGHT_SPREAD_WEIGHT = 1;
const WEEKEND_SPREAD_WEIGHT = 1;

export interface BuiltModel {
  model: SolverModel;
  stages: SolverStage[];
  /** Places to fill in all: minimum staff plus per-skill minimums of every slot. */
  places: number;
  /** Column of each (member, slot) variable. */
  assignments: { member: number; slot: number; col: number }[];
  /** Columns of the other variables, in slot order (met, skill places) and the hi/lo pair of each spread. */
  columns: { met: number[]; skillFill: number[]; spreads: ({ hi: number; lo: number } | null)[] };
  /** The divisors of each member's hours and of their nights and weekends in the spreads. */
  metrics: { hours: (m: ProblemMember) => number; availability: (m: ProblemMember) => number };
}

class RowBuilder {
  readonly starts: number[] = [0];
  readonly indices: number[] = [];
  readonly values: number[] = [];
  readonly lower: number[] = [];
  readonly upper: number[] = [];

  add(cols: readonly number[], coefs: readonly number[], lower: number, upper: number): void {
    for (let i = 0; i < cols.length; i++) {
      if (coefs[i] === 0) continue;
      this.indices.push(cols[i]);
      this.values.push(coefs[i]);
    }
    this.starts.push(this.indices.length);
    this.lower.push(lower);
    this.upper.push(upper);
  }

  get count(): number {
    return this.lower.length;
  }
}

export const pairKey = (member: number, slot: number) => `${member}:${slot}`;

/** Capacity of a member over the roster, in minutes: contracted hours per week over its days, less days of leave. */
export function availableMinutes(member: RuleMember, startDate: string, endDate: string): number {
  let free = 0;
  for (let day = dayNumber(startDate); day <= dayNumber(endDate); day++) {
    if (!member.leave.some((l) => day >= dayNumber(l.start) && day <= dayNumber(l.end))) free++;
  }
  return (member.contractedMinutesPerWeek * free) / 7;
}

export function buildRosterModel(problem: RosterProblem, infinity: number): BuiltModel {
  const rest = problem.restMinutes ?? REST_MINUTES;
  const { slots, members, weeks } = problem;
  const colCost: number[] = [];
  const colLower: number[] = [];
  const colUpper: number[] = [];
  const integrality: number[] = [];
  const addCol = (lower: number, upper: number, integer: boolean) => {
    colCost.push(0);
    colLower.push(lower);
    colUpper.push(upper);
    integrality.push(integer ? 1 : 0);
    return colCost.length - 1;
  };

  // x[m,s]: only where the member may work the slot on its own and around their other rosters.
  const assignments: BuiltModel['assignments'] = [];
  const bySlot: { member: number; col: number }[][] = slots.map(() => []);
  const byMember: { slot: number; col: number }[][] = members.map(() => []);
  members.forEach((m, mi) => {
    slots.forEach((s, si) => {
      if (s.minStaff <= 0) return;
      const own = shiftViolations(m, s);
      if (own.length) return;
      if (m.commitments.some((c) => conflicts(c, s, rest))) return;
      const week = weeks.find((w) => s.start >= w.start && s.start < w.end);
      if (week) {
        const taken = m.commitments.filter((c) => c.start >= week.start && c.start < week.end).reduce((n, c) => n + c.end - c.start, 0);
        if (taken + (s.end - s.start) > m.contractedMinutesPerWeek) return;
      }
      const col = addCol(0, 1, true);
      assignments.push({ member: mi, slot: si, col });
      bySlot[si].push({ member: mi, col });
      byMember[mi].push({ slot: si, col });
    });
  });

  const rows = new RowBuilder();
  const metCols: number[] = [];
  const fillCols: number[] = [];
  const skillFillCols: number[] = [];
  slots.forEach((s, si) => {
    if (s.minStaff <= 0) return;
    const xs = bySlot[si].map((a) => a.col);
    // No more than the minimum: staff beyond it would be taken from other shifts for nothing.
    rows.add(
      xs,
      xs.map(() => 1),
      -infinity,
      s.minStaff,
    );
    fillCols.push(...xs);
    const met = addCol(0, 1, true);
    metCols.push(met);
    rows.add([...xs, met], [...xs.map(() => 1), -s.minStaff], 0, infinity);
    for (const need of s.skillNeeds) {
      const skilled = bySlot[si].filter((a) => members[a.member].skills.includes(need.skill)).map((a) => a.col);
      rows.add([...skilled, met], [...skilled.map(() => 1), -need.minStaff], 0, infinity);
      const y = addCol(0, need.minStaff, false);
      fillCols.push(y);
      skillFillCols.push(y);
      rows.add([y, ...skilled], [1, ...skilled.map(() => -1)], -infinity, 0);
    }
  });

  members.forEach((m, mi) => {
    const own = byMember[mi].map((a) => ({ ...a, start: slots[a.slot].start, end: slots[a.slot].end })).sort((a, b) => a.start - b.start);
    // Cliques: at each shift start, the shifts whose shift-plus-rest interval covers that instant.
    let previous: number[] = [];
    for (const p of own) {
      const clique = own.filter((u) => u.start <= p.start && p.start < u.end + rest).map((u) => u.col);
      const dominated = clique.every((c) => previous.includes(c));
      if (clique.length > 1 && !dominated)
        rows.add(
          clique,
          clique.map(() => 1),
          -infinity,
          1,
        );
      previous = clique;
    }
    for (const w of weeks) {
      const inWeek = own.filter((u) => u.start >= w.start && u.start < w.end);
      const minutes = inWeek.map((u) => u.end - u.start);
      const taken = m.commitments.filter((c) => c.start >= w.start && c.start < w.end).reduce((n, c) => n + c.end - c.start, 0);
      const cap = m.contractedMinutesPerWeek - taken;
      if (minutes.reduce((a, b) => a + b, 0) > cap)
        rows.add(
          inWeek.map((u) => u.col),
          minutes,
          -infinity,
          cap,
        );
    }
  });

  // Fairness spreads: share of available contracted time used, nights and weekend shifts (per share of the period
  // the member is available), between the members who could work at all.
  const periodDays = dayNumber(problem.endDate) - dayNumber(problem.startDate) + 1;
  const capacity = (m: ProblemMember) => availableMinutes(m, problem.startDate, problem.endDate);
  const spread = (metric: (slot: Slot) => number, eligible: (m: ProblemMember) => boolean, scale: (m: ProblemMember) => number) => {
    const hi = addCol(-infinity, infinity, false);
    const lo = addCol(-infinity, infinity, false);
    let used = false;
    members.forEach((m, mi) => {
      const cols = byMember[mi].filter((a) => metric(slots[a.slot]) > 0);
      const factor = scale(m);
      if (!eligible(m) || !byMember[mi].length || factor <= 0) return;
      used = true;
      const coefs = cols.map((a) => metric(slots[a.slot]) / factor);
      rows.add([...cols.map((a) => a.col), hi], [...coefs, -1], -infinity, 0);
      rows.add([...cols.map((a) => a.col), lo], [...coefs, -1], 0, infinity);
    });
    return used ? { hi, lo } : null;
  };
  const availability = (m: ProblemMember) => {
    const full = (m.contractedMinutesPerWeek * periodDays) / 7;
    return full > 0 ? capacity(m) / full : 0;
  };
  const hoursSpread = spread(
    (s) => s.end - s.start,
    () => true,
    capacity,
  );
  const nightSpread = spread(
    (s) => (s.isNight ? 1 : 0),
    (m) => m.nightEligible,
    availability,
  );
  const weekendSpread = spread(
    (s) => (s.isWeekend ? 1 : 0),
    (m) => m.weekendEligible,
    availability,
  );

  const numCols = colCost.length;
  const objective = (terms: [number, number][]) => {
    const c = new Array<number>(numCols).fill(0);
    for (const [col, v] of terms) c[col] += v;
    return c;
  };
  const fairness: [number, number][] = [];
  for (const [sp, w] of [
    [hoursSpread, HOURS_SPREAD_WEIGHT],
    [nightSpread, NIGHT_SPREAD_WEIGHT],
    [weekendSpread, WEEKEND_SPREAD_WEIGHT],
  ] as const) {
    if (sp) fairness.push([sp.hi, w], [sp.lo, -w]);
  }
  // Stages 1 and 2 are solved as one objective: a requirement met in full is worth more than every place there is
  // to fill (the weight is one more than their number), so the order stays strict and HiGHS solves one MIP, not two.
  const places = slots.reduce((n, s) => n + (s.minStaff > 0 ? s.minStaff + s.skillNeeds.reduce((k, need) => k + need.minStaff, 0) : 0), 0);
  const cover = objective([...metCols.map((c): [number, number] => [c, places + 1]), ...fillCols.map((c): [number, number] => [c, 1])]);
  const stages: SolverStage[] = [
    { name: 'coverage', costs: cover, maximize: true, keepWithin: 0.5, relativeGap: 0, absoluteGap: 0.5 },
    { name: 'fairness', costs: objective(fairness), maximize: false, keepWithin: null, relativeGap: 0.02, absoluteGap: 2 },
  ];
  return {
    model: {
      numCols,
      numRows: rows.count,
      colCost,
      colLower,
      colUpper,
      rowLower: rows.lower,
      rowUpper: rows.upper,
      starts: rows.starts,
      indices: rows.indices,
      values: rows.values,
      integrality,
    },
    stages,
    places,
    assignments,
    columns: { met: metCols, skillFill: skillFillCols, spreads: [hoursSpread, nightSpread, weekendSpread] },
    metrics: { hours: capacity, availability },
  };
}

/**
 * A first roster to start the solver from: slots in time order, each given the members with the most contracted
 * time left (per skill first), where every hard rule allows. It is a starting point only: the solver keeps it when
 * it is already the best coverage and the fairest, and improves on it otherwise.
 */
export function greedyStart(problem: RosterProblem, built: BuiltModel): number[] {
  const rest = problem.restMinutes ?? REST_MINUTES;
  const { slots, members, weeks } = problem;
  const x = new Array<number>(built.model.numCols).fill(0);
  const colOf = new Map(built.assignments.map((a) => [pairKey(a.member, a.slot), a.col]));
  const worked: Slot[][] = members.map(() => []);
  const minutes = members.map(() => 0);
  const nights = members.map(() => 0);
  const weekends = members.map(() => 0);
  const capacity = members.map((m) => Math.max(1, availableMinutes(m, problem.startDate, problem.endDate)));
  const weekOf = (start: number) => weeks.find((w) => start >= w.start && start < w.end);
  const fits = (mi: number, s: Slot) => {
    if (worked[mi].some((o) => conflicts(o, s, rest))) return false;
    const w = weekOf(s.start);
    if (!w) return true;
    const used = [...worked[mi], ...members[mi].commitments]
      .filter((o) => o.start >= w.start && o.start < w.end)
      .reduce((n, o) => n + o.end - o.start, 0);
    return used + s.end - s.start <= members[mi].contractedMinutesPerWeek;
  };
  const order = slots.map((s, si) => si).sort((a, b) => slots[a].start - slots[b].start || slots[a].end - slots[b].end);
  for (const si of order) {
    const s = slots[si];
    const on = new Set<number>();
    const candidates = () =>
      members
        .map((_, mi) => mi)
        .filter((mi) => !on.has(mi) && colOf.has(pairKey(mi, si)) && fits(mi, s))
        .sort(
          (a, b) =>
            minutes[a] / capacity[a] - minutes[b] / capacity[b] ||
            (s.isNight ? nights[a] - nights[b] : 0) ||
            (s.isWeekend ? weekends[a] - weekends[b] : 0) ||
            a - b,
        );
    const take = (mi: number) => {
      on.add(mi);
      worked[mi].push(s);
      minutes[mi] += s.end - s.start;
      if (s.isNight) nights[mi]++;
      if (s.isWeekend) weekends[mi]++;
      x[colOf.get(pairKey(mi, si))!] = 1;
    };
    for (const need of s.skillNeeds) {
      let have = [...on].filter((mi) => members[mi].skills.includes(need.skill)).length;
      for (const mi of candidates()) {
        if (have >= need.minStaff || on.size >= s.minStaff) break;
        if (!members[mi].skills.includes(need.skill)) continue;
        take(mi);
        have++;
      }
    }
    for (const mi of candidates()) {
      if (on.size >= s.minStaff) break;
      take(mi);
    }
  }
  return completeStart(problem, built, x);
}

/** Fills in the columns other than assignments (met, skill places, spreads) so that `x` is a whole solution. */
function completeStart(problem: RosterProblem, built: BuiltModel, x: number[]): number[] {
  const { slots, members } = problem;
  const onSlot: number[][] = slots.map(() => []);
  for (const a of built.assignments) if (x[a.col] > 0.5) onSlot[a.slot].push(a.member);
  let metIndex = 0;
  let fillIndex = 0;
  slots.forEach((s, si) => {
    if (s.minStaff <= 0) return;
    const skilled = (skill: string) => onSlot[si].filter((mi) => members[mi].skills.includes(skill)).length;
    const met = onSlot[si].length >= s.minStaff && s.skillNeeds.every((n) => skilled(n.skill) >= n.minStaff);
    x[built.columns.met[metIndex++]] = met ? 1 : 0;
    for (const need of s.skillNeeds) x[built.columns.skillFill[fillIndex++]] = Math.min(need.minStaff, skilled(need.skill));
  });
  const metrics = [(s: Slot) => s.end - s.start, (s: Slot) => (s.isNight ? 1 : 0), (s: Slot) => (s.isWeekend ? 1 : 0)];
  const eligible = [() => true, (m: ProblemMember) => m.nightEligible, (m: ProblemMember) => m.weekendEligible];
  const scale = [built.metrics.hours, built.metrics.availability, built.metrics.availability];
  built.columns.spreads.forEach((sp, k) => {
    if (!sp) return;
    const values: number[] = [];
    members.forEach((m, mi) => {
      const factor = scale[k](m);
      if (!eligible[k](m) || factor <= 0 || !built.assignments.some((a) => a.member === mi)) return;
      values.push(
        built.assignments.filter((a) => a.member === mi && x[a.col] > 0.5).reduce((n, a) => n + metrics[k](slots[a.slot]), 0) / factor,
      );
    });
    x[sp.hi] = values.length ? Math.max(...values) : 0;
    x[sp.lo] = values.length ? Math.min(...values) : 0;
  });
  return x;
}

/** Why members did not work a slot, counted by reason: what the coverage gaps report. */
export type GapCause = HardRule | 'assigned_elsewhere';

export interface SlotDiagnosis {
  /** Members who could have worked it by every rule, given the rest of the roster (0 when the solve was optimal). */
  available: number;
  causes: Partial<Record<GapCause, number>>;
}

/**
 * For each member not on `slot`, the first reason they could not be added to it given the roster as solved:
 * their own rules (skills, eligibility, leave), their other rosters, then the shifts they work in this one (rest,
 * overlap, hours). `skill` restricts the question to members with that skill.
 */
export function diagnoseSlot(problem: RosterProblem, worked: readonly number[][], slotIndex: number, skill?: string): SlotDiagnosis {
  const rest = problem.restMinutes ?? REST_MINUTES;
  const slot = problem.slots[slotIndex];
  const causes: Partial<Record<GapCause, number>> = {};
  let available = 0;
  const count = (c: GapCause) => (causes[c] = (causes[c] ?? 0) + 1);
  problem.members.forEach((m, mi) => {
    if (worked[mi].includes(slotIndex)) return;
    if (skill && !m.skills.includes(skill)) return void count('skills');
    const own = shiftViolations(m, slot);
    if (own.length) return void count(own[0].rule);
    const clash = m.commitments.find((c) => conflicts(c, slot, rest));
    if (clash) return void count('assigned_elsewhere');
    const theirs = worked[mi].map((si) => problem.slots[si]);
    const v: Violation[] = memberViolations(m, [...theirs, slot], problem.weeks, m.commitments, rest);
    if (v.length) return void count(v[0].rule);
    available++;
  });
  return { available, causes };
}
