import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { can, requireOrgPermission, requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { AttendanceEntry, clockOutEntry } from './attendance.entity';
import type { AttendanceDay, AttendanceTodayArgs, AttendanceTotal, ClockInInput, ClockOutInput } from './attendance.types';
import { memberOrganization } from './membership';

const DAY_MS = 86_400_000;
const alreadyIn = () => errors.conflict('You are already clocked in at this organization; clock out first');

/** Clocking in and out at an organization, and the day's attendance. People only: API keys get 403. */
export class AttendanceService {
  async clockIn(ctx: SubgraphContext, input: ClockInInput): Promise<AttendanceEntry> {
    const viewer = requireUser(ctx.viewer);
    const organizationId = memberOrganization(viewer, input.organizationId);
    if (await ctx.em.count(AttendanceEntry, { organizationId, userId: viewer.userId, clockOutAt: null })) throw alreadyIn();
    const entry = ctx.em.create(AttendanceEntry, {
      organizationId,
      userId: viewer.userId,
      clockInAt: clock.now(),
      note: input.note?.trim() ?? null,
      location: input.location?.trim() ?? null,
    });
    // Two clock-ins at the same moment both pass the count; the partial unique index lets one in.
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException ? alreadyIn() : err;
    });
    return entry;
  }

  /** Closes the caller's open entry (at the organization named, or the only one open) and works out its duration. */
  async clockOut(ctx: SubgraphContext, input: ClockOutInput): Promise<AttendanceEntry> {
    const viewer = requireUser(ctx.viewer);
    const where: FilterQuery<AttendanceEntry> = { userId: viewer.userId, clockOutAt: null };
    if (input.organizationId) where.organizationId = memberOrganization(viewer, input.organizationId);
    return ctx.em.transactional(async (em) => {
      // Locked: of two clock-outs at once, the second finds nothing open.
      const open = await em.find(AttendanceEntry, where, {
        lockMode: LockMode.PESSIMISTIC_WRITE,
        refresh: true,
        orderBy: { clockInAt: 'asc' },
      });
      if (!open.length) throw errors.conflict(`You are not clocked in${input.organizationId ? ' at this organization' : ''}`);
      if (open.length > 1) throw errors.invalidField('organizationId', 'is required: you are clocked in at several organizations');
      const entry = open[0];
      clockOutEntry(entry, clock.now(), input.note?.trim() ?? null);
      return entry;
    });
  }

  /**
   * Entries overlapping today (UTC) with minutes per member. Without arguments: the caller's own, everywhere. With
   * `organizationId`: the caller's own there, or every member's for those with `members:manage`; with `userId` too:
   * that member's (someone else's needs `members:manage`).
   */
  async today(ctx: SubgraphContext, args: AttendanceTodayArgs): Promise<AttendanceDay> {
    const viewer = requireUser(ctx.viewer);
    const now = clock.now();
    const dayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    const where: FilterQuery<AttendanceEntry> = {
      clockInAt: { $lt: new Date(dayEnd) },
      $or: [{ clockOutAt: null }, { clockOutAt: { $gte: new Date(dayStart) } }],
    };
    if (args.userId && !isUuid(args.userId)) throw errors.invalidField('userId', 'must be a UUID');
    if (args.organizationId) {
      if (!isUuid(args.organizationId)) throw errors.notFound('Organization');
      requireOrgPermission(viewer, args.organizationId, 'organizations:read');
      where.organizationId = args.organizationId;
      const manager = can(viewer, 'members:manage', args.organizationId);
      if (args.userId && args.userId !== viewer.userId && !manager) {
        throw errors.forbidden("Only organization administrators see other members' attendance");
      }
      if (args.userId || !manager) where.userId = args.userId ?? viewer.userId;
    } else {
      if (args.userId && args.userId !== viewer.userId) throw errors.invalidField('organizationId', 'is required with userId');
      where.userId = viewer.userId;
    }
    const entries = await ctx.em.find(AttendanceEntry, where, { orderBy: { clockInAt: 'asc', id: 'asc' } });
    const totals = new Map<string, AttendanceTotal & { ms: number }>();
    for (const e of entries) {
      const key = `${e.organizationId}:${e.userId}`;
      const t = totals.get(key) ?? {
        organizationId: e.organizationId,
        userId: e.userId,
        minutes: 0,
        entryCount: 0,
        clockedIn: false,
        ms: 0,
      };
      const from = Math.max(e.clockInAt.getTime(), dayStart);
      const to = Math.min(e.clockOutAt?.getTime() ?? now.getTime(), dayEnd);
      t.ms += Math.max(0, to - from);
      t.entryCount += 1;
      t.clockedIn ||= !e.clockOutAt;
      totals.set(key, t);
    }
    const list = [...totals.values()].map(({ ms, ...t }) => ({ ...t, minutes: Math.floor(ms / 60_000) }));
    return {
      date: new Date(dayStart).toISOString().slice(0, 10),
      entries,
      totalMinutes: list.reduce((sum, t) => sum + t.minutes, 0),
      totals: list,
    };
  }
}
