import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { membershipRole, type Viewer } from '../../../shared/viewer';
import { AttendanceEntry, clockOutEntry } from './attendance.entity';
import { LEAVE_REQUEST, LeaveRequest } from './leave.entity';

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

/**
 * When a membership ends (in the transaction that ends it): the member's pending leave requests there are
 * cancelled, and an open attendance entry is clocked out with a note saying why.
 */
export async function endMembershipWork(em: EntityManager, organizationId: string, userId: string): Promise<void> {
  const now = clock.now();
  const cancel = LEAVE_REQUEST.transitions.cancel;
  await em.nativeUpdate(
    LeaveRequest,
    { organizationId, userId, status: { $in: [...cancel.from] } },
    { status: cancel.to, cancelledAt: now },
  );
  for (const entry of await em.find(AttendanceEntry, { organizationId, userId, clockOutAt: null }))
    clockOutEntry(entry, now, 'Membership ended');
}
