import { LockMode, type ObjectQuery } from '@mikro-orm/core';
import { auditChange } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { can, organizationsWith, requireOrgPermission, requireUser, requireViewer, type Permission } from '../../../shared/permissions';
import { ownPatientId } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DoctorOrganization, DoctorProfile } from '../doctors/doctor.entity';
import { OrganizationStatus } from '../organizations/organization.entity';
import { User } from '../users/user.entity';
import { APPOINTMENT_REQUEST, AppointmentRequest, AppointmentRequestStatus } from './appointment-request.entity';
import { appointmentAudit } from './appointment.entity';
import type { AppointmentRequestListArgs, CreateAppointmentRequestInput } from './appointment.types';
import { bookWithin, checkTimes } from './booking';
import { ResourceType, SchedulableResource } from './resource.entity';
import { visibleResource } from './scheduling-access';

export interface ApproveOptions {
  startTime?: Date | null;
  endTime?: Date | null;
  resourceId?: string | null;
}

export class AppointmentRequestService {
  /**
   * A signed-in user asks for an appointment on a resource, or with a doctor (in the one organization they work in,
   * or the `organization_id` given). Contact details default to the caller's account.
   */
  async create(ctx: SubgraphContext, input: CreateAppointmentRequestInput): Promise<AppointmentRequest> {
    const viewer = requireUser(ctx.viewer);
    const { preferredStart, preferredEnd } = input;
    const missing = [...(preferredStart ? [] : ['preferredStart']), ...(preferredEnd ? [] : ['preferredEnd'])];
    if (missing.length) throw errors.validation(missing.map((field) => ({ field, message: 'is required' })));
    checkTimes(preferredStart!, preferredEnd!, { start: 'preferredStart', end: 'preferredEnd' });
    let organizationId: string;
    let resourceId: string | null = null;
    let doctorId: string | null = null;
    if (input.resourceId) {
      const resource = await visibleResource(ctx, input.resourceId);
      if (!resource.active) throw errors.invalidField('resourceId', 'is not active and takes no bookings');
      organizationId = resource.organizationId;
      resourceId = resource.id;
      doctorId = resource.doctorId ?? null;
    } else if (input.doctorId) {
      doctorId = input.doctorId;
      organizationId = await this.organizationOfDoctor(ctx, input.doctorId, input.organizationId);
    } else {
      throw errors.invalidField('resourceId', 'or doctor_id is required');
    }
    const user = await ctx.em.findOneOrFail(User, { id: viewer.userId });
    const patientId = await ownPatientId(ctx);
    const request = ctx.em.create(AppointmentRequest, {
      organizationId,
      resourceId,
      doctorId,
      requestedBy: viewer.userId,
      patientId,
      patientName: input.patientName?.trim() || `${user.firstName} ${user.lastName}`.trim(),
      patientEmail: (input.patientEmail ?? user.email).trim().toLowerCase(),
      patientPhone: input.patientPhone ?? null,
      preferredStart: preferredStart!,
      preferredEnd: preferredEnd!,
      reason: input.reason?.trim() || null,
    });
    await ctx.em.flush();
    return request;
  }

  /** Staff (`appointments:read`) see their organizations' requests, everyone their own; pending unless asked. */
  async list(ctx: SubgraphContext, args: AppointmentRequestListArgs): Promise<PageResult<AppointmentRequest>> {
    const viewer = requireViewer(ctx.viewer);
    const where: ObjectQuery<AppointmentRequest> = { status: args.status ?? AppointmentRequestStatus.pending };
    if (args.organizationId) where.organizationId = args.organizationId;
    const orgs = organizationsWith(viewer, 'appointments:read');
    if (orgs !== null) {
      const any: ObjectQuery<AppointmentRequest>[] = [];
      if (orgs.length) any.push({ organizationId: { $in: orgs } });
      if (!viewer.apiKey) any.push({ requestedBy: viewer.userId });
      where.$or = any.length ? any : [{ id: { $in: [] } }];
    }
    return paginate(ctx.em, AppointmentRequest, where, args, { preferredStart: 'asc', id: 'asc' });
  }

  /** The requester or staff of its organization (`appointments:read`). */
  async get(ctx: SubgraphContext, id: string): Promise<AppointmentRequest> {
    const viewer = requireViewer(ctx.viewer);
    const request = isUuid(id) ? await ctx.em.findOne(AppointmentRequest, { id }) : null;
    if (!request) throw errors.notFound('Appointment request');
    if (!viewer.apiKey && request.requestedBy === viewer.userId) return request;
    requireOrgPermission(viewer, request.organizationId, 'appointments:read', 'Appointment request');
    return request;
  }

