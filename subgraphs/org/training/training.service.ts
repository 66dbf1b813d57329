import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type BaseRecord, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { readableById } from '../../../shared/refs';
import { can, holdsOrgPermission, requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { OrganizationMember } from '../organizations/organization.entity';
import { organizationScope, recordInScope } from '../workforce/access';
import { CME_CREDIT_AWARDED, ENROLLMENT_COMPLETED } from './training.events';
import {
  Assessment,
  AssessmentAttempt,
  CmeCategory,
  CmeCredit,
  CmeSource,
  Course,
  DEFAULT_REQUIRED_CREDITS,
  Enrollment,
  ENROLLMENT,
} from './training.entity';
import type {
  AssessmentListArgs,
  AssessmentQuestion,
  AwardCmeCreditInput,
  CmeCreditListArgs,
  CmeSummary,
  CmeSummaryArgs,
  CourseListArgs,
  CreateAssessmentInput,
  CreateCourseInput,
  EnrollmentListArgs,
} from './training.types';

/** Whose credits a query reads, and from which organization (all when absent). */
type CreditWhere = { userId: string; organizationId?: string };

const round2 = (x: number) => Math.round(x * 100) / 100;
const today = () => clock.now().toISOString().slice(0, 10);

async function requireMember(em: EntityManager, organizationId: string, userId: string, field: string): Promise<void> {
  if (!isUuid(userId)) throw errors.invalidField(field, 'must be a UUID');
  if (!(await em.count(OrganizationMember, { organization: organizationId, user: userId }))) {
    throw errors.invalidField(field, 'must be a member of the organization');
  }
}

/** Stores a credit and its event; a second credit for the same completion or reference is a 409. */
/** A member's own record, or one of an organization where the caller manages training. */
const ownOrManaged = (viewer: Viewer, record: { userId: string; organizationId: string }): boolean =>
  record.userId === viewer.userId || can(viewer, 'training:manage', record.organizationId);

async function award(em: EntityManager, credit: Omit<CmeCredit, keyof BaseRecord>): Promise<CmeCredit> {
  const row = em.create(CmeCredit, credit);
  await em.flush().catch((err) => {
    throw err instanceof UniqueConstraintViolationException
      ? errors.conflict(
          credit.enrollmentId
            ? 'The credits of this course were already awarded'
            : `Credits with reference ${credit.reference} were already awarded to this member`,
        )
      : err;
  });
  emitEvent(em, 'org', CME_CREDIT_AWARDED, {
    cme_credit_id: row.id,
    organization_id: row.organizationId,
    user_id: row.userId,
    credits: row.credits,
    category: row.category,
    activity_date: row.activityDate,
  });
  return row;
}

/**
 * Courses, enrollments with progress, CME credits and assessments of an organization. Training managers
 * (training:manage) write courses and assessments, enroll others and award credits; every member reads courses and
 * assessments, enrolls, reports their own progress and sees their own records.
 */
export class TrainingService {
  async createCourse(ctx: SubgraphContext, input: CreateCourseInput): Promise<Course> {
    const { viewer, organizationId } = await organizationScope(ctx, input.organizationId, 'training:manage');
    const course = ctx.em.create(Course, {
      organizationId,
      title: input.title.trim(),
      provider: input.provider.trim(),
      description: input.description?.trim() ?? null,
      modules: (input.modules ?? []).map((m) => ({ title: m.title.trim(), durationMinutes: m.durationMinutes ?? null })),
      cmeCredits: input.cmeCredits,
      cmeCategory: input.cmeCategory,
      createdBy: viewer.userId,
    });
    await ctx.em.flush();
    return course;
  }

  async listCourses(ctx: SubgraphContext, args: CourseListArgs): Promise<PageResult<Course>> {
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'organizations:read');
    return paginate(ctx.em, Course, { organizationId, ...(args.category ? { cmeCategory: args.category } : {}) }, args);
  }

  async getCourse(ctx: SubgraphContext, id: string): Promise<Course> {
    return (await recordInScope(ctx, Course, id, 'organizations:read', 'Course')).record;
  }

  /** Enrolls the caller, or (training managers) `userId`, a member of the course's organization; once per course. */
  async enroll(ctx: SubgraphContext, courseId: string, userId: string | undefined): Promise<Enrollment> {
    const { record: course } = await recordInScope(ctx, Course, courseId, 'organizations:read', 'Course');
    const viewer = requireUser(ctx.viewer);
    const who = userId ?? viewer.userId;
    if (who !== viewer.userId && !can(viewer, 'training:manage', course.organizationId))
      throw errors.forbidden('Only training managers enroll other members');
    await requireMember(ctx.em, course.organizationId, who, 'userId');
    const enrollment = ctx.em.create(Enrollment, {
      organizationId: course.organizationId,
      courseId: course.id,
      userId: who,
      enrolledBy: viewer.userId,
    });
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException ? errors.duplicate('Already enrolled in this course') : err;
    });
    return enrollment;
  }

  /** The caller's enrollments in the organization; every member's for training managers. */
  async listEnrollments(ctx: SubgraphContext, args: EnrollmentListArgs): Promise<PageResult<Enrollment>> {
    const { viewer, organizationId } = await organizationScope(ctx, args.organizationId, 'organizations:read');
    const where: FilterQuery<Enrollment> = { organizationId };
    if (args.courseId) {
      if (!isUuid(args.courseId)) throw errors.invalidField('courseId', 'must be a UUID');
      where.courseId = args.courseId;
    }
    if (args.status) where.status = args.status;
    if (args.userId && !isUuid(args.userId)) throw errors.invalidField('userId', 'must be a UUID');
    if (can(viewer, 'training:manage', organizationId)) {
      if (args.userId) where.userId = args.userId;
    } else {
      if (args.userId && args.userId !== viewer.userId)
        throw errors.forbidden('Only training managers see the enrollments of other members');
      where.userId = viewer.userId;
    }
    return paginate(ctx.em, Enrollment, where, args);
  }

  /** The enrollee, or a training manager: hidden from everyone else (404). */
  private async enrollmentFor(ctx: SubgraphContext, id: string): Promise<{ viewer: Viewer; enrollment: Enrollment }> {
    const { viewer, record } = await recordInScope(ctx, Enrollment, id, 'organizations:read', 'Enrollment');
    if (!ownOrManaged(viewer, record)) throw errors.notFound('Enrollment');
    return { viewer, enrollment: record };
  }

  /** An enrollment under the rule of `enrollment(id)`, batched; null when there is none or the caller may not read it. */
  visibleEnrollment(ctx: SubgraphContext, id: string): Promise<Enrollment | null> {
    return readableById(
      ctx,
      Enrollment,
      id,
      (viewer, e) => holdsOrgPermission(viewer, e.organizationId, 'organizations:read') && ownOrManaged(viewer, e),
    );
  }

  /** An assessment under the rule of `assessment(id)`, batched; null when there is none or the caller may not read it. */
  visibleAssessment(ctx: SubgraphContext, id: string): Promise<Assessment | null> {
    return readableById(ctx, Assessment, id, (viewer, a) => holdsOrgPermission(viewer, a.organizationId, 'organizations:read'));
  }

  /**
   * A CME credit under the rule of `cmeCredits` (a person's own, or any in an organization where the caller manages
   * training), batched; null when there is none or the caller may not read it.
   */
  visibleCredit(ctx: SubgraphContext, id: string): Promise<CmeCredit | null> {
    return readableById(ctx, CmeCredit, id, (viewer, c) => !viewer.apiKey && !viewer.system && ownOrManaged(viewer, c));
  }

  async getEnrollment(ctx: SubgraphContext, id: string): Promise<Enrollment> {
    return (await this.enrollmentFor(ctx, id)).enrollment;
  }

  /**
   * Sets the progress, 0 to 100 (checked by the input type). At 100 the enrollment is completed and the course's CME
   * credits are awarded, once (a unique index on the credit's enrollment holds that under concurrent calls too);
   * a completed enrollment does not change again (409).
   */
  async updateProgress(ctx: SubgraphContext, id: string, progress: number): Promise<Enrollment> {
    await this.enrollmentFor(ctx, id);
    requireUser(ctx.viewer);
    if (!Number.isInteger(progress) || progress < 0 || progress > 100) throw errors.invalidField('progress', 'must be between 0 and 100');
    return ctx.em.transactional(async (em) => {
      const enrollment = await em.findOneOrFail(Enrollment, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (progress < 100) {
        enrollment.status = ENROLLMENT.next(enrollment.status, 'progress');
        enrollment.progress = progress;
        return enrollment;
      }
      enrollment.status = ENROLLMENT.next(enrollment.status, 'complete');
      enrollment.progress = 100;
      enrollment.completedAt = clock.now();
      const course = await em.findOneOrFail(Course, { id: enrollment.courseId });
      let credit: CmeCredit | null = null;
      if (course.cmeCredits > 0) {
        credit = await award(em, {
          organizationId: enrollment.organizationId,
          userId: enrollment.userId,
          credits: course.cmeCredits,
          category: course.cmeCategory,
          activity: course.title,
          provider: course.provider,
          activityDate: today(),
          source: CmeSource.course_completion,
          enrollmentId: enrollment.id,
          reference: null,
          awardedBy: null,
        });
        enrollment.cmeCreditId = credit.id;
      }
      emitEvent(em, 'org', ENROLLMENT_COMPLETED, {
        enrollment_id: enrollment.id,
        course_id: course.id,
        organization_id: enrollment.organizationId,
        user_id: enrollment.userId,
        cme_credit_id: credit?.id ?? null,
        credits: credit?.credits ?? 0,
      });
      return enrollment;
    });
  }

  async awardCredit(ctx: SubgraphContext, input: AwardCmeCreditInput): Promise<CmeCredit> {
    const { organizationId } = await organizationScope(ctx, input.organizationId, 'training:manage');
    const viewer = requireUser(ctx.viewer);
    await requireMember(ctx.em, organizationId, input.userId, 'userId');
    if (input.activityDate && input.activityDate > today()) throw errors.invalidField('activityDate', 'must not be in the future');
    return ctx.em.transactional((em) =>
      award(em, {
        organizationId,
        userId: input.userId,
        credits: input.credits,
        category: input.category,
        activity: input.activity.trim(),
        provider: input.provider?.trim() ?? null,
        activityDate: input.activityDate ?? today(),
        source: CmeSource.award,
        enrollmentId: null,
        reference: input.reference?.trim() ?? null,
        awardedBy: viewer.userId,
      }),
    );
  }

  /**
   * Whose credits a caller may read: their own (everywhere, or in `organizationId`); another member's in an
   * organization where the caller is a training manager (`organizationId`, or the caller's only organization).
   */
  private async creditScope(ctx: SubgraphContext, args: { organizationId?: string; userId?: string }): Promise<CreditWhere> {
    const viewer = requireUser(ctx.viewer);
    if (args.userId && !isUuid(args.userId)) throw errors.invalidField('userId', 'must be a UUID');
    if (!args.userId || args.userId === viewer.userId) {
      if (!args.organizationId) return { userId: viewer.userId };
      const { organizationId } = await organizationScope(ctx, args.organizationId, 'organizations:read');
      return { userId: viewer.userId, organizationId };
    }
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'training:manage');
    return { userId: args.userId, organizationId };
  }

  async listCredits(ctx: SubgraphContext, args: CmeCreditListArgs): Promise<PageResult<CmeCredit>> {
    const where: FilterQuery<CmeCredit> = { ...(await this.creditScope(ctx, args)) };
    if (args.category) where.category = args.category;
    if (args.from || args.to) where.activityDate = { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lte: args.to } : {}) };
    return paginate(ctx.em, CmeCredit, where, args, { activityDate: 'desc', createdAt: 'desc', id: 'asc' });
  }

  /** Credits per category over a period (a calendar year by default) against the credits required. */
  async summary(ctx: SubgraphContext, args: CmeSummaryArgs): Promise<CmeSummary> {
    const where = await this.creditScope(ctx, args);
    const from = args.from ?? `${today().slice(0, 4)}-01-01`;
    const to = args.to ?? `${from.slice(0, 4)}-12-31`;
    if (to < from) throw errors.invalidField('to', 'must be on or after from');
    const credits = await ctx.em.find(CmeCredit, { ...where, activityDate: { $gte: from, $lte: to } });
    const byCategory = Object.values(CmeCategory).map((category) => {
      const mine = credits.filter((c) => c.category === category);
      return { category, credits: round2(mine.reduce((n, c) => n + c.credits, 0)), activities: mine.length };
    });
    const total = round2(credits.reduce((n, c) => n + c.credits, 0));
    const requiredTotal = args.requiredTotal ?? DEFAULT_REQUIRED_CREDITS;
    return {
      userId: where.userId,
      organizationId: where.organizationId ?? null,
      from,
      to,
      requiredTotal,
      total,
      remaining: round2(Math.max(0, requiredTotal - total)),
      met: total >= requiredTotal,
      byCategory,
    };
  }

  async createAssessment(ctx: SubgraphContext, input: CreateAssessmentInput): Promise<Assessment> {
    const { viewer, organizationId } = await organizationScope(ctx, input.organizationId, 'training:manage');
    if (input.courseId) {
      const course = isUuid(input.courseId) ? await ctx.em.findOne(Course, { id: input.courseId, organizationId }) : null;
      if (!course) throw errors.notFound('Course');
    }
    const bad = input.questions.findIndex((q) => q.correctOption >= q.options.length);
    if (bad >= 0) throw errors.invalidField(`questions[${bad}].correctOption`, 'must be the index of one of the options');
    const assessment = ctx.em.create(Assessment, {
      organizationId,
      courseId: input.courseId ?? null,
      title: input.title.trim(),
      passingScore: input.passingScore ?? 70,
      questions: input.questions.map((q) => ({
        prompt: q.prompt.trim(),
        options: q.options.map((o) => o.trim()),
        correctOption: q.correctOption,
      })),
      createdBy: viewer.userId,
    });
    await ctx.em.flush();
    return assessment;
  }

  async listAssessments(ctx: SubgraphContext, args: AssessmentListArgs): Promise<PageResult<Assessment>> {
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'organizations:read');
    const where: FilterQuery<Assessment> = { organizationId };
    if (args.courseId) {
      if (!isUuid(args.courseId)) throw errors.invalidField('courseId', 'must be a UUID');
      where.courseId = args.courseId;
    }
    return paginate(ctx.em, Assessment, where, args);
  }

  async getAssessment(ctx: SubgraphContext, id: string): Promise<Assessment> {
    return (await recordInScope(ctx, Assessment, id, 'organizations:read', 'Assessment')).record;
  }

  /** The questions as the caller may see them: with the right answers for training managers only. */
  questionsFor(ctx: SubgraphContext, assessment: Assessment): AssessmentQuestion[] {
    const manager = can(ctx.viewer, 'training:manage', assessment.organizationId);
    return assessment.questions.map((q) => ({ prompt: q.prompt, options: q.options, correctOption: manager ? q.correctOption : null }));
  }

  /** Scores the caller's answers (one option per question, in order) and keeps the attempt. */
  async submit(ctx: SubgraphContext, id: string, answers: number[]): Promise<AssessmentAttempt> {
    const { record: assessment } = await recordInScope(ctx, Assessment, id, 'organizations:read', 'Assessment');
    const viewer = requireUser(ctx.viewer);
    const n = assessment.questions.length;
    if (answers.length !== n) throw errors.invalidField('answers', `must give one answer for each of the ${n} questions`);
    const bad = answers.findIndex((a, i) => !Number.isInteger(a) || a < 0 || a >= assessment.questions[i].options.length);
    if (bad >= 0)
      throw errors.invalidField(`answers[${bad}]`, `must be the index of one of the ${assessment.questions[bad].options.length} options`);
    const correctCount = answers.filter((a, i) => a === assessment.questions[i].correctOption).length;
    const score = round2((correctCount / n) * 100);
    const attempt = ctx.em.create(AssessmentAttempt, {
      organizationId: assessment.organizationId,
      assessmentId: assessment.id,
      userId: viewer.userId,
      answers,
      correctCount,
      questionCount: n,
      score,
      passed: score >= assessment.passingScore,
    });
    await ctx.em.flush();
    return attempt;
  }
}
