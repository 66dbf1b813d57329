import { randomUUID } from 'node:crypto';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageArgs, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { readableById } from '../../../shared/refs';
import type { Viewer } from '../../../shared/viewer';
import { can, holdsOrgPermission, requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { organizationScope, recordInScope, requireUuids } from './access';
import { WorkforceMember } from './member.entity';
import { daysBetween, resolveCoverage, rosterMembers, rosterShiftTypes } from './roster-data';
import {
  AssignmentStatus,
  GENERATING,
  GenerationStatus,
  ROSTER,
  Roster,
  RosterAssignment,
  RosterStatus,
  type CoverageSlot,
} from './roster.entity';
import { minuteOfDay } from './rules';
import { ShiftService } from './shift.service';
import { ShiftType } from './shift-type.entity';
import { ROSTER_GENERATION_REQUESTED, ROSTER_PUBLISHED } from './workforce.events';
import { MAX_ROSTER_DAYS, type AssignmentListArgs, type CoverageGap, type CreateRosterInput, type RosterListArgs } from './workforce.types';

const WHAT = 'Roster';

/** Managers read a roster in any state; other members once it is published. */
const readsRosterState = (viewer: Viewer, roster: Roster): boolean =>
  roster.status === RosterStatus.published || can(viewer, 'workforce:manage', roster.organizationId);
/** Members × shifts to staff the solver takes in one roster (a ward of 30 over 4 weeks of 3 shifts is 2,520). */
const MAX_DECISIONS = 60_000;

/**
 * Rosters: managers (workforce:manage) create, generate, approve and publish them and see them in every state;
 * other members see published rosters only (a roster they may not see is a 404).
 */
export class RosterService {
  async create(ctx: SubgraphContext, input: CreateRosterInput): Promise<Roster> {
    const { viewer, organizationId } = await organizationScope(ctx, input.organizationId, 'workforce:manage');
    if (input.endDate < input.startDate) throw errors.invalidField('endDate', 'must be on or after start_date');
    if (daysBetween(input.startDate, input.endDate) > MAX_ROSTER_DAYS)
      throw errors.invalidField('endDate', `must be at most ${MAX_ROSTER_DAYS} days after start_date`);
    requireUuids('memberIds', input.memberIds);
    requireUuids('shiftTypeIds', input.shiftTypeIds);
    if (input.memberIds) {
      const known = new Set((await ctx.em.find(WorkforceMember, { id: { $in: input.memberIds }, organizationId })).map((m) => m.id));
      const bad = input.memberIds.findIndex((id) => !known.has(id));
      if (bad >= 0) throw errors.invalidField(`memberIds[${bad}]`, 'names no workforce member of the organization');
    }
    if (input.shiftTypeIds) {
      const known = new Set((await ctx.em.find(ShiftType, { id: { $in: input.shiftTypeIds }, organizationId })).map((t) => t.id));
      const bad = input.shiftTypeIds.findIndex((id) => !known.has(id));
      if (bad >= 0) throw errors.invalidField(`shiftTypeIds[${bad}]`, 'names no shift type of the organization');
      const outside = (input.coverageRequirements ?? []).findIndex((r) => !input.shiftTypeIds!.includes(r.shiftTypeId));
      if (outside >= 0) throw errors.invalidField(`coverageRequirements[${outside}].shiftTypeId`, 'must be one of shift_type_ids');
    }
    return ctx.em.transactional(async (em) => {
      const roster = em.create(Roster, {
        organizationId,
        name: input.name.trim(),
        startDate: input.startDate,
        endDate: input.endDate,
        memberIds: input.memberIds ?? null,
        shiftTypeIds: input.shiftTypeIds ?? null,
        createdBy: viewer.userId,
      });
      await em.flush();
      if (input.coverageRequirements?.length) {
        await new ShiftService().addRequirements(em, organizationId, roster.id, input.coverageRequirements, 'coverageRequirements');
      }
      return roster;
    });
  }

  async list(ctx: SubgraphContext, args: RosterListArgs): Promise<PageResult<Roster>> {
    const { viewer, organizationId } = await organizationScope(ctx, args.organizationId, 'workforce:read');
    const where: FilterQuery<Roster> = { organizationId };
    if (!can(viewer, 'workforce:manage', organizationId)) {
      if (args.status && args.status !== RosterStatus.published) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.status = RosterStatus.published;
    } else if (args.status) where.status = args.status;
    return paginate(ctx.em, Roster, where, args, { startDate: 'desc', createdAt: 'desc', id: 'asc' });
  }

  /** A roster the caller may see: any state for managers, published for other members. */
  async get(ctx: SubgraphContext, id: string): Promise<Roster> {
    const { viewer, record } = await recordInScope(ctx, Roster, id, 'workforce:read', WHAT);
    if (!readsRosterState(viewer, record)) throw errors.notFound(WHAT);
    return record;
  }

  /** A roster under the rule of `roster(id)`, batched; null when there is none or the caller may not read it. */
  visible(ctx: SubgraphContext, id: string): Promise<Roster | null> {
    return readableById(
      ctx,
      Roster,
      id,
      (viewer, roster) => holdsOrgPermission(viewer, roster.organizationId, 'workforce:read') && readsRosterState(viewer, roster),
    );
  }

  /**
   * Asks for generation: the roster is queued for the solver job (a bus consumer), which answers at once; the
   * roster's `generationStatus` and `generationProgress` follow the job. From draft, or again from generated.
   */
  async generate(ctx: SubgraphContext, id: string): Promise<Roster> {
    return this.transition(ctx, id, async (em, roster, viewerId) => {
      ROSTER.next(roster.status, 'generate');
      if (GENERATING.includes(roster.generationStatus))
        throw errors.conflict('This roster is already being generated; wait for the job to finish');
      const types = await rosterShiftTypes(em, roster);
      const slots = (await resolveCoverage(em, roster, types)).length;
      if (!slots)
        throw errors.conflict('No coverage requirement applies to this roster: add coverage requirements (or a shift type minimum) first');
      const members = (await rosterMembers(em, roster)).length;
      if (!members) throw errors.conflict('This roster has no members to assign');
      if (members * slots > MAX_DECISIONS) {
        throw errors.conflict(
          `This roster is too large to solve at once (${members} members × ${slots} shifts to staff): split it by ward or by period`,
        );
      }
      roster.generationId = randomUUID();
      roster.generationStatus = GenerationStatus.queued;
      roster.generationProgress = 0;
      roster.generationError = null;
      roster.generationRequestedAt = clock.now();
      emitEvent(em, 'org', ROSTER_GENERATION_REQUESTED, {
        roster_id: roster.id,
        organization_id: roster.organizationId,
        generation_id: roster.generationId,
        requested_by: viewerId,
      });
    });
  }

  async approve(ctx: SubgraphContext, id: string): Promise<Roster> {
    return this.transition(ctx, id, async (_em, roster, viewerId) => {
      if (GENERATING.includes(roster.generationStatus)) throw errors.conflict('Cannot approve a roster while it is being generated');
      roster.status = ROSTER.next(roster.status, 'approve');
      roster.approvedBy = viewerId;
      roster.approvedAt = clock.now();
    });
  }

  /** approved → published: the members are mailed their shifts (a bus consumer of the event emitted here). */
  async publish(ctx: SubgraphContext, id: string): Promise<Roster> {
    return this.transition(ctx, id, async (em, roster, viewerId) => {
      roster.status = ROSTER.next(roster.status, 'publish');
      roster.publishedBy = viewerId;
      roster.publishedAt = clock.now();
      emitEvent(em, 'org', ROSTER_PUBLISHED, {
        roster_id: roster.id,
        organization_id: roster.organizationId,
        start_date: roster.startDate,
        end_date: roster.endDate,
        published_by: viewerId,
      });
    });
  }

  /** The roster's shifts (active by default), by day and start. */
  async assignments(ctx: SubgraphContext, id: string, args: AssignmentListArgs): Promise<PageResult<RosterAssignment>> {
    const roster = await this.get(ctx, id);
    const where: FilterQuery<RosterAssignment> = { rosterId: roster.id, status: args.status ?? AssignmentStatus.active };
    if (args.memberId) {
      if (!isUuid(args.memberId)) throw errors.invalidField('memberId', 'must be a UUID');
      where.memberId = args.memberId;
    }
    if (args.from || args.to) where.date = { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lte: args.to } : {}) };
    return paginate(ctx.em, RosterAssignment, where, args, { date: 'asc', startTime: 'asc', memberId: 'asc', id: 'asc' });
  }

  /**
   * Each part of a requirement the roster leaves short (the staff in all, or the staff with a skill), in date and
   * shift order, with the reason: from the solver's diagnosis at generation, or the shifts removed for leave since.
   */
  async coverageGaps(ctx: SubgraphContext, id: string, args: PageArgs): Promise<PageResult<CoverageGap>> {
    const roster = await this.get(ctx, id);
    const types = new Map((await rosterShiftTypes(ctx.em, roster)).map((t) => [t.id, t]));
    const allTypes = new Map((await ctx.em.find(ShiftType, { organizationId: roster.organizationId })).map((t) => [t.id, t]));
    const generated = !!roster.coverage;
    const demand: CoverageSlot[] = roster.coverage ?? (await resolveCoverage(ctx.em, roster, [...types.values()]));
    const rows = generated ? await ctx.em.find(RosterAssignment, { rosterId: roster.id }) : [];
    const members = new Map(
      (await ctx.em.find(WorkforceMember, { id: { $in: [...new Set(rows.map((r) => r.memberId))] } })).map((m) => [m.id, m]),
    );
    const key = (date: string, typeId: string) => `${date}/${typeId}`;
    const bySlot = new Map<string, RosterAssignment[]>();
    for (const r of rows) bySlot.set(key(r.date, r.shiftTypeId), [...(bySlot.get(key(r.date, r.shiftTypeId)) ?? []), r]);
    const gaps: CoverageGap[] = [];
    const sorted = [...demand].sort(
      (a, b) =>
        a.date.localeCompare(b.date) ||
        minuteOfDay(allTypes.get(a.shiftTypeId)?.startTime ?? '00:00') - minuteOfDay(allTypes.get(b.shiftTypeId)?.startTime ?? '00:00'),
    );
    for (const slot of sorted) {
      const type = allTypes.get(slot.shiftTypeId);
      if (!type) continue;
      const here = bySlot.get(key(slot.date, slot.shiftTypeId)) ?? [];
      const active = here.filter((a) => a.status === AssignmentStatus.active);
      const removed = here.filter((a) => a.status === AssignmentStatus.removed);
      const explain = (part: string, missing: number, skill: string | null) => {
        if (!generated) return { reason: 'not_generated', message: 'The roster has not been generated yet' };
        const lost = removed.filter((a) => !skill || members.get(a.memberId)?.skills.includes(skill));
        const fromGeneration = slot.shortfalls?.[part];
        if (lost.length) {
          const names = lost.map((a) => members.get(a.memberId)?.name ?? 'a member').join(', ');
          const also = fromGeneration ? ` (and at generation: ${fromGeneration.message})` : '';
          return {
            reason: 'leave',
            message: `${lost.length} shift${lost.length > 1 ? 's' : ''} removed for approved leave: ${names}${also}`,
          };
        }
        return fromGeneration ?? { reason: 'not_enough_staff', message: `${missing} missing` };
      };
      const base = { date: slot.date, shiftTypeId: type.id, shiftType: type };
      if (active.length < slot.minStaff) {
        const missing = slot.minStaff - active.length;
        gaps.push({ ...base, skill: null, required: slot.minStaff, assigned: active.length, missing, ...explain('total', missing, null) });
      }
      for (const need of slot.skillNeeds) {
        const have = active.filter((a) => members.get(a.memberId)?.skills.includes(need.skill)).length;
        if (have < need.minStaff) {
          const missing = need.minStaff - have;
          gaps.push({
            ...base,
            skill: need.skill,
            required: need.minStaff,
            assigned: have,
            missing,
            ...explain(need.skill, missing, need.skill),
          });
        }
      }
    }
    const offset = (args.page - 1) * args.limit;
    return { items: gaps.slice(offset, offset + args.limit), total: gaps.length, page: args.page, limit: args.limit };
  }

  /** Applies `change` to the roster with its row locked, for managers of its organization. */
  private async transition(
    ctx: SubgraphContext,
    id: string,
    change: (em: EntityManager, roster: Roster, viewerId: string) => Promise<void>,
  ): Promise<Roster> {
    await recordInScope(ctx, Roster, id, 'workforce:manage', WHAT);
    const viewer = requireUser(ctx.viewer);
    return ctx.em.transactional(async (em) => {
      const roster = await em.findOneOrFail(Roster, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      await change(em, roster, viewer.userId);
      return roster;
    });
  }
}
