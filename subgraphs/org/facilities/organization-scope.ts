import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { requireOrgPermission, requireViewer, type Permission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { OrganizationService } from '../organizations/organization.service';

/**
 * `permission` inside the organization of a path (`/api/organizations/:org_id/...`): 401 without credentials, 404
 * naming `hiddenAs` for outsiders and for ids that name no organization, 403 for members without the permission.
 */
export async function requireOrganization(
  ctx: SubgraphContext,
  organizationId: string,
  permission: Permission,
  hiddenAs: string,
): Promise<Viewer> {
  requireViewer(ctx.viewer);
  if (!isUuid(organizationId)) throw errors.notFound(hiddenAs);
  const viewer = requireOrgPermission(ctx.viewer, organizationId, permission, hiddenAs);
  // Administrators pass every membership check; an organization must still exist to hold records.
  if (isPlatformAdmin(viewer) && !(await new OrganizationService().load(ctx, organizationId))) throw errors.notFound(hiddenAs);
  return viewer;
}

/** `"schema"."table"` of an entity, for the few statements written in SQL. */
export function tableOf(em: EntityManager, entity: EntityClass<object>): string {
  const meta = em.getMetadata().get(entity.name);
  return `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
}
