import { LockMode } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { PermanentEventError, type ConsumerDefinition } from '../../../shared/events';
import { logger } from '../../../shared/logger';
import { emitEvent } from '../../../shared/outbox';
import { approvedLeave, loadProblem, type LoadedProblem } from './roster-data';
import { buildRosterModel, diagnoseSlot, greedyStart, type GapCause, type RosterProblem, type SlotDiagnosis } from './roster-model';
import { AssignmentStatus, GENERATING, GenerationStatus, ROSTER, Roster, RosterAssignment, type CoverageSlot } from './roster.entity';
import { DAY_MINUTES, dayNumber, memberViolations, timeOfDay } from './rules';
import { solveLexicographic, SOLVER_INFINITY } from './solver';
import { ROSTER_GENERATED, ROSTER_GENERATION_REQUESTED } from './workforce.events';

/** Seconds HiGHS gets for each stage (coverage, then fairness); a stage that runs out keeps its best roster. */
export const STAGE_TIME_LIMIT_SECONDS = 20;

const CAUSE_WORDS: Record<GapCause, string> = {
  skills: 'lack the skills',
  night_eligibility: 'do not work nights',
  weekend_eligibility: 'do not work weekends',
  leave: 'are on leave',
  assigned_elsewhere: 'work another roster then',
  overlap: 'work an overlapping shift',
  rest: 'need 11 h rest around their other shifts',
  contracted_hours: 'are at their contracted hours that week',
};
const OWN_CAUSES: GapCause[] = ['skills', 'night_eligibility', 'weekend_eligibility', 'leave', 'assigned_elsewhere'];
const ROSTER_CAUSES: GapCause[] = ['overlap', 'rest', 'contracted_hours'];

const listCauses = (d: SlotDiagnosis, which: GapCause[]) =>
  which
    .filter((c) => d.causes[c])
    .map((c) => `${d.causes[c]} ${CAUSE_WORDS[c]}`)
    .join(', ');

/** Why a part of a slot stayed short, from who could not be added to it and why. */
export function explainShortfall(
  d: SlotDiagnosis,
  required: number,
  assigned: number,
  memberCount: number,
  skill?: string,
): { reason: string; message: string } {
  const who = skill ? `members with ${skill}` : 'members';
  const short = `${assigned} of ${required} ${skill ? `with ${skill} ` : ''}on it`;
  if (d.available > 0) {
    return {
      reason: 'solver_limit',
      message: `${short}: ${d.available} more ${who} could work it; the solver stopped at its time limit first`,
    };
  }
  const blocked = ROSTER_CAUSES.reduce((n, c) => n + (d.causes[c] ?? 0), 0);
  const couldEver = assigned + blocked;
  const pool = skill ? memberCount - (d.causes.skills ?? 0) : memberCount;
  if (couldEver < required) {
    const own = listCauses(
      d,
      OWN_CAUSES.filter((c) => !(skill && c === 'skills')),
    );
    const busy = blocked ? `; of them, ${listCauses(d, ROSTER_CAUSES)}` : '';
    return {
      reason: 'not_enough_staff',
      message: `${short}: only ${couldEver} of ${pool} ${who} may work it${own ? ` (${own})` : ''}${busy}`,
    };
  }
  return {
    reason: 'staff_at_limits',
    message: `${short}: every other ${skill ? `member with ${skill}` : 'member'} who may work it is busy (${listCauses(d, ROSTER_CAUSES)})`,
  };
}

interface Solved {
  worked: number[][];
  coverage: CoverageSlot[];
  solverStatus: string;
  seconds: number;
}

/** Runs the solver for a loaded roster problem and checks what it answers against every hard rule. */
export async function solveRoster(
  loaded: Pick<LoadedProblem, 'problem' | 'coverage'>,
  onProgress?: (percent: number) => void,
): Promise<Solved> {
  const { problem } = loaded;
  const built = buildRosterModel(problem, SOLVER_INFINITY);
  const result = await solveLexicographic(built.model, built.stages, {
    start: greedyStart(problem, built),
    stageTimeLimitSeconds: STAGE_TIME_LIMIT_SECONDS,
    onProgress: ({ stage, stages }) => onProgress?.(20 + Math.round((60 * stage) / stages)),
  });
  const worked: number[][] = problem.members.map(() => []);
  for (const a of built.assignments) if (result.colValue[a.col] > 0.5) worked[a.member].push(a.slot);
  const broken = problem.members.flatMap((m, mi) =>
    memberViolations(
      m,
      worked[mi].map((si) => problem.slots[si]),
      problem.weeks,
      m.commitments,
      problem.restMinutes,
    ),
  );
  if (broken.length) throw new Error(`the solver's roster breaks a hard rule: ${broken[0].message}`);
  const coverage = loaded.coverage.map((c, si) => ({ ...c, shortfalls: shortfallsOf(problem, worked, si) }));
  const solverStatus = result.stages.every((s) => s.status === 'optimal')
    ? 'optimal'
    : (result.stages.find((s) => s.status !== 'optimal')?.status ?? 'unknown');
  return { worked, coverage, solverStatus, seconds: result.seconds };
}

