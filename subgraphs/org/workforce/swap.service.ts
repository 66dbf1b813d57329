import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { AppError, errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { readableById } from '../../../shared/refs';
import { can, canSeeOrganization, requireUser, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { organizationScope } from './access';
import { WorkforceMember } from './member.entity';
import { MemberService } from './member.service';
import { approvedLeave, assignmentShift, ruleMember } from './roster-data';
import { AssignmentSource, AssignmentStatus, Roster, RosterAssignment, RosterStatus } from './roster.entity';
import { addDays, memberViolations, rosterWeeks, weeksSpan, type TimedShift } from './rules';
import { ShiftType } from './shift-type.entity';
import { SWAP, SwapRequest } from './swap.entity';
import { SHIFT_SWAPPED } from './workforce.events';
import type { CreateSwapRequestInput, SwapListArgs } from './workforce.types';

const WHAT = 'Swap request';
const SWAPPABLE = [RosterStatus.approved, RosterStatus.published];

/** A swap that would break a rule: 409 whose message starts with the rule, also in `extensions.reason`. */
const breaks = (rule: string, message: string) =>
  new AppError('CONFLICT', `The swap breaks the ${rule} rule: ${message}`, undefined, { reason: rule });

/** Who may act for a member: the member through their own account, or a manager for staff without one. */
const actsFor = (viewer: Viewer, member: WorkforceMember) =>
  member.userId ? member.userId === viewer.userId : can(viewer, 'workforce:manage', member.organizationId);

/**
 * Every hard rule the two members would newly break if `given` went from the requester to the target and `taken`
 * (if any) the other way, with everything else they work in the organization's rosters; and the skill mix the
 * roster's requirements ask of each shift moved. Null when the swap keeps every rule.
 */
export async function swapViolation(
  em: EntityManager,
  roster: Roster,
  requester: WorkforceMember,
  target: WorkforceMember,
  given: RosterAssignment,
  taken: RosterAssignment | null,
): Promise<{ rule: string; message: string } | null> {
  const weeks = rosterWeeks(roster.startDate, roster.endDate);
  const span = weeksSpan(weeks);
  const rows = await em.find(RosterAssignment, {
    organizationId: roster.organizationId,
    memberId: { $in: [requester.id, target.id] },
    status: AssignmentStatus.active,
    date: { $gte: addDays(span.from, -1), $lte: addDays(span.to, 1) },
  });
  const types = new Map((await em.find(ShiftType, { organizationId: roster.organizationId })).map((t) => [t.id, t]));
  const leave = await approvedLeave(em, roster.organizationId, [requester, target], span.from, span.to);
  const owner = (a: RosterAssignment) => (a.id === given.id ? target.id : taken && a.id === taken.id ? requester.id : a.memberId);
  for (const member of [requester, target]) {
    const rules = ruleMember(member, leave.get(member.id));
    const split = (owned: (a: RosterAssignment) => boolean) => {
      const mine = rows.filter(owned);
      const here: TimedShift[] = mine.filter((a) => a.rosterId === roster.id).map((a) => assignmentShift(a, types.get(a.shiftTypeId)));
      const elsewhere: TimedShift[] = mine.filter((a) => a.rosterId !== roster.id).map((a) => assignmentShift(a, types.get(a.shiftTypeId)));
      return memberViolations(rules, here, weeks, elsewhere).map((v) => `${v.rule}\n${v.message}`);
    };
    const before = new Set(split((a) => a.memberId === member.id));
    const fresh = split((a) => owner(a) === member.id).find((v) => !before.has(v));
    if (fresh) {
      const [rule, message] = fresh.split('\n');
      return { rule, message };
    }
  }
  // The skill mix of each shift that changes hands, as the roster's requirements ask it.
  const members = new Map([requester, target].map((m) => [m.id, m]));
  for (const moved of [given, taken].filter((a): a is RosterAssignment => !!a)) {
    const slot = roster.coverage?.find((c) => c.date === moved.date && c.shiftTypeId === moved.shiftTypeId);
    if (!slot?.skillNeeds.length) continue;
    const onShift = await em.find(RosterAssignment, {
      rosterId: roster.id,
      date: moved.date,
      shiftTypeId: moved.shiftTypeId,
      status: AssignmentStatus.active,
    });
    const staff = new Map((await em.find(WorkforceMember, { id: { $in: onShift.map((a) => a.memberId) } })).map((m) => [m.id, m]));
    for (const [id, m] of members) staff.set(id, m);
    for (const need of slot.skillNeeds) {
      const count = (who: (a: RosterAssignment) => string) => onShift.filter((a) => staff.get(who(a))?.skills.includes(need.skill)).length;
      const now = count((a) => a.memberId);
      const after = count(owner);
      if (after < need.minStaff && after < now) {
        const name = types.get(moved.shiftTypeId)?.name ?? 'The shift';
        return {
          rule: 'skill_mix',
          message: `${name} on ${moved.date} would have ${after} of the ${need.minStaff} staff with ${need.skill} it needs`,
        };
      }
    }
  }
  return null;
}

/**
 * Shift swaps on approved and published rosters. A member offers one of their shifts to a colleague (with one of
 * the colleague's in exchange, or not); the colleague accepts or rejects; a manager acts for staff without an
 * account. Accepting applies the swap only if both members keep every hard rule; otherwise 409 naming the rule.
 */
export class SwapService {
  async create(ctx: SubgraphContext, input: CreateSwapRequestInput): Promise<SwapRequest> {
    requireViewer(ctx.viewer);
    const given = isUuid(input.assignmentId) ? await ctx.em.findOne(RosterAssignment, { id: input.assignmentId }) : null;
    if (!given || !canSeeOrganization(ctx.viewer, given.organizationId)) throw errors.notFound('Roster assignment');
    const viewer = requireUser(ctx.viewer);
    const roster = await ctx.em.findOneOrFail(Roster, { id: given.rosterId });
    if (!can(viewer, 'workforce:read', roster.organizationId)) throw errors.forbidden();
    if (roster.status !== RosterStatus.published && !can(viewer, 'workforce:manage', roster.organizationId))
      throw errors.notFound('Roster assignment');
    const requester = await ctx.em.findOneOrFail(WorkforceMember, { id: given.memberId });
    if (!actsFor(viewer, requester))
      throw errors.forbidden('Only the member working this shift (or a manager, for staff without an account) may offer it');
    if (!SWAPPABLE.includes(roster.status))
      throw errors.conflict(`Shifts can be swapped once the roster is approved; this one is ${roster.status}`);
    if (given.status !== AssignmentStatus.active) throw errors.conflict('This shift was removed from the roster');
    if (!isUuid(input.targetMemberId)) throw errors.invalidField('targetMemberId', 'must be a UUID');
    const target = await ctx.em.findOne(WorkforceMember, { id: input.targetMemberId, organizationId: roster.organizationId });
    if (!target) throw errors.notFound('Workforce member');
    if (target.id === requester.id) throw errors.invalidField('targetMemberId', 'must be a colleague, not the member working the shift');
    let taken: RosterAssignment | null = null;
    if (input.targetAssignmentId) {
      taken = isUuid(input.targetAssignmentId) ? await ctx.em.findOne(RosterAssignment, { id: input.targetAssignmentId }) : null;
      if (!taken || taken.rosterId !== roster.id || taken.memberId !== target.id || taken.status !== AssignmentStatus.active) {
        throw errors.invalidField('targetAssignmentId', "must be one of the colleague's shifts in this roster");
      }
    }
    const broken = await swapViolation(ctx.em, roster, requester, target, given, taken);
    if (broken) throw breaks(broken.rule, broken.message);
    const swap = ctx.em.create(SwapRequest, {
      organizationId: roster.organizationId,
      rosterId: roster.id,
      assignmentId: given.id,
      requesterMemberId: requester.id,
      targetMemberId: target.id,
      targetAssignmentId: taken?.id ?? null,
      reason: input.reason?.trim() ?? null,
      requestedBy: viewer.userId,
    });
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException ? errors.duplicate('A swap of this shift is already pending') : err;
    });
    return swap;
  }

  /** Managers see every swap of the organization; other members those they ask or are asked. */
  async list(ctx: SubgraphContext, args: SwapListArgs): Promise<PageResult<SwapRequest>> {
    const { viewer, organizationId } = await organizationScope(ctx, args.organizationId, 'workforce:read');
    const where: FilterQuery<SwapRequest> = { organizationId };
    if (args.rosterId) {
      if (!isUuid(args.rosterId)) throw errors.invalidField('rosterId', 'must be a UUID');
      where.rosterId = args.rosterId;
    }
    if (args.status) where.status = args.status;
    if (!can(viewer, 'workforce:manage', organizationId)) {
      const mine = await ctx.em.find(WorkforceMember, { organizationId, userId: viewer.userId });
      const ids = mine.map((m) => m.id);
      where.$or = [{ requesterMemberId: { $in: ids } }, { targetMemberId: { $in: ids } }];
    }
    return paginate(ctx.em, SwapRequest, where, args);
  }

  async get(ctx: SubgraphContext, id: string): Promise<SwapRequest> {
    const viewer = requireViewer(ctx.viewer);
    const swap = isUuid(id) ? await ctx.em.findOne(SwapRequest, { id }) : null;
    if (!swap || !(await this.reads(ctx, viewer, swap))) throw errors.notFound(WHAT);
    return swap;
  }

  /** A swap request under the rule of `swapRequest(id)`, batched; null when there is none or the caller may not read it. */
  visible(ctx: SubgraphContext, id: string): Promise<SwapRequest | null> {
    return readableById(ctx, SwapRequest, id, (viewer, swap) => this.reads(ctx, viewer, swap));
  }

  /** Managers of its organization, and its two members, read a swap request. */
  private async reads(ctx: SubgraphContext, viewer: Viewer, swap: SwapRequest): Promise<boolean> {
    if (!canSeeOrganization(viewer, swap.organizationId)) return false;
    if (can(viewer, 'workforce:manage', swap.organizationId)) return true;
    const members = new MemberService();
    const involved = await Promise.all([swap.requesterMemberId, swap.targetMemberId].map((id) => members.load(ctx, id)));
    return involved.some((m) => m?.userId === viewer.userId);
  }

  /** The colleague (or a manager for a colleague without an account) accepts: the swap is applied, or 409 naming the rule. */
  accept(ctx: SubgraphContext, id: string): Promise<SwapRequest> {
    return this.decide(ctx, id, 'target', async (em, swap, roster, viewer) => {
      swap.status = SWAP.next(swap.status, 'accept');
      if (!SWAPPABLE.includes(roster.status))
        throw errors.conflict(`The roster is ${roster.status}; shifts are swapped on approved or published rosters`);
      const given = await em.findOne(RosterAssignment, { id: swap.assignmentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      const taken = swap.targetAssignmentId
        ? await em.findOne(RosterAssignment, { id: swap.targetAssignmentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
        : null;
      const stale =
        !given ||
        given.status !== AssignmentStatus.active ||
        given.memberId !== swap.requesterMemberId ||
        (swap.targetAssignmentId && (!taken || taken.status !== AssignmentStatus.active || taken.memberId !== swap.targetMemberId));
      if (stale) throw errors.conflict('The shifts of this swap have changed since it was asked for');
      const [requester, target] = await Promise.all([
        em.findOneOrFail(WorkforceMember, { id: swap.requesterMemberId }),
        em.findOneOrFail(WorkforceMember, { id: swap.targetMemberId }),
      ]);
      const broken = await swapViolation(em, roster, requester, target, given!, taken);
      if (broken) throw breaks(broken.rule, broken.message);
      Object.assign(given!, { memberId: target.id, source: AssignmentSource.swap, swapRequestId: swap.id });
      if (taken) Object.assign(taken, { memberId: requester.id, source: AssignmentSource.swap, swapRequestId: swap.id });
      swap.decidedBy = viewer.userId;
      swap.decidedAt = clock.now();
      emitEvent(em, 'org', SHIFT_SWAPPED, {
        swap_request_id: swap.id,
        roster_id: roster.id,
        organization_id: roster.organizationId,
        assignment_id: given!.id,
        target_assignment_id: taken?.id ?? null,
        requester_member_id: requester.id,
        target_member_id: target.id,
      });
    });
  }

  reject(ctx: SubgraphContext, id: string): Promise<SwapRequest> {
    return this.decide(ctx, id, 'target', async (_em, swap, _roster, viewer) => {
      swap.status = SWAP.next(swap.status, 'reject');
      swap.decidedBy = viewer.userId;
      swap.decidedAt = clock.now();
    });
  }

  cancel(ctx: SubgraphContext, id: string): Promise<SwapRequest> {
    return this.decide(ctx, id, 'requester', async (_em, swap, _roster, viewer) => {
      swap.status = SWAP.next(swap.status, 'cancel');
      swap.decidedBy = viewer.userId;
      swap.decidedAt = clock.now();
    });
  }

  /**
   * Applies `change` with the roster and the swap locked (the roster first, as every change of its shifts does), for
   * whoever acts for the `side` member.
   */
  private async decide(
    ctx: SubgraphContext,
    id: string,
    side: 'target' | 'requester',
    change: (em: EntityManager, swap: SwapRequest, roster: Roster, viewer: Viewer) => Promise<void>,
  ): Promise<SwapRequest> {
    const found = await this.get(ctx, id);
    const viewer = requireUser(ctx.viewer);
    const member = await ctx.em.findOneOrFail(WorkforceMember, { id: side === 'target' ? found.targetMemberId : found.requesterMemberId });
    if (!actsFor(viewer, member)) {
      throw errors.forbidden(
        side === 'target'
          ? 'Only the colleague asked (or a manager, for staff without an account) may answer this swap'
          : 'Only the member who asked (or a manager, for staff without an account) may cancel this swap',
      );
    }
    return ctx.em.transactional(async (em) => {
      const roster = await em.findOneOrFail(Roster, { id: found.rosterId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      const swap = await em.findOneOrFail(SwapRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      await change(em, swap, roster, viewer);
      return swap;
    });
  }
}
