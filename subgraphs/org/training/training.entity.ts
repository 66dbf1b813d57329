import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';
import reference from './cme.reference.json';

/** CME credit categories, from cme.reference.json (AMA PRA Category 1 and 2). */
export enum CmeCategory {
  category_1 = 'category_1',
  category_2 = 'category_2',
}
registerEnumType(CmeCategory, {
  name: 'CmeCategory',
  description: reference.categories.map((c) => `${c.code}: ${c.name} (${c.description})`).join('; '),
});
if (reference.categories.some((c) => !(c.code in CmeCategory)))
  throw new Error('cme.reference.json names a category the CmeCategory enum lacks');

export const DEFAULT_REQUIRED_CREDITS: number = reference.default_required_total;

@ObjectType('CourseModule', { description: 'A part of a course' })
export class CourseModule {
  @Field({ description: 'Title' })
  title!: string;

  @Field(() => Int, { nullable: true, description: 'Expected length in minutes' })
  durationMinutes?: number | null;
}

/** A course an organization offers its staff, with the CME credits completing it earns. */
@ObjectType('Course', { description: 'A training course with its modules and the CME credits it earns' })
@Entity({ tableName: 'training_courses' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class Course extends BaseRecord {
  @Field(() => ID, { description: 'The organization offering it' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Title' })
  @Property({ type: 'text' })
  title!: string;

  @Field({ description: 'Who gives it (a college, a society, the hospital)' })
  @Property({ type: 'text' })
  provider!: string;

  @Field(() => String, { nullable: true, description: 'What it covers' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => [CourseModule], { description: 'Its modules, in order' })
  @Property({ type: 'jsonb' })
  modules: Opt<CourseModule[]> = [];

  @Field(() => Float, { description: 'CME credits awarded, once, to each member who completes it' })
  @Property({ type: 'double' })
  cmeCredits!: number;

  @Field(() => CmeCategory, { description: 'Category of those credits' })
  @Enum({ items: () => CmeCategory })
  cmeCategory!: CmeCategory;

  @Field(() => ID, { nullable: true, description: 'Who added it' })
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null;
}

export enum EnrollmentStatus {
  enrolled = 'enrolled',
  in_progress = 'in_progress',
  completed = 'completed',
}
registerEnumType(EnrollmentStatus, { name: 'EnrollmentStatus', description: 'enrolled, in_progress, completed' });

/** progress: 1 to 99 percent. complete: 100 percent; the course's credits are awarded once, and nothing changes after. */
export const ENROLLMENT = stateMachine<EnrollmentStatus, 'progress' | 'complete'>('enrollment', {
  progress: { from: [EnrollmentStatus.enrolled, EnrollmentStatus.in_progress], to: EnrollmentStatus.in_progress },
  complete: { from: [EnrollmentStatus.enrolled, EnrollmentStatus.in_progress], to: EnrollmentStatus.completed },
});

@ObjectType('Enrollment', { description: 'A member taking a course, with their progress' })
@Entity({ tableName: 'training_enrollments' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Unique({ properties: ['courseId', 'userId'] })
export class Enrollment extends BaseRecord {
  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'The course' })
  @Property({ type: 'uuid' })
  courseId!: string;

  @Field(() => ID, { description: 'The member taking it' })
  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => EnrollmentStatus, { description: 'enrolled, in_progress, completed' })
  @Enum({ items: () => EnrollmentStatus, default: EnrollmentStatus.enrolled })
  status: Opt<EnrollmentStatus> = EnrollmentStatus.enrolled;

  @Field(() => Int, { description: 'Percent done, 0 to 100' })
  @Property({ type: 'integer', default: 0 })
  progress: Opt<number> = 0;

  @Field(() => ID, { description: 'Who enrolled them (themself, or a manager)' })
  @Property({ type: 'uuid' })
  enrolledBy!: string;

  @Field(() => Date, { nullable: true, description: 'When it reached 100 percent' })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'The CME credit its completion awarded' })
  @Property({ type: 'uuid', nullable: true })
  cmeCreditId?: string | null;
}

export enum CmeSource {
  course_completion = 'course_completion',
  award = 'award',
}
registerEnumType(CmeSource, {
  name: 'CmeCreditSource',
  description: 'course_completion (awarded by completing a course), or award (by a manager)',
});

/** CME credits a member earned: by completing a course (once per enrollment) or awarded by a manager. */
@ObjectType('CmeCredit', { description: 'Continuing medical education credits a member earned' })
@Entity({ tableName: 'training_cme_credits' })
@Index({ properties: ['userId', 'activityDate'] })
@Index({ properties: ['organizationId', 'activityDate'] })
@Index({
  name: 'training_cme_credits_enrollment_unique',
  expression:
    'create unique index "training_cme_credits_enrollment_unique" on "org"."training_cme_credits" ("enrollment_id") where "enrollment_id" is not null',
})
@Index({
  name: 'training_cme_credits_reference_unique',
  expression:
    'create unique index "training_cme_credits_reference_unique" on "org"."training_cme_credits" ("user_id", lower("reference")) where "reference" is not null',
})
export class CmeCredit extends BaseRecord {
  @Field(() => ID, { description: 'The organization that awarded it' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'The member who earned it' })
  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => Float, { description: 'Credits, in quarters (0.25 to 1000)' })
  @Property({ type: 'double' })
  credits!: number;

  @Field(() => CmeCategory, { description: 'Category' })
  @Enum({ items: () => CmeCategory })
  category!: CmeCategory;

  @Field({ description: 'The learning activity (a course title, a conference)' })
  @Property({ type: 'text' })
  activity!: string;

  @Field(() => String, { nullable: true, description: 'Who gave the activity' })
  @Property({ type: 'text', nullable: true })
  provider?: string | null;

  @Field(() => LocalDate, { description: 'When it was earned; the summary counts it in the period of this day' })
  @Property({ type: 'date' })
  activityDate!: string;

  @Field(() => CmeSource, { description: 'course_completion, or award' })
  @Enum({ items: () => CmeSource })
  source!: CmeSource;

  @Field(() => ID, { nullable: true, description: 'The completed enrollment that earned it' })
  @Property({ type: 'uuid', nullable: true })
  enrollmentId?: string | null;

  @Field(() => String, { nullable: true, description: 'Certificate or activity reference; one credit per member and reference' })
  @Property({ type: 'text', nullable: true })
  reference?: string | null;

  @Field(() => ID, { nullable: true, description: 'The manager who awarded it; null for a course completion' })
  @Property({ type: 'uuid', nullable: true })
  awardedBy?: string | null;
}

/** A question with its options; `correctOption` (0-based) is stored, and shown only to training managers. */
export interface StoredQuestion {
  prompt: string;
  options: string[];
  correctOption: number;
}

@ObjectType('Assessment', { description: 'A multiple-choice assessment, scored on submission' })
@Entity({ tableName: 'training_assessments' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class Assessment extends BaseRecord {
  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { nullable: true, description: 'The course it assesses, if one' })
  @Property({ type: 'uuid', nullable: true })
  courseId?: string | null;

  @Field({ description: 'Title' })
  @Property({ type: 'text' })
  title!: string;

  @Field(() => Int, { description: 'Score, in percent, that passes' })
  @Property({ type: 'integer' })
  passingScore!: number;

  /** The questions with their answers: AssessmentResolver.questions shows them. */
  @Property({ type: 'jsonb' })
  questions!: StoredQuestion[];

  @Field(() => ID, { nullable: true, description: 'Who wrote it' })
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null;
}

@ObjectType('AssessmentAttempt', { description: 'A member’s answers to an assessment and their score' })
@Entity({ tableName: 'training_assessment_attempts' })
@Index({ properties: ['assessmentId', 'userId'] })
export class AssessmentAttempt extends BaseRecord {
  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'The assessment' })
  @Property({ type: 'uuid' })
  assessmentId!: string;

  @Field(() => ID, { description: 'Who answered' })
  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => [Int], { description: 'The option chosen for each question, 0-based, in order' })
  @Property({ type: 'jsonb' })
  answers!: number[];

  @Field(() => Int, { description: 'Questions answered correctly' })
  @Property({ type: 'integer' })
  correctCount!: number;

  @Field(() => Int, { description: 'Questions in all' })
  @Property({ type: 'integer' })
  questionCount!: number;

  @Field(() => Float, { description: 'Percent correct, to two decimals' })
  @Property({ type: 'double' })
  score!: number;

  @Field(() => Boolean, { description: 'Whether the score reaches the passing score' })
  @Property({ type: 'boolean' })
  passed!: boolean;
}
