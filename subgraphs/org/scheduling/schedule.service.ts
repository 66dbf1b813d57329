import { LockMode } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid, paginate, patchFrom, type PageArgs, type PageResult } from '../../../shared/model';
import { requireOrgPermission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { minutesOf, schedulesCollide, type ScheduleLike } from './calendar';
import { SchedulableResource, Schedule } from './resource.entity';
import type { CreateScheduleInput, UpdateScheduleInput } from './resource.types';
import { resourceWith, visibleResource } from './scheduling-access';

/** Field checks that need more than one field: the window, its breaks, the validity dates. */
function checkShape(s: ScheduleLike): void {
  const issues: FieldIssue[] = [];
  const start = minutesOf(s.startTime);
  const end = minutesOf(s.endTime);
  if (end <= start) issues.push({ field: 'endTime', message: 'must be after start_time' });
  const breaks = s.breaks.map((b, i) => ({ i, start: minutesOf(b.startTime), end: minutesOf(b.endTime) }));
  for (const b of breaks) {
    if (b.end <= b.start) issues.push({ field: `breaks.${b.i}.endTime`, message: 'must be after the break start_time' });
    else if (b.start < start || b.end > end) issues.push({ field: `breaks.${b.i}`, message: 'must be inside the working hours' });
  }
  const ordered = [...breaks].sort((a, b) => a.start - b.start);
  for (let k = 1; k < ordered.length; k++) {
    if (ordered[k].start < ordered[k - 1].end) issues.push({ field: `breaks.${ordered[k].i}`, message: 'must not overlap another break' });
  }
  if (s.validFrom && s.validUntil && s.validUntil < s.validFrom) {
    issues.push({ field: 'validUntil', message: 'must not be before valid_from' });
  }
  if (issues.length) throw errors.validation(issues);
}

/** The days a new schedule works: `days_of_week`, or the one `day_of_week` (0 or 7 is Sunday), or every day. */
function daysOf(input: CreateScheduleInput): number[] {
  if (input.daysOfWeek) return [...input.daysOfWeek].sort((a, b) => a - b);
  if (input.dayOfWeek != null) return [input.dayOfWeek || 7];
  return [1, 2, 3, 4, 5, 6, 7];
}

export class ScheduleService {
  async create(ctx: SubgraphContext, input: CreateScheduleInput): Promise<Schedule> {
    await resourceWith(ctx, input.resourceId, 'scheduling:write');
    const fields: ScheduleLike = {
      daysOfWeek: daysOf(input),
      startTime: input.startTime,
      endTime: input.endTime,
      timeZone: input.timeZone ?? null,
      breaks: (input.breaks ?? []).map((b) => ({ startTime: b.startTime, endTime: b.endTime })),
      slotMinutes: input.slotMinutes ?? 30,
      validFrom: input.validFrom ?? null,
      validUntil: input.validUntil ?? null,
    };
    checkShape(fields);
    return ctx.em.transactional(async (em) => {
      const resource = await this.locked(em, input.resourceId);
      const schedule = em.create(Schedule, { resource, organizationId: resource.organizationId, ...fields });
      await this.checkCollisions(em, resource, schedule);
      return schedule;
    });
  }

  /** The schedules of a resource the caller can see (public for active resources of active organizations). */
  async listForResource(ctx: SubgraphContext, resourceId: string, args: PageArgs): Promise<PageResult<Schedule>> {
    const resource = await visibleResource(ctx, resourceId);
    return paginate(ctx.em, Schedule, { resource }, args, { startTime: 'asc', createdAt: 'asc', id: 'asc' });
  }

  async get(ctx: SubgraphContext, id: string): Promise<Schedule> {
    const schedule = isUuid(id) ? await ctx.em.findOne(Schedule, { id }) : null;
    if (!schedule) throw errors.notFound('Schedule');
    try {
      await visibleResource(ctx, schedule.resource.id);
    } catch {
      throw errors.notFound('Schedule');
    }
    return schedule;
  }

  async update(ctx: SubgraphContext, id: string, input: UpdateScheduleInput): Promise<Schedule> {
    const found = await this.writable(ctx, id);
    const patch = patchFrom(input, ['daysOfWeek', 'startTime', 'endTime', 'breaks', 'slotMinutes']);
    if (patch.daysOfWeek) patch.daysOfWeek = [...patch.daysOfWeek].sort((a, b) => a - b);
    if (patch.breaks) patch.breaks = patch.breaks.map((b) => ({ startTime: b.startTime, endTime: b.endTime }));
    checkShape({ ...found, ...patch } as ScheduleLike);
    return ctx.em.transactional(async (em) => {
      const resource = await this.locked(em, found.resource.id);
      const schedule = await em.findOneOrFail(Schedule, { id }, { refresh: true });
      em.assign(schedule, patch);
      await this.checkCollisions(em, resource, schedule);
      return schedule;
    });
  }

  async delete(ctx: SubgraphContext, id: string): Promise<Schedule> {
    const schedule = await this.writable(ctx, id);
    ctx.em.remove(schedule);
    await ctx.em.flush();
    return schedule;
  }

  private async writable(ctx: SubgraphContext, id: string): Promise<Schedule> {
    const schedule = isUuid(id) ? await ctx.em.findOne(Schedule, { id }) : null;
    if (!schedule) {
      if (!ctx.viewer) throw errors.unauthorized();
      throw errors.notFound('Schedule');
    }
    requireOrgPermission(ctx.viewer, schedule.organizationId, 'scheduling:write', 'Schedule');
    return schedule;
  }

  /** Schedules of one resource are changed one at a time, so two overlapping ones cannot both get in. */
  private async locked(em: SubgraphContext['em'], resourceId: string): Promise<SchedulableResource> {
    const resource = await em.findOne(
      SchedulableResource,
      { id: resourceId, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!resource) throw errors.notFound('Resource');
    return resource;
  }

  /** Two schedules of a resource may not have it work twice at the same moment. */
  private async checkCollisions(em: SubgraphContext['em'], resource: SchedulableResource, schedule: Schedule): Promise<void> {
    const others = await em.find(Schedule, { resource, id: { $ne: schedule.id } });
    const now = clock.now();
    const clash = others.find((o) => schedulesCollide(schedule, o, resource.timeZone, now));
    if (clash) throw errors.conflict(`The schedule overlaps schedule ${clash.id} of the same resource`);
  }
}