function shortfallsOf(problem: RosterProblem, worked: number[][], si: number): CoverageSlot['shortfalls'] {
  const slot = problem.slots[si];
  const on = problem.members.map((_, mi) => mi).filter((mi) => worked[mi].includes(si));
  const out: NonNullable<CoverageSlot['shortfalls']> = {};
  if (on.length < slot.minStaff)
    out.total = explainShortfall(diagnoseSlot(problem, worked, si), slot.minStaff, on.length, problem.members.length);
  for (const need of slot.skillNeeds) {
    const have = on.filter((mi) => problem.members[mi].skills.includes(need.skill)).length;
    if (have < need.minStaff) {
      out[need.skill] = explainShortfall(
        diagnoseSlot(problem, worked, si, need.skill),
        need.minStaff,
        have,
        problem.members.length,
        need.skill,
      );
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The solver job. It runs as a bus consumer of `svc.workforce.roster_generation_requested`, so the request that asks
 * for it answers at once; HiGHS itself runs in a worker thread (solver.ts). Progress is written outside the job's
 * transaction so the roster shows it while the job runs; the assignments, the roster's new state and its event are
 * written in the job's transaction, with the roster row locked. A job for a request superseded since does nothing.
 */
export const rosterGeneration: ConsumerDefinition = {
  name: 'roster-generation',
  description: 'solves the roster with HiGHS (a mixed-integer model) and stores its assignments and coverage',
  topics: [ROSTER_GENERATION_REQUESTED.name],
  async handle(event, { em }) {
    const parsed = ROSTER_GENERATION_REQUESTED.payload.safeParse(event.payload);
    if (!parsed.success) throw new PermanentEventError(`${event.topic} payload: ${parsed.error.message}`);
    const { roster_id: rosterId, generation_id: generationId } = parsed.data;
    const current = await em.findOne(Roster, { id: rosterId }, { refresh: true });
    if (!current || current.generationId !== generationId || !GENERATING.includes(current.generationStatus)) return;

    // Progress goes through its own connection, committed at once; writes are chained and awaited before the lock.
    let writes: Promise<unknown> = Promise.resolve();
    const progress = (fields: Partial<Pick<Roster, 'generationStatus' | 'generationProgress' | 'generationError'>>) => {
      writes = writes
        .then(() => em.fork().nativeUpdate(Roster, { id: rosterId, generationId }, fields))
        .catch((err) => logger.warn({ err, rosterId }, 'could not record roster generation progress'));
      return writes;
    };
    await progress({ generationStatus: GenerationStatus.running, generationProgress: 5 });
    const loaded = await loadProblem(em, current);
    await progress({ generationProgress: 15 });
    let solved: Solved;
    try {
      solved = await solveRoster(loaded, (generationProgress) => void progress({ generationProgress }));
    } catch (err) {
      const message = (err as Error).message;
      await progress({ generationStatus: GenerationStatus.failed, generationError: message });
      throw new PermanentEventError(`roster ${rosterId}: ${message}`);
    }
    await progress({ generationProgress: 90 });
    await writes;
    await storeGeneration(em, rosterId, generationId, loaded, solved);
  },
};

async function storeGeneration(
  em: EntityManager,
  rosterId: string,
  generationId: string,
  loaded: LoadedProblem,
  solved: Solved,
): Promise<void> {
  const roster = await em.findOne(Roster, { id: rosterId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!roster || roster.generationId !== generationId) return; // superseded while solving
  const { problem, members } = loaded;
  // Leave approved while the solver ran: those shifts are stored removed, as the leave webhook would have done.
  const leave = await approvedLeave(em, roster.organizationId, members, roster.startDate, roster.endDate);
  await em.nativeDelete(RosterAssignment, { rosterId });
  const now = clock.now();
  let active = 0;
  const onSlot = problem.slots.map(() => [] as number[]);
  solved.worked.forEach((slots, mi) => {
    const member = members[mi];
    for (const si of slots) {
      const slot = problem.slots[si];
      const span = (leave.get(member.id) ?? []).find(
        (l) => slot.start < (dayNumber(l.end) + 1) * DAY_MINUTES && slot.end > dayNumber(l.start) * DAY_MINUTES,
      );
      em.create(RosterAssignment, {
        organizationId: roster.organizationId,
        rosterId,
        memberId: member.id,
        shiftTypeId: slot.shiftTypeId,
        date: slot.date,
        startTime: timeOfDay(slot.start % DAY_MINUTES),
        endTime: timeOfDay(slot.end % DAY_MINUTES),
        durationMinutes: slot.end - slot.start,
        isNight: slot.isNight,
        isWeekend: slot.isWeekend,
        ...(span
          ? { status: AssignmentStatus.removed, removedReason: 'leave', leaveRequestId: span.leaveRequestId, removedAt: now }
          : { status: AssignmentStatus.active }),
      });
      if (!span) {
        active++;
        onSlot[si].push(mi);
      }
    }
  });
  const met = problem.slots.filter(
    (s, si) =>
      onSlot[si].length >= s.minStaff &&
      s.skillNeeds.every((n) => onSlot[si].filter((mi) => members[mi].skills.includes(n.skill)).length >= n.minStaff),
  ).length;
  const placesTotal = problem.slots.reduce((n, s) => n + s.minStaff, 0);
  const placesFilled = problem.slots.reduce((n, s, si) => n + Math.min(s.minStaff, onSlot[si].length), 0);
  roster.status = ROSTER.next(roster.status, 'generate');
  Object.assign(roster, {
    generationStatus: GenerationStatus.succeeded,
    generationProgress: 100,
    generationError: null,
    generatedAt: now,
    solverStatus: solved.solverStatus,
    solveSeconds: Math.round(solved.seconds * 1000) / 1000,
    requirementsTotal: problem.slots.length,
    requirementsMet: met,
    placesTotal,
    placesFilled,
    coverage: solved.coverage,
  });
  emitEvent(em, 'org', ROSTER_GENERATED, {
    roster_id: rosterId,
    organization_id: roster.organizationId,
    requirements_total: problem.slots.length,
    requirements_met: met,
    places_total: placesTotal,
    places_filled: placesFilled,
  });
  logger.info({ rosterId, assignments: active, met, slots: problem.slots.length, seconds: solved.seconds }, 'roster generated');
}
