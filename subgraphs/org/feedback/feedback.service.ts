import { createHash } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { lockedChange } from '../../../shared/locked-change';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { can, canSeeOrganization, organizationsWith, requireUser } from '../../../shared/permissions';
import { consume } from '../../../shared/rate-limit';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { Organization } from '../organizations/organization.entity';
import { OrganizationService } from '../organizations/organization.service';
import { Appointment } from '../scheduling/appointment.entity';
import { AppointmentService } from '../scheduling/appointment.service';
import { FEEDBACK, Feedback, FeedbackStatus } from './feedback.entity';
import type { AnonymousFeedbackInput, FeedbackListArgs, SubmitFeedbackInput, UpdateFeedbackInput } from './feedback.types';

const WHAT = 'Feedback';

/** Platform administrators handle all feedback; an organization's administrators (feedback:manage) the feedback about it. */
function handles(viewer: Viewer, organizationId: string | null | undefined): boolean {
  return isPlatformAdmin(viewer) || (!!organizationId && can(viewer, 'feedback:manage', organizationId));
}

async function checkOrganization(ctx: SubgraphContext, organizationId: string | undefined | null): Promise<void> {
  if (organizationId == null) return;
  if (!isUuid(organizationId) || !(await ctx.em.count(Organization, { id: organizationId }))) {
    throw errors.invalidField('organizationId', 'must be an existing organization');
  }
}

/** A hash of the client address: the rate limit counts per address without keeping the address itself. */
const addressKey = (ip: string | undefined) =>
  createHash('sha256')
    .update(ip ?? 'unknown')
    .digest('hex')
    .slice(0, 32);

/**
 * Feedback from people, signed in or anonymous; read and handled by administrators. Submissions are rate limited
 * (RATE_LIMIT_FEEDBACK_*: per address when anonymous, per user when signed in): beyond, 429.
 */
export class FeedbackService {
  async submit(ctx: SubgraphContext, input: SubmitFeedbackInput): Promise<Feedback> {
    const viewer = requireUser(ctx.viewer);
    const issues: FieldIssue[] = [];
    if (input.organizationId != null && !isUuid(input.organizationId))
      issues.push({ field: 'organizationId', message: 'must be an organization id' });
    if (input.appointmentId != null && !isUuid(input.appointmentId))
      issues.push({ field: 'appointmentId', message: 'must be an appointment id' });
    if (issues.length) throw errors.validation(issues);
    await consume('feedback', `user:${viewer.userId}`);
    let organizationId = input.organizationId ?? null;
    if (input.appointmentId) {
      const appointment = await ctx.em.findOne(Appointment, { id: input.appointmentId });
      const theirs =
        appointment &&
        (appointment.patientUserId === viewer.userId || appointment.patientEmail.toLowerCase() === viewer.email.toLowerCase());
      if (!appointment || !theirs) throw errors.notFound('Appointment');
      if (organizationId && organizationId !== appointment.organizationId) {
        throw errors.invalidField('organizationId', "must be the appointment's organization (or be left out)");
      }
      organizationId = appointment.organizationId;
    } else {
      await checkOrganization(ctx, organizationId);
    }
    const feedback = ctx.em.create(Feedback, {
      category: input.category,
      rating: input.rating,
      message: input.message.trim(),
      organizationId,
      appointmentId: input.appointmentId ?? null,
      anonymous: false,
      submittedBy: viewer.userId,
    });
    await ctx.em.flush();
    return feedback;
  }

  /** Public: no account, and nothing kept about the sender (the address only counts, hashed, in the rate limit). */
  async submitAnonymous(ctx: SubgraphContext, input: AnonymousFeedbackInput): Promise<Feedback> {
    if (input.organizationId != null && !isUuid(input.organizationId))
      throw errors.invalidField('organizationId', 'must be an organization id');
    await consume('feedback', `address:${addressKey(ctx.ip)}`);
    await checkOrganization(ctx, input.organizationId);
    const feedback = ctx.em.create(Feedback, {
      category: input.category,
      rating: input.rating,
      message: input.message.trim(),
      organizationId: input.organizationId ?? null,
      anonymous: true,
      submittedBy: null,
    });
    await ctx.em.flush();
    return feedback;
  }

