import { ArrayMaxSize, ArrayMinSize, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsInRange, IsText } from '../../../shared/validation';
import { Assessment, CmeCategory, CmeCredit, Course, Enrollment, EnrollmentStatus } from './training.entity';

/** Credits in quarters, from 0.25 to 1000 (AMA PRA credits are claimed in quarter-hour increments). */
export function IsCredits(min = 0.25): PropertyDecorator {
  return ValidateBy({
    name: 'isCredits',
    validator: {
      validate: (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= 1000 && Number.isInteger(v * 4),
      defaultMessage: () => `must be ${min} to 1000 in steps of 0.25`,
    },
  });
}

@InputType({ description: 'A part of a course' })
export class CourseModuleInput {
  @Field({ description: 'Title' })
  @IsText(200)
  title!: string;

  @Field(() => Int, { nullable: true, description: 'Expected length in minutes, 1 to 10000' })
  @Min(1, { message: 'must be 1 to 10000' })
  @Max(10000, { message: 'must be 1 to 10000' })
  durationMinutes?: number;
}

@InputType({ description: 'A new course' })
export class CreateCourseInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field({ description: 'Title' })
  @IsText(200)
  title!: string;

  @Field({ description: 'Who gives it' })
  @IsText(200)
  provider!: string;

  @Field({ nullable: true, description: 'What it covers' })
  @IsText(5000)
  description?: string;

  @Field(() => [CourseModuleInput], { nullable: true, description: 'Its modules, in order (at most 100)' })
  @ArrayMaxSize(100, { message: 'must have at most 100 modules' })
  @ValidateNested()
  modules?: CourseModuleInput[];

  @Field(() => Float, { description: 'CME credits completing it earns: 0 to 1000 in steps of 0.25' })
  @IsCredits(0)
  cmeCredits!: number;

  @Field(() => CmeCategory, { description: 'Category of the credits' })
  cmeCategory!: CmeCategory;
}

@ArgsType()
export class OrganizationListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;
}

@ArgsType()
export class CourseListArgs extends OrganizationListArgs {
  @Field(() => CmeCategory, { nullable: true, description: 'Only courses earning credits of this category' })
  category?: CmeCategory;
}

@ArgsType()
export class EnrollmentListArgs extends OrganizationListArgs {
  @Field(() => ID, { nullable: true, description: 'Only this course' })
  courseId?: string;

  @Field(() => ID, { nullable: true, description: 'Only this member (training managers; others see their own)' })
  userId?: string;

  @Field(() => EnrollmentStatus, { nullable: true, description: 'Only enrollments in this state' })
  status?: EnrollmentStatus;
}

@InputType({ description: 'CME credits a manager awards a member' })
export class AwardCmeCreditInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field(() => ID, { description: 'The member (a user who belongs to the organization)' })
  userId!: string;

  @Field(() => Float, { description: 'Credits: 0.25 to 1000 in steps of 0.25' })
  @IsCredits()
  credits!: number;

  @Field(() => CmeCategory, { description: 'Category' })
  category!: CmeCategory;

  @Field({ description: 'The learning activity' })
  @IsText(300)
  activity!: string;

  @Field({ nullable: true, description: 'Who gave it' })
  @IsText(200)
  provider?: string;

  @Field(() => LocalDate, { nullable: true, description: 'When it was earned; today when omitted' })
  activityDate?: string;

  @Field({ nullable: true, description: 'Certificate or activity reference: the same reference is not awarded twice to a member' })
  @IsText(100)
  reference?: string;
}

