import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DoctorProfile, DoctorVerification } from '../doctors/doctor.entity';
import { Appointment, RELEASED_STATUSES } from './appointment.entity';
import { addDays, dayBounds, daySlots, today, type Interval } from './calendar';
import { ResourceType, SchedulableResource, Schedule } from './resource.entity';
import type { AvailabilityArgs, DoctorAvailability, DoctorAvailabilityArgs, ResourceAvailability } from './resource.types';
import { inActiveOrganization, visibleResource } from './scheduling-access';

/** The times appointments hold on some resources within a range. */
async function takenTimes(ctx: SubgraphContext, resourceIds: string[], range: Interval): Promise<Map<string, Interval[]>> {
  const rows = await ctx.em.find(
    Appointment,
    {
      resource: { $in: resourceIds },
      status: { $nin: RELEASED_STATUSES },
      startTime: { $lt: new Date(range.end) },
      endTime: { $gt: new Date(range.start) },
    },
    { fields: ['resource', 'startTime', 'endTime'] },
  );
  const out = new Map<string, Interval[]>();
  for (const a of rows) {
    const list = out.get(a.resource.id) ?? [];
    list.push({ start: a.startTime.getTime(), end: a.endTime.getTime() });
    out.set(a.resource.id, list);
  }
  return out;
}

async function schedulesOf(ctx: SubgraphContext, resourceIds: string[]): Promise<Map<string, Schedule[]>> {
  const out = new Map<string, Schedule[]>();
  for (const s of await ctx.em.find(Schedule, { resource: { $in: resourceIds } })) {
    out.set(s.resource.id, [...(out.get(s.resource.id) ?? []), s]);
  }
  return out;
}

export class AvailabilityService {
  /**
   * Public: the slots of a resource on a date of its time zone that have not begun, each `available` unless an
   * appointment holds its time. An inactive resource has none.
   */
  async forResource(ctx: SubgraphContext, args: AvailabilityArgs): Promise<ResourceAvailability> {
    const resource = await visibleResource(ctx, args.resourceId);
    const answer = { resourceId: resource.id, date: args.date, timeZone: resource.timeZone };
    if (!resource.active) return { ...answer, slots: [] };
    const day = dayBounds(args.date, resource.timeZone);
    const schedules = (await schedulesOf(ctx, [resource.id])).get(resource.id) ?? [];
    const taken = (await takenTimes(ctx, [resource.id], day)).get(resource.id) ?? [];
    const slots = daySlots(schedules, resource.timeZone, args.date, taken, clock.nowMs());
    return { ...answer, slots: slots.map((s) => ({ startTime: new Date(s.start), endTime: new Date(s.end), available: s.available })) };
  }

  /**
   * Public: for each date from `from`, the free slots of an approved doctor across their active resources (each
   * date read in each resource's own time zone), and the first of them.
   */
  async forDoctor(ctx: SubgraphContext, args: DoctorAvailabilityArgs): Promise<DoctorAvailability> {
    const doctor = isUuid(args.doctorId) ? await ctx.em.findOne(DoctorProfile, { id: args.doctorId }) : null;
    if (!doctor || doctor.verificationStatus === DoctorVerification.rejected) throw errors.notFound('Doctor');
    const now = clock.now();
    const from = args.from ?? today(now);
    const dates = Array.from({ length: args.days ?? 7 }, (_, i) => addDays(from, i));
    const resources = await ctx.em.find(
      SchedulableResource,
      {
        doctorId: doctor.id,
        type: ResourceType.doctor,
        active: true,
        deletedAt: null,
        ...inActiveOrganization(),
      },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    const ids = resources.map((r) => r.id);
    // Wide enough for every time zone: a day either side of the dates asked for.
    const range = { start: dayBounds(addDays(from, -1), 'UTC').start, end: dayBounds(addDays(dates[dates.length - 1], 2), 'UTC').end };
    const schedules = ids.length ? await schedulesOf(ctx, ids) : new Map<string, Schedule[]>();
    const taken = ids.length ? await takenTimes(ctx, ids, range) : new Map<string, Interval[]>();
    return {
      doctorId: doctor.id,
      from,
      days: dates.map((date) => {
        const free = resources
          .flatMap((r) =>
            daySlots(schedules.get(r.id) ?? [], r.timeZone, date, taken.get(r.id) ?? [], now.getTime())
              .filter((s) => s.available)
              .map((s) => ({ resourceId: r.id, startTime: new Date(s.start), endTime: new Date(s.end) })),
          )
          .sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
        return { date, freeSlots: free.length, firstFreeSlot: free[0] ?? null };
      }),
    };
  }
}
