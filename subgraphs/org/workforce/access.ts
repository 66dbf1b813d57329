import type { EntityClass } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { can, canSeeOrganization, requireOrgPermission, requireViewer, type Permission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { OrganizationService } from '../organizations/organization.service';

/**
 * The organization a workforce or training call acts in, with `permission` checked there: the one named (404 for
 * outsiders and ids that name none, 403 for members whose role lacks the permission), or, when none is named, the
 * API key's organization or the caller's only one (400 naming `organizationId` otherwise).
 */
export async function organizationScope(
  ctx: SubgraphContext,
  organizationId: string | null | undefined,
  permission: Permission,
): Promise<{ viewer: Viewer; organizationId: string }> {
  const viewer = requireViewer(ctx.viewer);
  let id = organizationId ?? undefined;
  if (!id) {
    if (viewer.apiKey) id = viewer.apiKey.organizationId;
    else if (viewer.memberships.length === 1) id = viewer.memberships[0].organizationId;
    else {
      throw errors.invalidField(
        'organizationId',
        viewer.memberships.length ? 'is required: you belong to several organizations' : 'is required: you belong to no organization',
      );
    }
  }
  if (!isUuid(id)) throw errors.notFound('Organization');
  requireOrgPermission(viewer, id, permission);
  // Administrators pass every membership check; the organization must still exist to hold records.
  if (isPlatformAdmin(viewer) && !(await new OrganizationService().load(ctx, id))) throw errors.notFound('Organization');
  return { viewer, organizationId: id };
}

/**
 * A record of an organization by id, for a caller holding `permission` there: 404 (named `what`) for a malformed or
 * unknown id and for callers outside its organization, 403 for members without the permission.
 */
export async function recordInScope<T extends { id: string; organizationId: string }>(
  ctx: SubgraphContext,
  entity: EntityClass<T>,
  id: string,
  permission: Permission,
  what: string,
): Promise<{ viewer: Viewer; record: T }> {
  const viewer = requireViewer(ctx.viewer);
  if (!isUuid(id)) throw errors.notFound(what);
  const record = (await ctx.em.findOne(entity, { id } as never)) as T | null;
  if (!record || !canSeeOrganization(viewer, record.organizationId)) throw errors.notFound(what);
  if (!can(viewer, permission, record.organizationId)) throw errors.forbidden();
  return { viewer, record };
}

/** Checks that every id is a UUID; the field is named in the error. */
export function requireUuids(field: string, ids: readonly string[] | null | undefined): void {
  if (!ids) return;
  const bad = ids.findIndex((id) => !isUuid(id));
  if (bad >= 0) throw errors.invalidField(`${field}[${bad}]`, 'must be a UUID');
}
