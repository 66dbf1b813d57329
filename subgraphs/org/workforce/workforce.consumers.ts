import { PermanentEventError, webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { INTERNAL_SIGNATURE_HEADER, platformUrl, signInternalWebhook } from '../../../shared/internal-auth';
import { logger } from '../../../shared/logger';
import { webhookBody } from '../../../shared/webhook-body';
import { queueMail } from '../mail/queue-mail';
import { LEAVE_APPROVED } from '../staff/leave.events';
import { User } from '../users/user.entity';
import { applyApprovedLeave } from './leave';
import { WorkforceMember } from './member.entity';
import { AssignmentStatus, Roster, RosterAssignment } from './roster.entity';
import { ShiftType } from './shift-type.entity';
import { ROSTER_PUBLISHED } from './workforce.events';

export { rosterGeneration } from './roster-generation';

/** The inbound path SPEC names for approved leave (declared with its verifier in the adapter's webhook table). */
export const LEAVE_WEBHOOK_PATH = '/api/workforce/webhooks/leave-approved';

/**
 * Approved leave travels to the rosters the way SPEC draws it: the staff module's `svc.workforce.leave_approved`
 * event is POSTed, whole and signed with the platform's internal secret, to `/api/workforce/webhooks/leave-approved`,
 * where it is verified and stored in the platform's inbox like any provider's webhook (the event id is its
 * idempotency key), and comes back on the bus for `workforce-leave-webhooks`. The same path takes approved leave
 * from an HR system that signs its deliveries with the internal secret.
 */
export const leaveApprovedRelay: ConsumerDefinition = {
  name: 'leave-approved-relay',
  description: `delivers the event, signed with the internal secret, to POST ${LEAVE_WEBHOOK_PATH}`,
  topics: [LEAVE_APPROVED.name],
  async handle(event) {
    const body = JSON.stringify(event);
    const res = await fetch(platformUrl(LEAVE_WEBHOOK_PATH), {
      method: 'POST',
      // Over HTTPS in a deployment; in one process, to itself on loopback, through the trusted local proxy.
      headers: {
        'content-type': 'application/json',
        [INTERNAL_SIGNATURE_HEADER]: await signInternalWebhook(body),
        'x-forwarded-proto': 'https',
      },
      body,
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`${LEAVE_WEBHOOK_PATH} answered ${res.status}`);
  },
};

/** The verified delivery: the member's shifts during the leave are removed from every roster (coverage gaps). */
export const leaveWebhooks: ConsumerDefinition = {
  name: 'workforce-leave-webhooks',
  description: "removes the member's shifts during approved leave from the organization's rosters; they become coverage gaps",
  topics: [webhookTopic('workforce_leave')],
  async handle(event, { em }) {
    const { body } = webhookBody(event);
    if (body.topic !== LEAVE_APPROVED.name) {
      logger.info({ topic: body.topic }, 'workforce webhook for another event; nothing to do');
      return;
    }
    const parsed = LEAVE_APPROVED.payload.safeParse(body.payload);
    if (!parsed.success) throw new PermanentEventError(`leave-approved webhook payload: ${parsed.error.message}`);
    const { removed } = await applyApprovedLeave(em, parsed.data);
    logger.info({ leaveRequestId: parsed.data.leave_request_id, removed: removed.length }, 'approved leave applied to rosters');
  },
};

/** Each member of a published roster gets their shifts by mail (account holders at their account's address). */
export const rosterPublicationMail: ConsumerDefinition = {
  name: 'roster-publication-mail',
  description: 'mails each member of the published roster their shifts',
  topics: [ROSTER_PUBLISHED.name],
  async handle(event, { em }) {
    const parsed = ROSTER_PUBLISHED.payload.safeParse(event.payload);
    if (!parsed.success) throw new PermanentEventError(`${event.topic} payload: ${parsed.error.message}`);
    const roster = await em.findOne(Roster, { id: parsed.data.roster_id });
    if (!roster) throw new PermanentEventError(`roster ${parsed.data.roster_id} does not exist`);
    const shifts = await em.find(
      RosterAssignment,
      { rosterId: roster.id, status: AssignmentStatus.active },
      { orderBy: { date: 'asc', startTime: 'asc' } },
    );
    const memberIds = [...new Set([...(roster.memberIds ?? []), ...shifts.map((s) => s.memberId)])];
    const members = await em.find(
      WorkforceMember,
      roster.memberIds ? { id: { $in: memberIds } } : { organizationId: roster.organizationId },
    );
    const users = new Map(
      (await em.find(User, { id: { $in: members.flatMap((m) => (m.userId ? [m.userId] : [])) } })).map((u) => [u.id, u]),
    );
    const types = new Map((await em.find(ShiftType, { organizationId: roster.organizationId })).map((t) => [t.id, t]));
    for (const member of members) {
      const to = (member.userId ? users.get(member.userId)?.email : member.email) ?? null;
      if (!to) continue;
      const mine = shifts.filter((s) => s.memberId === member.id);
      const lines = mine.map((s) => `- ${s.date} ${types.get(s.shiftTypeId)?.name ?? 'Shift'} ${s.startTime}-${s.endTime}`);
      const text =
        `${roster.name} (${roster.startDate} to ${roster.endDate}) is published.\n\n` +
        (lines.length ? `Your shifts, ${member.name}:\n${lines.join('\n')}\n` : `You have no shifts on it, ${member.name}.\n`);
      // Queued under the event and the recipient: however often the event is applied, each member gets one mail.
      await queueMail(em, `${event.id}:${to}`, {
        to,
        subject: `Roster published: ${roster.name}`,
        text,
        template: 'roster_published',
        data: { roster_id: roster.id, shifts: String(mine.length) },
      });
    }
  },
};
