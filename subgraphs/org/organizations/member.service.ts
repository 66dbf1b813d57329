import { LockMode, wrap } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { byIds, isUuid, type PageArgs, type PageResult } from '../../../shared/model';
import { requireOrgPermission, requireUser, type Permission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { membershipRole } from '../../../shared/viewer';
import { DoctorOrganization, DoctorProfile } from '../doctors/doctor.entity';
import { recordSecurityEvent } from '../security/security-log';
import { endMembershipWork } from '../staff/membership';
import { forgetUser } from '../users/identity';
import { User } from '../users/user.entity';
import type { MemberListArgs, MemberRoleArgs } from './member.types';
import { ORG_ADMIN, Organization, OrganizationMember } from './organization.entity';

/**
 * An organization the caller may act on with `permission`: outsiders get 404, members without it 403, and an id
 * that names no organization 404 (platform administrators pass the permission check for any id).
 */
export async function organizationWith(ctx: SubgraphContext, id: string, permission: Permission): Promise<Organization> {
  if (!isUuid(id)) throw errors.notFound('Organization');
  requireOrgPermission(ctx.viewer, id, permission);
  const org = await ctx.em.findOne(Organization, { id });
  if (!org) throw errors.notFound('Organization');
  return org;
}

/**
 * Locks the organization row for the rest of the transaction. Every change that could leave an organization without
 * an ORG:ADMIN takes this lock before counting, so two such changes at once apply one after the other and the
 * second counts what the first left. Whatever else locks a membership takes this lock first (`share` when it only
 * needs memberships to hold still), so locks are always taken in the same order and never wait in a cycle.
 */
export async function lockOrganization(em: EntityManager, id: string, mode: 'update' | 'share' = 'update'): Promise<void> {
  const lockMode = mode === 'update' ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_READ;
  const org = await em.findOne(Organization, { id }, { lockMode, refresh: true });
  if (!org) throw errors.notFound('Organization');
}

async function keepAnAdmin(em: EntityManager, organizationId: string, what: string): Promise<void> {
  const admins = await em.count(OrganizationMember, { organization: organizationId, roles: { $overlap: [ORG_ADMIN] } });
  if (admins <= 1) {
    throw errors.conflict(`Cannot ${what} the last ${ORG_ADMIN} of an organization; make another member ${ORG_ADMIN} first`);
  }
}

/** The user's doctor profile links to the organization (doctors module) follow the membership. */
async function doctorLink(em: EntityManager, organizationId: string, userId: string) {
  const profile = await em.findOne(DoctorProfile, { userId }, { fields: ['id'] });
  return profile ? { organization: organizationId, doctor: profile.id } : null;
}

/** Members of an organization: who they are, their role, and changes to both. */
export class MemberService {
  /** Every member, oldest first; any member (or a key with `organizations:read`) may list them. */
  async list(ctx: SubgraphContext, organizationId: string, args: MemberListArgs): Promise<PageResult<OrganizationMember>> {
    await organizationWith(ctx, organizationId, 'organizations:read');
    return this.page(ctx, organizationId, args);
  }

  /** A page of members with their users loaded, for the list and for `Organization.members`. */
  async page(ctx: SubgraphContext, organizationId: string, args: PageArgs & { role?: string }): Promise<PageResult<OrganizationMember>> {
    const [items, total] = await ctx.em.findAndCount(
      OrganizationMember,
      { organization: organizationId, ...(args.role ? { roles: { $overlap: [args.role] } } : {}) },
      { populate: ['user'], limit: args.limit, offset: (args.page - 1) * args.limit, orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return { items, total, page: args.page, limit: args.limit };
  }

  /** `members:manage`. Sets the member's roles (`role` alone makes it their only one). Demoting the last ORG:ADMIN is a 409. */
  async changeRole(ctx: SubgraphContext, args: MemberRoleArgs): Promise<OrganizationMember> {
    requireUser(ctx.viewer);
    await organizationWith(ctx, args.organizationId, 'members:manage');
    if (!isUuid(args.userId)) throw errors.notFound('Member');
    const wanted = [...new Set(args.roles?.length ? args.roles : args.role ? [args.role] : [])];
    if (!wanted.length) throw errors.invalidField('role', 'is required (or `roles`)');
    const member = await ctx.em.transactional(async (em) => {
      await lockOrganization(em, args.organizationId);
      const found = await this.member(em, args.organizationId, args.userId);
      const from = found.roles.length ? found.roles : [found.role];
      if (from.length === wanted.length && from.every((r, i) => r === wanted[i])) return found;
      if (from.includes(ORG_ADMIN) && !wanted.includes(ORG_ADMIN)) await keepAnAdmin(em, args.organizationId, 'demote');
      found.role = wanted[0];
      found.roles = wanted;
      const link = await doctorLink(em, args.organizationId, args.userId);
      if (link) await em.nativeUpdate(DoctorOrganization, link, { role: found.role });
      recordSecurityEvent(
        { ...ctx, em },
        { type: 'member_role_changed', userId: args.userId, organizationId: args.organizationId, details: { from, to: wanted } },
      );
      return found;
    });
    await forgetUser(args.userId);
    this.applyToViewer(ctx, args.organizationId, args.userId, member.roles);
    return member;
  }

  /**
   * `members:manage`, or a member leaving. Removing the last ORG:ADMIN is a 409. The user's doctor profile stops
   * being linked to the organization; their pending leave there is cancelled and open attendance closed.
   */
  async remove(ctx: SubgraphContext, organizationId: string, userId: string): Promise<OrganizationMember> {
    const viewer = requireUser(ctx.viewer);
    const leaving = userId === viewer.userId && !!membershipRole(viewer, organizationId);
    if (leaving) await organizationWith(ctx, organizationId, 'organizations:read');
    else await organizationWith(ctx, organizationId, 'members:manage');
    if (!isUuid(userId)) throw errors.notFound('Member');
    const member = await ctx.em.transactional(async (em) => {
      await lockOrganization(em, organizationId);
      const found = await this.member(em, organizationId, userId);
      if (found.roles.includes(ORG_ADMIN) || found.role === ORG_ADMIN) await keepAnAdmin(em, organizationId, 'remove');
      em.remove(found);
      const link = await doctorLink(em, organizationId, userId);
      if (link) await em.nativeDelete(DoctorOrganization, link);
      await endMembershipWork(em, organizationId, userId);
      recordSecurityEvent({ ...ctx, em }, { type: 'member_removed', userId, organizationId, details: { role: found.role, left: leaving } });
      return found;
    });
    await forgetUser(userId);
    this.applyToViewer(ctx, organizationId, userId, null);
    return member;
  }

  private async member(em: EntityManager, organizationId: string, userId: string): Promise<OrganizationMember> {
    const found = await em.findOne(
      OrganizationMember,
      { organization: organizationId, user: userId },
      { populate: ['user'], refresh: true },
    );
    if (!found) throw errors.notFound('Member');
    return found;
  }

  /** The rest of this request (e.g. `viewerRole`) sees the caller's own change too. */
  private applyToViewer(ctx: SubgraphContext, organizationId: string, userId: string, roles: string[] | null): void {
    const viewer = ctx.viewer;
    if (!viewer || viewer.userId !== userId) return;
    const others = viewer.memberships.filter((m) => m.organizationId !== organizationId);
    ctx.viewer = { ...viewer, memberships: roles?.length ? [...others, { organizationId, role: roles[0], roles }] : others };
  }
}

/** The user behind a membership: already loaded with the member, else batched by request. */
export async function memberUser(ctx: SubgraphContext, member: OrganizationMember): Promise<User | null> {
  if (wrap(member.user).isInitialized()) return member.user;
  return ctx.loader<string, User>('member-user', byIds(ctx.em, User)).load(member.user.id);
}