@ArgsType()
export class CmeCreditListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only credits awarded in this organization (required for another member’s)' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'Whose credits: the caller’s own when omitted; another member’s for training managers' })
  userId?: string;

  @Field(() => CmeCategory, { nullable: true, description: 'Only this category' })
  category?: CmeCategory;

  @Field(() => LocalDate, { nullable: true, description: 'Earned on or after this day' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Earned on or before this day' })
  to?: string;
}

@ArgsType()
export class CmeSummaryArgs {
  @Field(() => ID, { nullable: true, description: 'Only credits awarded in this organization (required for another member’s)' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'Whose credits: the caller’s own when omitted' })
  userId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'First day of the period; 1 January of this year when omitted' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last day of the period; 31 December of the year of `from` when omitted' })
  to?: string;

  @Field(() => Float, { nullable: true, description: 'Credits required over the period; 50 when omitted (see cme.reference.json)' })
  @IsInRange(0, 10000, 'credits')
  requiredTotal?: number;
}

@InputType({ description: 'A multiple-choice question' })
export class AssessmentQuestionInput {
  @Field({ description: 'The question' })
  @IsText(2000)
  prompt!: string;

  @Field(() => [String], { description: '2 to 10 options' })
  @ArrayMinSize(2, { message: 'must have at least 2 options' })
  @ArrayMaxSize(10, { message: 'must have at most 10 options' })
  @IsText(500, { each: true })
  options!: string[];

  @Field(() => Int, { description: 'The right option, 0-based' })
  @Min(0, { message: 'must be the index of one of the options' })
  correctOption!: number;
}

@InputType({ description: 'A new assessment' })
export class CreateAssessmentInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'The course it assesses (of the same organization)' })
  courseId?: string;

  @Field({ description: 'Title' })
  @IsText(200)
  title!: string;

  @Field(() => Int, { nullable: true, description: 'Percent that passes, 0 to 100; 70 when omitted' })
  @Min(0, { message: 'must be 0 to 100' })
  @Max(100, { message: 'must be 0 to 100' })
  passingScore?: number;

  @Field(() => [AssessmentQuestionInput], { description: '1 to 100 questions' })
  @ArrayMinSize(1, { message: 'must have at least 1 question' })
  @ArrayMaxSize(100, { message: 'must have at most 100 questions' })
  @ValidateNested()
  questions!: AssessmentQuestionInput[];
}

@ArgsType()
export class AssessmentListArgs extends OrganizationListArgs {
  @Field(() => ID, { nullable: true, description: 'Only this course’s' })
  courseId?: string;
}

@ObjectType('AssessmentQuestion', { description: 'A question of an assessment' })
export class AssessmentQuestion {
  @Field({ description: 'The question' })
  prompt!: string;

  @Field(() => [String], { description: 'The options, answered by their 0-based index' })
  options!: string[];

  @Field(() => Int, { nullable: true, description: 'The right option; shown to training managers only' })
  correctOption!: number | null;
}

@ObjectType({ description: 'A page of courses' })
export class CoursePage extends PageOf(Course) {}

@ObjectType({ description: 'A page of enrollments' })
export class EnrollmentPage extends PageOf(Enrollment) {}

@ObjectType({ description: 'A page of CME credits' })
export class CmeCreditPage extends PageOf(CmeCredit) {}

@ObjectType({ description: 'A page of assessments' })
export class AssessmentPage extends PageOf(Assessment) {}

@ObjectType('CmeCategoryTotal', { description: 'Credits of one category in a period' })
export class CmeCategoryTotal {
  @Field(() => CmeCategory, { description: 'The category' })
  category!: CmeCategory;

  @Field(() => Float, { description: 'Credits earned' })
  credits!: number;

  @Field(() => Int, { description: 'Activities counted' })
  activities!: number;
}

@ObjectType('CmeSummary', { description: 'A member’s CME credits over a period, per category, against the credits required' })
export class CmeSummary {
  @Field(() => ID, { description: 'The member' })
  userId!: string;

  @Field(() => ID, { nullable: true, description: 'Only credits of this organization, if limited' })
  organizationId!: string | null;

  @Field(() => LocalDate, { description: 'First day of the period' })
  from!: string;

  @Field(() => LocalDate, { description: 'Last day of the period' })
  to!: string;

  @Field(() => Float, { description: 'Credits required over the period' })
  requiredTotal!: number;

  @Field(() => Float, { description: 'Credits earned in the period' })
  total!: number;

  @Field(() => Float, { description: 'Credits still needed (0 once met)' })
  remaining!: number;

  @Field(() => Boolean, { description: 'Whether the total reaches the requirement' })
  met!: boolean;

  @Field(() => [CmeCategoryTotal], { description: 'Per category, every category listed' })
  byCategory!: CmeCategoryTotal[];
}
