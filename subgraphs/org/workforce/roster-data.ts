import type { EntityManager } from '../../../shared/db';
import { LeaveRequest, LeaveStatus } from '../staff/leave.entity';
import { WorkforceMember } from './member.entity';
import type { ProblemMember, RosterProblem, Slot } from './roster-model';
import { AssignmentStatus, Roster, RosterAssignment, type CoverageSlot } from './roster.entity';
import { addDays, dayNumber, minuteOfDay, rosterWeeks, timed, weekdayOf, weeksSpan, type RuleMember, type TimedShift } from './rules';
import { CoverageRequirement, DAYS_BY_INDEX, ShiftType } from './shift-type.entity';

/** Reading a roster's world from storage into the pure shapes of rules.ts and roster-model.ts. */

export async function rosterShiftTypes(em: EntityManager, roster: Roster): Promise<ShiftType[]> {
  const where = roster.shiftTypeIds
    ? { organizationId: roster.organizationId, id: { $in: roster.shiftTypeIds } }
    : { organizationId: roster.organizationId };
  return em.find(ShiftType, where, { orderBy: { startTime: 'asc', name: 'asc', id: 'asc' } });
}

export async function rosterMembers(em: EntityManager, roster: Roster): Promise<WorkforceMember[]> {
  const where = roster.memberIds
    ? { organizationId: roster.organizationId, id: { $in: roster.memberIds } }
    : { organizationId: roster.organizationId };
  return em.find(WorkforceMember, where, { orderBy: { name: 'asc', id: 'asc' } });
}

