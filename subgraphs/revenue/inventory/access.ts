import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { organizationsWith, requireOrgPermission, requireViewer, type Permission } from '../../../shared/permissions';
import { organizationStatus } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { membershipRole, type Viewer } from '../../../shared/viewer';

/**
 * Who may see and change a facility's stock, purchase orders and orders: its members by role (shared/permissions.ts),
 * its API keys by scope, platform administrators. An outsider learns nothing (404); a member without the role is
 * refused (403).
 */
export async function requireFacility(
  ctx: SubgraphContext,
  facilityId: string,
  permission: Permission,
  field = 'facilityId',
): Promise<Viewer> {
  if (!isUuid(facilityId)) throw errors.invalidField(field, 'must be an organization id');
  const viewer = requireOrgPermission(ctx.viewer, facilityId, permission);
  // A member (or a key) proves the organization exists; a platform administrator's id is asked of org.
  if (!viewer.apiKey && !membershipRole(viewer, facilityId) && !(await organizationStatus(ctx, facilityId))) {
    throw errors.notFound('Organization');
  }
  return viewer;
}

/**
 * The facilities a list covers: the one asked for (checked as above), or every facility where the caller holds
 * `permission`; null means every facility (platform administrators).
 */
export async function facilityScope(
  ctx: SubgraphContext,
  facilityId: string | undefined | null,
  permission: Permission,
): Promise<string[] | null> {
  if (facilityId !== undefined && facilityId !== null) {
    await requireFacility(ctx, facilityId, permission);
    return [facilityId];
  }
  return organizationsWith(requireViewer(ctx.viewer), permission);
}

/** The id of a record named in input, checked as a UUID (400 naming `field`). */
export function requireId(value: string | undefined | null, field: string, what: string): string {
  if (!isUuid(value)) throw errors.invalidField(field, `must be ${what} id`);
  return value;
}
