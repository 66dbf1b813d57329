import { raw } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { can, requireOrgPermission, type Permission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Organization, OrganizationStatus } from '../organizations/organization.entity';
import { OrganizationService } from '../organizations/organization.service';
import { SchedulableResource } from './resource.entity';

/** Whether an organization takes part in the public directory (and so in public booking). */
export async function organizationIsActive(ctx: SubgraphContext, organizationId: string): Promise<boolean> {
  const org: Organization | null = await new OrganizationService().load(ctx, organizationId);
  return org?.status === OrganizationStatus.active;
}

/** A condition on rows with an `organization_id`: the organization is active (a fresh fragment per query). */
export const inActiveOrganization = () => ({
  [raw((alias) => `exists (select 1 from "org"."organizations" o where o.id = ${alias}.organization_id and o.status = 'active')`)]: [],
});

/** A resource that is not deleted, or null. */
export async function findResource(ctx: SubgraphContext, id: string): Promise<SchedulableResource | null> {
  if (!isUuid(id)) return null;
  return ctx.em.findOne(SchedulableResource, { id, deletedAt: null });
}

/**
 * A resource as the caller may see it: anyone sees the active resources of active organizations (public booking
 * needs them); members with `scheduling:read` see all of their organization's. Anyone else: 404.
 */
export async function visibleResource(ctx: SubgraphContext, id: string): Promise<SchedulableResource> {
  const resource = await findResource(ctx, id);
  if (!resource) throw errors.notFound('Resource');
  if (can(ctx.viewer, 'scheduling:read', resource.organizationId)) return resource;
  if (resource.active && (await organizationIsActive(ctx, resource.organizationId))) return resource;
  throw errors.notFound('Resource');
}

/** A resource the caller may act on with `permission` in its organization (401, 404 for outsiders, 403). */
export async function resourceWith(ctx: SubgraphContext, id: string, permission: Permission): Promise<SchedulableResource> {
  const resource = await findResource(ctx, id);
  if (!resource) {
    if (!ctx.viewer) throw errors.unauthorized();
    throw errors.notFound('Resource');
  }
  requireOrgPermission(ctx.viewer, resource.organizationId, permission, 'Resource');
  return resource;
}