/** Every date from start to end inclusive. */
export function datesOf(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  for (let d = startDate; d <= endDate; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * The demand of each date and shift type of a roster: the most specific requirement (the roster's for the day, the
 * roster's for every day, the organization's for the day, the organization's for every day). Slots needing nobody
 * are left out.
 */
export async function resolveCoverage(em: EntityManager, roster: Roster, types: readonly ShiftType[]): Promise<CoverageSlot[]> {
  const requirements = await em.find(CoverageRequirement, {
    organizationId: roster.organizationId,
    shiftTypeId: { $in: types.map((t) => t.id) },
    $or: [{ rosterId: null }, { rosterId: roster.id }],
  });
  const rank = (r: CoverageRequirement) => (r.rosterId ? 2 : 0) + (r.dayOfWeek ? 1 : 0);
  const slots: CoverageSlot[] = [];
  for (const date of datesOf(roster.startDate, roster.endDate)) {
    const day = DAYS_BY_INDEX[weekdayOf(date)];
    for (const type of types) {
      const best = requirements
        .filter((r) => r.shiftTypeId === type.id && (!r.dayOfWeek || r.dayOfWeek === day))
        .sort((a, b) => rank(b) - rank(a))[0];
      if (!best || best.minStaff <= 0) continue;
      slots.push({ date, shiftTypeId: type.id, minStaff: best.minStaff, skillNeeds: best.skillRequirements.map((s) => ({ ...s })) });
    }
  }
  return slots;
}

export interface LeaveSpan {
  start: string;
  end: string;
  leaveRequestId: string;
}

/** Approved leave of members with accounts, overlapping `from`..`to`, by member id. */
export async function approvedLeave(
  em: EntityManager,
  organizationId: string,
  members: readonly WorkforceMember[],
  from: string,
  to: string,
): Promise<Map<string, LeaveSpan[]>> {
  const byUser = new Map(members.filter((m) => m.userId).map((m) => [m.userId!, m.id]));
  const out = new Map<string, LeaveSpan[]>();
  if (!byUser.size) return out;
  const rows = await em.find(LeaveRequest, {
    organizationId,
    userId: { $in: [...byUser.keys()] },
    status: LeaveStatus.approved,
    startDate: { $lte: to },
    endDate: { $gte: from },
  });
  for (const l of rows) {
    const memberId = byUser.get(l.userId)!;
    out.set(memberId, [...(out.get(memberId) ?? []), { start: l.startDate, end: l.endDate, leaveRequestId: l.id }]);
  }
  return out;
}

export function ruleMember(m: WorkforceMember, leave: readonly LeaveSpan[] = []): RuleMember {
  return {
    id: m.id,
    name: m.name,
    contractedMinutesPerWeek: Math.round(m.contractedHoursPerWeek * 60),
    skills: m.skills,
    nightEligible: m.nightEligible,
    weekendEligible: m.weekendEligible,
    leave,
  };
}

/** An assignment as the rules see it, labelled with its shift type's name. */
export function assignmentShift(a: RosterAssignment, type: ShiftType | undefined): TimedShift {
  return timed(
    a.id,
    `${type?.name ?? 'Shift'} on ${a.date}`,
    a.date,
    minuteOfDay(a.startTime),
    a.durationMinutes,
    type?.requiredSkills ?? [],
  );
}

/**
 * What members already work in other rosters of the organization from `from` to `to` (and a day either side, for
 * rest), by member id.
 */
export async function otherCommitments(
  em: EntityManager,
  organizationId: string,
  memberIds: readonly string[],
  from: string,
  to: string,
  exceptRosterId: string,
): Promise<Map<string, TimedShift[]>> {
  const out = new Map<string, TimedShift[]>();
  if (!memberIds.length) return out;
  const rows = await em.find(RosterAssignment, {
    organizationId,
    memberId: { $in: [...memberIds] },
    rosterId: { $ne: exceptRosterId },
    status: AssignmentStatus.active,
    date: { $gte: addDays(from, -1), $lte: addDays(to, 1) },
  });
  const types = new Map((await em.find(ShiftType, { id: { $in: [...new Set(rows.map((r) => r.shiftTypeId))] } })).map((t) => [t.id, t]));
  for (const a of rows) out.set(a.memberId, [...(out.get(a.memberId) ?? []), assignmentShift(a, types.get(a.shiftTypeId))]);
  return out;
}

export interface LoadedProblem {
  problem: RosterProblem;
  members: WorkforceMember[];
  types: Map<string, ShiftType>;
  coverage: CoverageSlot[];
  leave: Map<string, LeaveSpan[]>;
}

/** Everything the solver needs for a roster: its slots, its members with their leave and other rosters' shifts. */
export async function loadProblem(em: EntityManager, roster: Roster): Promise<LoadedProblem> {
  const typeList = await rosterShiftTypes(em, roster);
  const types = new Map(typeList.map((t) => [t.id, t]));
  const coverage = await resolveCoverage(em, roster, typeList);
  const members = await rosterMembers(em, roster);
  const leave = await approvedLeave(em, roster.organizationId, members, roster.startDate, roster.endDate);
  const weeks = rosterWeeks(roster.startDate, roster.endDate);
  const span = weeksSpan(weeks);
  const commitments = await otherCommitments(
    em,
    roster.organizationId,
    members.map((m) => m.id),
    span.from,
    span.to,
    roster.id,
  );
  const slots: Slot[] = coverage.map((c) => {
    const type = types.get(c.shiftTypeId)!;
    return {
      ...timed(
        `${c.date}/${type.id}`,
        `${type.name} on ${c.date}`,
        c.date,
        minuteOfDay(type.startTime),
        type.durationMinutes,
        type.requiredSkills,
      ),
      shiftTypeId: type.id,
      shiftName: type.name,
      minStaff: c.minStaff,
      skillNeeds: c.skillNeeds,
    };
  });
  const problemMembers: ProblemMember[] = members.map((m) => ({
    ...ruleMember(m, leave.get(m.id)),
    commitments: commitments.get(m.id) ?? [],
  }));
  return {
    problem: { startDate: roster.startDate, endDate: roster.endDate, weeks, slots, members: problemMembers },
    members,
    types,
    coverage,
    leave,
  };
}

export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;
