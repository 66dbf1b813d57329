import { LockMode, type ObjectQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { byIds, isUuid, paginate, patchFrom, type PageResult } from '../../../shared/model';
import { organizationsWith, requireOrgPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DoctorOrganization, DoctorProfile } from '../doctors/doctor.entity';
import { Room } from '../facilities/facility.entity';
import { Organization } from '../organizations/organization.entity';
import { Appointment, AppointmentStatus, RELEASED_STATUSES } from './appointment.entity';
import { ResourceType, SchedulableResource, Schedule } from './resource.entity';
import type { CreateResourceInput, ResourceListArgs, UpdateResourceInput } from './resource.types';
import { inActiveOrganization, resourceWith, visibleResource } from './scheduling-access';

/** Appointments still to come that hold their time (not cancelled, no-show or completed). */
export const upcoming = (now: Date): ObjectQuery<Appointment> => ({
  status: { $nin: [...RELEASED_STATUSES, AppointmentStatus.completed] },
  endTime: { $gt: now },
});

export class ResourceService {
  async create(ctx: SubgraphContext, input: CreateResourceInput): Promise<SchedulableResource> {
    const organizationId = input.organizationId ?? this.onlyOrganization(ctx);
    requireOrgPermission(ctx.viewer, organizationId, 'scheduling:write');
    if (!(await ctx.em.count(Organization, { id: organizationId }))) throw errors.notFound('Organization');
    const doctorId =
      input.type === ResourceType.doctor ? (input.doctorId ?? (await this.ownLinkedProfile(ctx, organizationId))) : input.doctorId;
    await this.checkKind(ctx, organizationId, input.type, doctorId ?? null, input.roomId ?? null);
    const resource = ctx.em.create(SchedulableResource, {
      organizationId,
      type: input.type,
      name: input.name.trim(),
      doctorId: input.type === ResourceType.doctor ? (doctorId ?? null) : null,
      roomId: input.roomId ?? null,
      description: input.description?.trim() ?? null,
      timeZone: input.timeZone ?? 'UTC',
      active: input.active ?? true,
    });
    await ctx.em.flush();
    return resource;
  }

  /**
   * Public: the active resources of active organizations. Members holding `scheduling:read` also see their
   * organizations' inactive ones; platform administrators see all.
   */
  async list(ctx: SubgraphContext, args: ResourceListArgs): Promise<PageResult<SchedulableResource>> {
    const where: ObjectQuery<SchedulableResource> = { deletedAt: null };
    if (args.organizationId) where.organizationId = args.organizationId;
    if (args.type) where.type = args.type;
    if (args.doctorId) where.doctorId = args.doctorId;
    const staffOf = ctx.viewer ? organizationsWith(ctx.viewer, 'scheduling:read') : [];
    if (staffOf !== null) {
      const open = { active: true, ...inActiveOrganization() } as ObjectQuery<SchedulableResource>;
      where.$or = staffOf.length ? [open, { organizationId: { $in: staffOf } }] : [open];
    }
    return paginate(ctx.em, SchedulableResource, where, args, { name: 'asc', id: 'asc' });
  }

  get(ctx: SubgraphContext, id: string): Promise<SchedulableResource> {
    return visibleResource(ctx, id);
  }

  async update(ctx: SubgraphContext, id: string, input: UpdateResourceInput): Promise<SchedulableResource> {
    const resource = await resourceWith(ctx, id, 'scheduling:write');
    const patch = patchFrom(input, ['name', 'doctorId', 'timeZone', 'active']);
    if (patch.name) patch.name = patch.name.trim();
    if (patch.description) patch.description = patch.description.trim();
    if (patch.doctorId !== undefined || patch.roomId) {
      await this.checkKind(ctx, resource.organizationId, resource.type, patch.doctorId ?? resource.doctorId ?? null, patch.roomId ?? null);
    }
    ctx.em.assign(resource, patch);
    await ctx.em.flush();
    return resource;
  }

  /**
   * Deletes a resource and its schedules; 409 while it has appointments to come. A resource with past appointments
   * is kept for their history, hidden from every read.
   */
  async delete(ctx: SubgraphContext, id: string): Promise<SchedulableResource> {
    await resourceWith(ctx, id, 'scheduling:write');
    return ctx.em.transactional(async (em) => {
      // Locked like a booking does, so no appointment slips in between the check and the delete.
      const resource = await em.findOneOrFail(SchedulableResource, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (await em.count(Appointment, { resource, ...upcoming(clock.now()) })) {
        throw errors.conflict('The resource has appointments to come; cancel or move them first');
      }
      await em.nativeDelete(Schedule, { resource });
      if (await em.count(Appointment, { resource })) {
        resource.active = false;
        resource.deletedAt = clock.now();
      } else {
        em.remove(resource);
      }
      return resource;
    });
  }

  /** Batched by request. */
  load(ctx: SubgraphContext, id: string): Promise<SchedulableResource | null> {
    return ctx.loader<string, SchedulableResource>('schedulable-resource', byIds(ctx.em, SchedulableResource)).load(id);
  }

  /** A doctor resource names a doctor working in the organization; only rooms name a room. */
  /** The one organization where the caller may schedule, for a create that names none. */
  private onlyOrganization(ctx: SubgraphContext): string {
    const orgs = organizationsWith(requireViewer(ctx.viewer), 'scheduling:write');
    if (orgs?.length !== 1)
      throw errors.invalidField('organizationId', 'is required (the caller schedules for more or fewer than one organization)');
    return orgs[0];
  }

  /** The caller's own doctor profile, when it is linked to the organization. */
  private async ownLinkedProfile(ctx: SubgraphContext, organizationId: string): Promise<string | undefined> {
    const profile = ctx.viewer && !ctx.viewer.apiKey ? await ctx.em.findOne(DoctorProfile, { userId: ctx.viewer.userId }) : null;
    if (!profile) return undefined;
    return (await ctx.em.count(DoctorOrganization, { doctor: profile.id, organization: organizationId })) ? profile.id : undefined;
  }

  private async checkKind(
    ctx: SubgraphContext,
    organizationId: string,
    type: ResourceType,
    doctorId: string | null,
    roomId: string | null,
  ): Promise<void> {
    if (type !== ResourceType.room && roomId) throw errors.invalidField('roomId', 'is only for room resources');
    if (roomId && !(isUuid(roomId) && (await ctx.em.count(Room, { id: roomId, organizationId })))) {
      throw errors.invalidField('roomId', 'must be a room of the organization');
    }
    if (type !== ResourceType.doctor) {
      if (doctorId) throw errors.invalidField('doctorId', 'is only for doctor resources');
      return;
    }
    // A doctor resource may stand for a doctor without a profile here yet (no availability summary, no video).
    if (!doctorId) return;
    const linked = await ctx.em.count(DoctorOrganization, { doctor: doctorId, organization: organizationId });
    if (!linked || !(await ctx.em.count(DoctorProfile, { id: doctorId }))) {
      throw errors.invalidField('doctorId', 'must be a doctor of the organization');
    }
  }
}
