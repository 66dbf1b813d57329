import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Organization } from '../organizations/organization.entity';
import { OrganizationService } from '../organizations/organization.service';
import { Assessment, AssessmentAttempt, CmeCredit, Course, Enrollment } from './training.entity';
import { TrainingService } from './training.service';
import {
  AssessmentListArgs,
  AssessmentPage,
  AssessmentQuestion,
  AwardCmeCreditInput,
  CmeCreditListArgs,
  CmeCreditPage,
  CmeSummary,
  CmeSummaryArgs,
  CourseListArgs,
  CoursePage,
  CreateAssessmentInput,
  CreateCourseInput,
  EnrollmentListArgs,
  EnrollmentPage,
} from './training.types';

const service = new TrainingService();
const loadCourse = (ctx: SubgraphContext, id: string) => ctx.loader<string, Course>('training-course', byIds(ctx.em, Course)).load(id);

@Resolver(() => Course)
export class CourseResolver {
  @Mutation(() => Course, { description: 'Add a course with its modules and CME credits (training:manage)' })
  createCourse(@Arg('input', { description: 'The course' }) input: CreateCourseInput, @Ctx() ctx: SubgraphContext) {
    return service.createCourse(ctx, input);
  }

  @Query(() => CoursePage, { description: 'An organization’s courses, newest first (every member)' })
  courses(@Args() args: CourseListArgs, @Ctx() ctx: SubgraphContext) {
    return service.listCourses(ctx, args);
  }

  @Query(() => Course, { nullable: true, description: 'A course (every member of its organization)' })
  course(@Arg('id', () => ID, { description: 'The course' }) id: string, @Ctx() ctx: SubgraphContext) {
    return service.getCourse(ctx, id);
  }

  @Mutation(() => Enrollment, { description: 'Enroll in a course: the caller, or another member (training:manage); once per course' })
  enrollInCourse(
    @Arg('courseId', () => ID, { description: 'The course' }) courseId: string,
    @Arg('userId', () => ID, { nullable: true, description: 'The member to enroll; the caller when omitted' }) userId: string | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return service.enroll(ctx, courseId, userId ?? undefined);
  }

  @FieldResolver(() => Organization, { nullable: true, description: 'The organization' })
  organization(@Root() course: Course, @Ctx() ctx: SubgraphContext) {
    return new OrganizationService().load(ctx, course.organizationId);
  }
}

@Resolver(() => Enrollment)
export class EnrollmentResolver {
  @Query(() => EnrollmentPage, { description: 'Enrollments, newest first: the caller’s, or every member’s for training managers' })
  enrollments(@Args() args: EnrollmentListArgs, @Ctx() ctx: SubgraphContext) {
    return service.listEnrollments(ctx, args);
  }

  @Query(() => Enrollment, { nullable: true, description: 'An enrollment (the member enrolled, or a training manager)' })
  enrollment(@Arg('id', () => ID, { description: 'The enrollment' }) id: string, @Ctx() ctx: SubgraphContext) {
    return service.getEnrollment(ctx, id);
  }

  @Mutation(() => Enrollment, {
    description:
      'Set the progress, 0 to 100: 100 completes the enrollment and awards the course’s CME credits once; a completed one is a 409',
  })
  updateEnrollmentProgress(
    @Arg('id', () => ID, { description: 'The enrollment' }) id: string,
    @Arg('progress', () => Int, { description: 'Percent done, 0 to 100' }) progress: number,
    @Ctx() ctx: SubgraphContext,
  ) {
    return service.updateProgress(ctx, id, progress);
  }

  @FieldResolver(() => Course, { description: 'The course' })
  course(@Root() enrollment: Enrollment, @Ctx() ctx: SubgraphContext) {
    return loadCourse(ctx, enrollment.courseId);
  }
}

@Resolver(() => CmeCredit)
export class CmeCreditResolver {
  @Mutation(() => CmeCredit, { description: 'Award CME credits to a member (training:manage); a reference is awarded once per member' })
  awardCmeCredit(@Arg('input', { description: 'The credits' }) input: AwardCmeCreditInput, @Ctx() ctx: SubgraphContext) {
    return service.awardCredit(ctx, input);
  }

  @Query(() => CmeCreditPage, { description: 'CME credits, latest first: the caller’s, or a member’s for training managers' })
  cmeCredits(@Args() args: CmeCreditListArgs, @Ctx() ctx: SubgraphContext) {
    return service.listCredits(ctx, args);
  }

  @Query(() => CmeSummary, { description: 'CME credits over a period, per category, against the credits required' })
  cmeCreditSummary(@Args() args: CmeSummaryArgs, @Ctx() ctx: SubgraphContext) {
    return service.summary(ctx, args);
  }
}

@Resolver(() => Assessment)
export class AssessmentResolver {
  @Mutation(() => Assessment, { description: 'Add a multiple-choice assessment (training:manage)' })
  createAssessment(@Arg('input', { description: 'The assessment' }) input: CreateAssessmentInput, @Ctx() ctx: SubgraphContext) {
    return service.createAssessment(ctx, input);
  }

  @Query(() => AssessmentPage, { description: 'An organization’s assessments, newest first (every member)' })
  assessments(@Args() args: AssessmentListArgs, @Ctx() ctx: SubgraphContext) {
    return service.listAssessments(ctx, args);
  }

  @Query(() => Assessment, { nullable: true, description: 'An assessment (every member of its organization)' })
  assessment(@Arg('id', () => ID, { description: 'The assessment' }) id: string, @Ctx() ctx: SubgraphContext) {
    return service.getAssessment(ctx, id);
  }

  @Mutation(() => AssessmentAttempt, { description: 'Answer an assessment: one 0-based option per question, in order; answers the score' })
  submitAssessment(
    @Arg('id', () => ID, { description: 'The assessment' }) id: string,
    @Arg('answers', () => [Int], { description: 'The chosen option of each question, 0-based' }) answers: number[],
    @Ctx() ctx: SubgraphContext,
  ) {
    return service.submit(ctx, id, answers);
  }

  @FieldResolver(() => [AssessmentQuestion], { description: 'The questions; the right options only for training managers' })
  questions(@Root() assessment: Assessment, @Ctx() ctx: SubgraphContext) {
    return service.questionsFor(ctx, assessment);
  }

  @FieldResolver(() => Int, { description: 'How many questions' })
  questionCount(@Root() assessment: Assessment) {
    return assessment.questions.length;
  }

  @FieldResolver(() => Course, { nullable: true, description: 'The course it assesses' })
  course(@Root() assessment: Assessment, @Ctx() ctx: SubgraphContext) {
    return assessment.courseId ? loadCourse(ctx, assessment.courseId) : null;
  }
}
