import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { membershipRole, type Viewer } from '../../../shared/viewer';

/**
 * The organization a member acts in: the one named, which they must belong to (404 otherwise, whoever asks), or,
 * when none is named, their only organization (400 naming `organizationId` when they have several or none).
 */
export function memberOrganization(viewer: Viewer, organizationId: string | null | undefined): string {
  if (organizationId) {
    if (!isUuid(organizationId) || !membershipRole(viewer, organizationId)) throw errors.notFound('Organization');
    return organizationId;
  }
  if (viewer.memberships.length === 1) return viewer.memberships[0].organizationId;
  throw errors.invalidField(
    'organizationId',
    viewer.memberships.length ? 'is required: you belong to several organizations' : 'is required: you belong to no organization',
  );
}
