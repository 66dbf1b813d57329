import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { byIds, given, isUuid, paginate, patchFrom, type PageArgs, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { MEMBER_ADDED } from './organization.events';
import {
  canSeeOrganization,
  requireOrgPermission,
  requirePlatformPermission,
  requireUser,
  requireViewer,
} from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { recordSecurityEvent } from '../security/security-log';
import { forgetUser } from '../users/identity';
import { User } from '../users/user.entity';
import { ORGANIZATION, Organization, OrganizationMember, OrganizationStatus, type OrganizationAction } from './organization.entity';
import type {
  CreateOrganizationInput,
  OrganizationListArgs,
  OrganizationTransitionArgs,
  UpdateOrganizationInput,
} from './organization.types';

/** A place is a latitude and a longitude together: one without the other locates nothing. */
function requireBothOrNeither(latitude: number | null | undefined, longitude: number | null | undefined): void {
  const has = (v: number | null | undefined) => v !== undefined && v !== null;
  if (has(latitude) !== has(longitude)) {
    throw errors.invalidField(
      has(latitude) ? 'longitude' : 'latitude',
      'must be given together with ' + (has(latitude) ? 'latitude' : 'longitude'),
    );
  }
}

export class OrganizationService {
  /** Creates an organization; its creator becomes its first ORG:ADMIN member. */
  async create(ctx: SubgraphContext, input: CreateOrganizationInput): Promise<Organization> {
    const viewer = requireUser(ctx.viewer);
    requireBothOrNeither(input.latitude, input.longitude);
    const org = ctx.em.create(Organization, {
      ...given(input),
      name: input.name.trim(),
      createdBy: viewer.userId,
    });
    // The founder administers the organization; one who registered as a doctor is also its doctor, so a clinic's
    // founding doctor can chart in it from the first day.
    const roles = viewer.registrationRole === 'DOCTOR' ? ['ORG:ADMIN', 'ORG:DOCTOR'] : ['ORG:ADMIN'];
    ctx.em.create(OrganizationMember, {
      organization: org,
      user: ctx.em.getReference(User, viewer.userId),
      role: 'ORG:ADMIN',
      roles,
    });
    emitEvent(ctx.em, 'org', MEMBER_ADDED, {
      organization_id: org.id,
      user_id: viewer.userId,
      role: 'ORG:ADMIN',
    });
    await ctx.em.flush();
    await forgetUser(viewer.userId);
    // The rest of this request (e.g. `viewerRole`) sees the new membership too.
    ctx.viewer = { ...viewer, memberships: [...viewer.memberships, { organizationId: org.id, role: 'ORG:ADMIN', roles }] };
    return org;
  }

  /** The directory: administrators see every organization, everyone else the active ones. */
  async list(ctx: SubgraphContext, args: OrganizationListArgs): Promise<PageResult<Organization>> {
    const viewer = requireViewer(ctx.viewer);
    const where: FilterQuery<Organization> = {};
    if (viewer.apiKey) where.id = viewer.apiKey.organizationId;
    if (isPlatformAdmin(viewer)) {
      if (args.status) where.status = args.status;
    } else {
      where.status = OrganizationStatus.active;
    }
    if (args.search) where.name = { $ilike: `%${args.search.replace(/[\\%_]/g, '\\$&')}%` };
    return paginate(ctx.em, Organization, where, args, { name: 'asc', id: 'asc' });
  }

  /** Organizations the signed-in user is a member of. */
  async mine(ctx: SubgraphContext, args: PageArgs): Promise<PageResult<Organization>> {
    const viewer = requireUser(ctx.viewer);
    const ids = viewer.memberships.map((m) => m.organizationId);
    return paginate(ctx.em, Organization, { id: { $in: ids } }, args, { name: 'asc', id: 'asc' });
  }

  /** Active organizations are visible to every signed-in caller; others only to members and administrators. */
  async get(ctx: SubgraphContext, id: string): Promise<Organization> {
    requireViewer(ctx.viewer);
    const org = await this.visible(ctx, id);
    if (!org) throw errors.notFound('Organization');
    return org;
  }

  /** The organization under the rule of `organization(id)` (batched), or null when missing or not visible to the caller. */
  async visible(ctx: SubgraphContext, id: string): Promise<Organization | null> {
    const viewer = ctx.viewer;
    const org = viewer && isUuid(id) ? await this.load(ctx, id) : null;
    if (!viewer || !org) return null;
    const visible = viewer.apiKey
      ? viewer.apiKey.organizationId === id
      : org.status === OrganizationStatus.active || canSeeOrganization(viewer, id);
    return visible ? org : null;
  }

  async update(ctx: SubgraphContext, id: string, input: UpdateOrganizationInput): Promise<Organization> {
    const org = await this.get(ctx, id);
    requireOrgPermission(ctx.viewer, id, 'organizations:update');
    const patch = patchFrom(input, ['name', 'type']);
    requireBothOrNeither(
      patch.latitude === undefined ? org.latitude : patch.latitude,
      patch.longitude === undefined ? org.longitude : patch.longitude,
    );
    ctx.em.assign(org, patch);
    await ctx.em.flush();
    return org;
  }

  /**
   * Platform administrators move an organization through its states (ORGANIZATION) by one of its actions. The row is
   * locked, so two administrators acting at once apply one after the other.
   */
  async transition(ctx: SubgraphContext, args: OrganizationTransitionArgs, action: OrganizationAction): Promise<Organization> {
    requirePlatformPermission(ctx.viewer, 'admin:organizations');
    if (!isUuid(args.id)) throw errors.notFound('Organization');
    return ctx.em.transactional(async (em) => {
      const org = await em.findOne(Organization, { id: args.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!org) throw errors.notFound('Organization');
      const from = org.status;
      org.status = ORGANIZATION.next(org.status, action);
      org.statusReason = args.reason?.trim() ?? null;
      org.statusChangedAt = clock.now();
      recordSecurityEvent(
        { ...ctx, em },
        { type: 'organization_status_changed', organizationId: org.id, details: { from, to: org.status, reason: org.statusReason } },
      );
      return org;
    });
  }

  /** Batched by request: many references to organizations cost one query. */
  load(ctx: SubgraphContext, id: string): Promise<Organization | null> {
    return ctx.loader<string, Organization>('organization', byIds(ctx.em, Organization)).load(id);
  }
}
