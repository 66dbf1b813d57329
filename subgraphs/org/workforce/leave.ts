import { LockMode } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { emitEvent } from '../../../shared/outbox';
import type { LeaveApprovedPayload } from '../staff/leave.events';
import { WorkforceMember } from './member.entity';
import { AssignmentStatus, Roster, RosterAssignment } from './roster.entity';
import { addDays, DAY_MINUTES, dayNumber, minuteOfDay } from './rules';
import { SWAP, SwapRequest, SwapStatus } from './swap.entity';
import { LEAVE_APPLIED_TO_ROSTERS } from './workforce.events';

/**
 * Approved leave reaches the rosters: every active shift of the member (in any roster of the organization) that
 * overlaps a day of the leave is removed, and becomes a coverage gap saying so; pending swaps of those shifts are
 * cancelled. Each roster touched is locked first, as swaps lock it, so a swap accepted at the same moment applies
 * before or after, never half. Applying the same leave again changes nothing.
 */
export async function applyApprovedLeave(em: EntityManager, leave: LeaveApprovedPayload): Promise<{ removed: string[] }> {
  const members = await em.find(WorkforceMember, { organizationId: leave.organization_id, userId: leave.member_id });
  if (!members.length) return { removed: [] };
  const from = dayNumber(leave.start_date) * DAY_MINUTES;
  const to = (dayNumber(leave.end_date) + 1) * DAY_MINUTES;
  const candidates = await em.find(RosterAssignment, {
    organizationId: leave.organization_id,
    memberId: { $in: members.map((m) => m.id) },
    status: AssignmentStatus.active,
    date: { $gte: addDays(leave.start_date, -1), $lte: leave.end_date },
  });
  const overlapping = candidates.filter((a) => {
    const start = dayNumber(a.date) * DAY_MINUTES + minuteOfDay(a.startTime);
    return start < to && start + a.durationMinutes > from;
  });
  if (!overlapping.length) return { removed: [] };
  const rosterIds = [...new Set(overlapping.map((a) => a.rosterId))].sort();
  await em.find(Roster, { id: { $in: rosterIds } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  const now = clock.now();
  const removed: string[] = [];
  for (const a of await em.find(RosterAssignment, { id: { $in: overlapping.map((o) => o.id) } }, { refresh: true })) {
    if (a.status !== AssignmentStatus.active || !members.some((m) => m.id === a.memberId)) continue;
    Object.assign(a, { status: AssignmentStatus.removed, removedReason: 'leave', leaveRequestId: leave.leave_request_id, removedAt: now });
    removed.push(a.id);
  }
  if (!removed.length) return { removed };
  const cancel = SWAP.transitions.cancel;
  const swaps = await em.find(SwapRequest, {
    status: SwapStatus.pending,
    $or: [{ assignmentId: { $in: removed } }, { targetAssignmentId: { $in: removed } }],
  });
  for (const s of swaps)
    Object.assign(s, { status: cancel.to, cancelReason: 'A shift of this swap was removed for approved leave', decidedAt: now });
  emitEvent(em, 'org', LEAVE_APPLIED_TO_ROSTERS, {
    leave_request_id: leave.leave_request_id,
    organization_id: leave.organization_id,
    member_ids: members.map((m) => m.id),
    removed_assignment_ids: removed,
  });
  return { removed };
}