  /**
   * Books the appointment asked for (or at the time and resource staff choose) through the booking path, and
   * links it: pending → approved, in one transaction.
   */
  async approve(ctx: SubgraphContext, id: string, opts: ApproveOptions): Promise<AppointmentRequest> {
    const viewer = (await this.staffRequest(ctx, id, 'appointments:write')).viewer;
    if (opts.resourceId && !isUuid(opts.resourceId)) throw errors.invalidField('resourceId', 'must be a UUID');
    return ctx.em.transactional(async (em) => {
      const request = await this.locked(em, id);
      const next = APPOINTMENT_REQUEST.next(request.status, 'approve');
      const resourceId = opts.resourceId ?? request.resourceId ?? (await this.doctorResource(em, request));
      const appointment = await bookWithin(em, {
        resourceId,
        organizationId: request.organizationId,
        startTime: opts.startTime ?? request.preferredStart,
        endTime: opts.endTime ?? request.preferredEnd,
        patientName: request.patientName,
        patientEmail: request.patientEmail,
        patientPhone: request.patientPhone,
        reason: request.reason,
        patientUserId: request.requestedBy,
        patientId: request.patientId ?? null,
        bookedBy: viewer.userId,
      });
      auditChange(ctx, appointmentAudit('create', appointment, { appointment_request_id: request.id }), em);
      request.status = next;
      request.appointmentId = appointment.id;
      request.decidedBy = viewer.userId;
      request.decidedAt = clock.now();
      return request;
    });
  }

  async reject(ctx: SubgraphContext, id: string, reason?: string | null): Promise<AppointmentRequest> {
    const viewer = (await this.staffRequest(ctx, id, 'appointments:write')).viewer;
    return ctx.em.transactional(async (em) => {
      const request = await this.locked(em, id);
      request.status = APPOINTMENT_REQUEST.next(request.status, 'reject');
      request.rejectionReason = reason?.trim() || null;
      request.decidedBy = viewer.userId;
      request.decidedAt = clock.now();
      return request;
    });
  }

  private async staffRequest(ctx: SubgraphContext, id: string, permission: Permission) {
    const request = isUuid(id) ? await ctx.em.findOne(AppointmentRequest, { id }) : null;
    if (!request) {
      requireViewer(ctx.viewer);
      throw errors.notFound('Appointment request');
    }
    // The requester sees the request, so a refusal is a 403 for them, not a 404.
    const viewer = requireViewer(ctx.viewer);
    if (!viewer.apiKey && request.requestedBy === viewer.userId && !can(viewer, permission, request.organizationId))
      throw errors.forbidden();
    return { request, viewer: requireOrgPermission(ctx.viewer, request.organizationId, permission, 'Appointment request') };
  }

  private locked(em: EntityManager, id: string): Promise<AppointmentRequest> {
    return em.findOneOrFail(AppointmentRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** A request made to a doctor is booked on the doctor's one active resource in the organization. */
  private async doctorResource(em: EntityManager, request: AppointmentRequest): Promise<string> {
    const resources = await em.find(SchedulableResource, {
      organizationId: request.organizationId,
      doctorId: request.doctorId,
      type: ResourceType.doctor,
      active: true,
      deletedAt: null,
    });
    if (resources.length !== 1) {
      throw errors.invalidField(
        'resourceId',
        resources.length ? 'is required: the doctor has several resources' : 'is required: the doctor has no active resource',
      );
    }
    return resources[0].id;
  }

  /** The organization a request to a doctor goes to. */
  private async organizationOfDoctor(ctx: SubgraphContext, doctorId: string, organizationId?: string): Promise<string> {
    const doctor = await ctx.em.findOne(DoctorProfile, { id: doctorId });
    if (!doctor) throw errors.notFound('Doctor');
    const links = await ctx.em.find(DoctorOrganization, { doctor, organization: { status: OrganizationStatus.active } });
    const orgs = links.map((l) => l.organization.id);
    if (organizationId) {
      if (!orgs.includes(organizationId)) throw errors.invalidField('organizationId', 'must be an organization the doctor works in');
      return organizationId;
    }
    if (orgs.length === 1) return orgs[0];
    if (!orgs.length) throw errors.invalidField('doctorId', 'must be a doctor working in an organization');
    throw errors.invalidField('organizationId', 'is required: the doctor works in several organizations');
  }
}