  /** What the caller may see: everything for platform administrators; else feedback about organizations they handle, and their own. */
  async list(ctx: SubgraphContext, args: FeedbackListArgs): Promise<PageResult<Feedback>> {
    const viewer = requireUser(ctx.viewer);
    const where: FilterQuery<Feedback>[] = [];
    if (args.organizationId != null) {
      if (!isUuid(args.organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
      if (!handles(viewer, args.organizationId) && !args.mine) {
        throw canSeeOrganization(viewer, args.organizationId)
          ? errors.forbidden("Only the organization's administrators read its feedback")
          : errors.notFound('Organization');
      }
      where.push({ organizationId: args.organizationId });
    }
    if (args.mine) where.push({ submittedBy: viewer.userId });
    else if (!isPlatformAdmin(viewer)) {
      const managed = organizationsWith(viewer, 'feedback:manage') ?? [];
      where.push({ $or: [{ submittedBy: viewer.userId }, ...(managed.length ? [{ organizationId: { $in: managed } }] : [])] });
    }
    if (args.status) where.push({ status: args.status });
    if (args.category) where.push({ category: args.category });
    return paginate(ctx.em, Feedback, { $and: where }, args);
  }

  /** Feedback the caller handles, or sent; 404 otherwise. */
  async get(ctx: SubgraphContext, id: string): Promise<Feedback> {
    const viewer = requireUser(ctx.viewer);
    const feedback = isUuid(id) ? await ctx.em.findOne(Feedback, { id }) : null;
    if (!feedback) throw errors.notFound(WHAT);
    if (!handles(viewer, feedback.organizationId) && !(feedback.submittedBy && feedback.submittedBy === viewer.userId)) {
      // A member of the organization it is about learns why not; anyone else, nothing.
      throw feedback.organizationId && canSeeOrganization(viewer, feedback.organizationId)
        ? errors.forbidden("Only the organization's administrators read its feedback")
        : errors.notFound(WHAT);
    }
    return feedback;
  }

  /** Triage or resolve (FEEDBACK machine: 409 otherwise), and the note on what was done. Handlers only. */
  async update(ctx: SubgraphContext, id: string, input: UpdateFeedbackInput): Promise<Feedback> {
    const found = await this.get(ctx, id);
    const viewer = ctx.viewer!;
    if (!handles(viewer, found.organizationId)) throw errors.forbidden('Only administrators change the status of feedback');
    if (input.status === FeedbackStatus.new)
      throw errors.invalidField('status', 'must be triaged or resolved: feedback does not become new again');
    return lockedChange(ctx, Feedback, found.id, (_tx, feedback) => {
      if (input.status) {
        const action = FEEDBACK.actionTo(feedback.status, input.status)!;
        feedback.status = FEEDBACK.next(feedback.status, action);
        if (action === 'triage') {
          feedback.triagedBy = viewer.userId;
          feedback.triagedAt = clock.now();
        } else {
          feedback.resolvedBy = viewer.userId;
          feedback.resolvedAt = clock.now();
        }
      }
      if (input.resolutionNote != null) feedback.resolutionNote = input.resolutionNote.trim();
    });
  }

  /** The organization it is about, batched (whoever sees the feedback may see that). */
  organizationOf(ctx: SubgraphContext, feedback: Feedback): Promise<Organization | null> {
    return feedback.organizationId ? new OrganizationService().load(ctx, feedback.organizationId) : Promise.resolve(null);
  }

  /** The appointment it is about: the sender booked it, and its organization's administrators handle the feedback. */
  appointmentOf(ctx: SubgraphContext, feedback: Feedback): Promise<Appointment | null> {
    return feedback.appointmentId ? new AppointmentService().load(ctx, feedback.appointmentId) : Promise.resolve(null);
  }
}
