import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { readableById } from '../../../shared/refs';
import type { Viewer } from '../../../shared/viewer';
import { LEAVE_APPROVED, type LeaveApprovedPayload } from './leave.events';
import { can, requireOrgPermission, requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { lockOrganization } from '../organizations/member.service';
import { OrganizationMember } from '../organizations/organization.entity';
import { HOLDING_DAYS, LEAVE_REQUEST, LeaveRequest } from './leave.entity';
import type { CreateLeaveRequestInput, LeaveDecisionArgs, LeaveListArgs, OrganizationLeaveListArgs, RejectLeaveArgs } from './leave.types';
import { memberOrganization } from './membership';

const WHAT = 'Leave request';
const DAY_MS = 86_400_000;

const daysBetween = (start: string, end: string) => (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS + 1;

/** Leave requests of members: asked by the member, decided by those with `leave:approve`. People only. */
/** The requester, and approvers of its organization, read a leave request. */
const readsLeave = (viewer: Viewer, leave: LeaveRequest): boolean =>
  leave.userId === viewer.userId || can(viewer, 'leave:approve', leave.organizationId);

export class LeaveService {
  /** A pending request; it may not overlap another pending or approved one of the same member in the organization. */
  async create(ctx: SubgraphContext, input: CreateLeaveRequestInput): Promise<LeaveRequest> {
    const viewer = requireUser(ctx.viewer);
    const organizationId = memberOrganization(viewer, input.organizationId);
    if (input.endDate < input.startDate) throw errors.invalidField('endDate', 'must be on or after the start date');
    return ctx.em.transactional(async (em) => {
      // The membership row is locked (after the organization's, as every membership lock): two requests of one
      // member at once are checked one after the other, and a removal of the member waits or goes first.
      await lockOrganization(em, organizationId, 'share');
      const member = await em.findOne(
        OrganizationMember,
        { organization: organizationId, user: viewer.userId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!member) throw errors.notFound('Organization');
      const overlapping = await em.findOne(LeaveRequest, {
        organizationId,
        userId: viewer.userId,
        status: { $in: HOLDING_DAYS },
        startDate: { $lte: input.endDate },
        endDate: { $gte: input.startDate },
      });
      if (overlapping) {
        throw errors.conflict(
          `These dates overlap your ${overlapping.status} leave from ${overlapping.startDate} to ${overlapping.endDate}`,
        );
      }
      return em.create(LeaveRequest, {
        organizationId,
        userId: viewer.userId,
        type: input.type ?? 'other',
        startDate: input.startDate,
        endDate: input.endDate,
        days: daysBetween(input.startDate, input.endDate),
        reason: input.reason?.trim() ?? null,
      });
    });
  }

  /** The caller's own requests, in every organization, newest first. */
  async mine(ctx: SubgraphContext, args: LeaveListArgs): Promise<PageResult<LeaveRequest>> {
    const viewer = requireUser(ctx.viewer);
    return paginate(ctx.em, LeaveRequest, { userId: viewer.userId, ...this.filters(args) }, args);
  }

  /** Approvers see every request of the organization; other members their own. */
  async listForOrganization(
    ctx: SubgraphContext,
    organizationId: string,
    args: OrganizationLeaveListArgs,
  ): Promise<PageResult<LeaveRequest>> {
    const viewer = requireUser(ctx.viewer);
    if (!isUuid(organizationId)) throw errors.notFound('Organization');
    requireOrgPermission(viewer, organizationId, 'organizations:read');
    if (args.userId && !isUuid(args.userId)) throw errors.invalidField('userId', 'must be a UUID');
    const where: FilterQuery<LeaveRequest> & { userId?: string } = { organizationId, ...this.filters(args) };
    if (!can(viewer, 'leave:approve', organizationId)) {
      if (args.userId && args.userId !== viewer.userId) throw errors.forbidden('Only leave approvers see the leave of other members');
      where.userId = viewer.userId;
    } else if (args.userId) where.userId = args.userId;
    return paginate(ctx.em, LeaveRequest, where, args);
  }

  /** The requester, and approvers of its organization, see a request; everyone else gets 404. */
  async get(ctx: SubgraphContext, id: string): Promise<LeaveRequest> {
    const viewer = requireUser(ctx.viewer);
    const leave = isUuid(id) ? await ctx.em.findOne(LeaveRequest, { id }) : null;
    if (!leave || !readsLeave(viewer, leave)) throw errors.notFound(WHAT);
    return leave;
  }

  /** A leave request under the rule of `leaveRequest(id)`, batched; null when there is none or the caller may not read it. */
  visible(ctx: SubgraphContext, id: string): Promise<LeaveRequest | null> {
    return readableById(ctx, LeaveRequest, id, (viewer, leave) => !viewer.apiKey && !viewer.system && readsLeave(viewer, leave));
  }

  /** pending → approved; emits `svc.workforce.leave_approved` in the same transaction. */
  approve(ctx: SubgraphContext, args: LeaveDecisionArgs): Promise<LeaveRequest> {
    return this.decide(ctx, args, (em, leave, viewerId) => {
      leave.status = LEAVE_REQUEST.next(leave.status, 'approve');
      leave.decidedBy = viewerId;
      leave.decidedAt = clock.now();
      const payload: LeaveApprovedPayload = {
        leave_request_id: leave.id,
        organization_id: leave.organizationId,
        member_id: leave.userId,
        start_date: leave.startDate,
        end_date: leave.endDate,
        type: leave.type,
      };
      emitEvent(em, 'org', LEAVE_APPROVED, payload);
    });
  }

  /** pending → rejected, with an optional reason for the requester. */
  reject(ctx: SubgraphContext, args: RejectLeaveArgs): Promise<LeaveRequest> {
    return this.decide(ctx, args, (_em, leave, viewerId) => {
      leave.status = LEAVE_REQUEST.next(leave.status, 'reject');
      leave.decidedBy = viewerId;
      leave.decidedAt = clock.now();
      leave.decisionReason = args.reason?.trim() ?? null;
    });
  }

  /** The requester withdraws a pending request. Approvers who are not the requester get 403. */
  async cancel(ctx: SubgraphContext, id: string): Promise<LeaveRequest> {
    const viewer = requireUser(ctx.viewer);
    const leave = await this.get(ctx, id);
    if (leave.userId !== viewer.userId) throw errors.forbidden('Only the member who asked for the leave may cancel it');
    return this.locked(ctx, leave.organizationId, id, (_em, row) => {
      row.status = LEAVE_REQUEST.next(row.status, 'cancel');
      row.cancelledAt = clock.now();
    });
  }

  private async decide(
    ctx: SubgraphContext,
    args: LeaveDecisionArgs,
    change: (em: EntityManager, leave: LeaveRequest, viewerId: string) => void,
  ): Promise<LeaveRequest> {
    const viewer = requireUser(ctx.viewer);
    if (!isUuid(args.organizationId)) throw errors.notFound('Organization');
    requireOrgPermission(viewer, args.organizationId, 'leave:approve');
    if (!isUuid(args.id)) throw errors.notFound(WHAT);
    return this.locked(ctx, args.organizationId, args.id, (em, row) => change(em, row, viewer.userId));
  }

  /** Applies `change` with the row locked, so two decisions at once apply one after the other (the second is a 409). */
  private locked(
    ctx: SubgraphContext,
    organizationId: string,
    id: string,
    change: (em: EntityManager, leave: LeaveRequest) => void,
  ): Promise<LeaveRequest> {
    return ctx.em.transactional(async (em) => {
      const row = await em.findOne(LeaveRequest, { id, organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!row) throw errors.notFound(WHAT);
      change(em, row);
      return row;
    });
  }

  private filters(args: LeaveListArgs): { status?: LeaveListArgs['status']; type?: string } {
    return { ...(args.status ? { status: args.status } : {}), ...(args.type ? { type: args.type } : {}) };
  }
}
