import { ArrayMaxSize, ArrayUnique, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { PayloadOf } from '../../../shared/user-errors';
import { LocalDate, LocalTime } from '../../../shared/scalars';
import { IsEmailAddress, IsInRange, IsText } from '../../../shared/validation';
import { WorkforceMember } from './member.entity';
import { AssignmentStatus, Roster, RosterAssignment, RosterStatus } from './roster.entity';
import { CoverageRequirement, DayOfWeek, ShiftType } from './shift-type.entity';
import { SwapRequest, SwapStatus } from './swap.entity';

export const MAX_SKILLS = 30;
export const MAX_ROSTER_DAYS = 84;
export const MAX_STAFF_PER_SHIFT = 200;
const SKILL = /^[a-z0-9][a-z0-9_-]{0,39}$/i;

/** Skill codes: letters, digits, `-` and `_`, up to 40 characters (icu, midwife, triage-nurse); stored in lower case. */
export function IsSkillCodes(): PropertyDecorator {
  return ValidateBy({
    name: 'isSkillCodes',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) && value.length <= MAX_SKILLS && value.every((v) => typeof v === 'string' && SKILL.test(v)),
      defaultMessage: () => `must be at most ${MAX_SKILLS} skill codes of letters, digits, - and _ (icu, triage-nurse)`,
    },
  });
}

export function IsSkillCode(): PropertyDecorator {
  return ValidateBy({
    name: 'isSkillCode',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && SKILL.test(value),
      defaultMessage: () => 'must be a skill code of letters, digits, - and _ (icu, triage-nurse)',
    },
  });
}

@InputType({ description: 'A new member of staff to roster' })
export class CreateWorkforceMemberInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'Their platform account, a member of the organization (name and email come from it)' })
  userId?: string;

  @Field({ nullable: true, description: 'Name on rosters; required without user_id' })
  @IsText(200)
  name?: string;

  @Field({ nullable: true, description: 'Where the published roster is mailed, for staff without an account' })
  @IsEmailAddress()
  email?: string;

  @Field({ description: 'Their job on the ward (Registered nurse)' })
  @IsText(100)
  role!: string;

  @Field(() => Float, { description: 'Contracted hours per week, 1 to 80' })
  @IsInRange(1, 80, 'hours')
  contractedHoursPerWeek!: number;

  @Field(() => [String], { nullable: true, description: `Skill codes, at most ${MAX_SKILLS}; stored in lower case` })
  @IsSkillCodes()
  skills?: string[];

  @Field({ nullable: true, description: 'May work night shifts; true when omitted' })
  nightEligible?: boolean;

  @Field({ nullable: true, description: 'May work weekend shifts; true when omitted' })
  weekendEligible?: boolean;
}

@ObjectType({
  description: 'What createWorkforceMember answers: the member, or what the user must fix (a bad field, a user already a member)',
})
export class CreateWorkforceMemberPayload extends PayloadOf(WorkforceMember, 'workforceMember') {}

@InputType({ description: 'At least min_staff of the staff on the shift have the skill' })
export class SkillRequirementInput {
  @Field({ description: 'Skill code' })
  @IsSkillCode()
  skill!: string;

  @Field(() => Int, { description: `1 to ${MAX_STAFF_PER_SHIFT}` })
  @Min(1, { message: `must be 1 to ${MAX_STAFF_PER_SHIFT}` })
  @Max(MAX_STAFF_PER_SHIFT, { message: `must be 1 to ${MAX_STAFF_PER_SHIFT}` })
  minStaff!: number;
}

@InputType({ description: 'A kind of shift' })
export class CreateShiftTypeInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field({ description: 'Unique in the organization (Day, Night)' })
  @IsText(100)
  name!: string;

  @Field(() => LocalTime, { description: 'Start, HH:MM' })
  startTime!: string;

  @Field(() => LocalTime, { description: 'End, HH:MM; at or before the start means the next day' })
  endTime!: string;

  @Field({ nullable: true, description: 'Whether it ends the next day; when given it must agree with the times' })
  crossesMidnight?: boolean;

  @Field(() => [String], { nullable: true, description: 'Skill codes everyone on it must have' })
  @IsSkillCodes()
  requiredSkills?: string[];

  @Field(() => Int, { nullable: true, description: 'Its default minimum staff, every day: stored as a coverage requirement' })
  @Min(0, { message: `must be 0 to ${MAX_STAFF_PER_SHIFT}` })
  @Max(MAX_STAFF_PER_SHIFT, { message: `must be 0 to ${MAX_STAFF_PER_SHIFT}` })
  minStaff?: number;

  @Field(() => [SkillRequirementInput], { nullable: true, description: 'Per-skill minimums of the default requirement' })
  @ArrayMaxSize(MAX_SKILLS, { message: `must have at most ${MAX_SKILLS} skills` })
  @ValidateNested()
  skillRequirements?: SkillRequirementInput[];
}

@ObjectType({ description: 'What createShiftType answers: the shift type, or what the user must fix (a name taken, times that disagree)' })
export class CreateShiftTypePayload extends PayloadOf(ShiftType, 'shiftType') {}

@InputType({ description: 'Minimum staff of a shift type, every day or on one day of the week' })
export class RosterCoverageInput {
  @Field(() => ID, { description: 'The shift type' })
  shiftTypeId!: string;

  @Field(() => DayOfWeek, { nullable: true, description: 'One day of the week; every day when omitted' })
  dayOfWeek?: DayOfWeek;

  @Field(() => Int, { description: `Minimum staff, 0 to ${MAX_STAFF_PER_SHIFT} (0: the shift is not worked that day)` })
  @Min(0, { message: `must be 0 to ${MAX_STAFF_PER_SHIFT}` })
  @Max(MAX_STAFF_PER_SHIFT, { message: `must be 0 to ${MAX_STAFF_PER_SHIFT}` })
  minStaff!: number;

  @Field(() => [SkillRequirementInput], { nullable: true, description: 'Minimums per skill among them' })
  @ArrayMaxSize(MAX_SKILLS, { message: `must have at most ${MAX_SKILLS} skills` })
  @ValidateNested()
  skillRequirements?: SkillRequirementInput[];
}

@InputType({ description: 'A coverage requirement of the organization, or of one of its rosters' })
export class CreateCoverageRequirementInput extends RosterCoverageInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'A roster of the organization it is for (then it wins over the organization’s)' })
  rosterId?: string;
}

@ObjectType({
  description:
    'What createCoverageRequirement answers: the requirement, or what the user must fix (one already set for the shift type and day)',
})
export class CreateCoverageRequirementPayload extends PayloadOf(CoverageRequirement, 'coverageRequirement') {}

@InputType({ description: 'A new roster' })
export class CreateRosterInput {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field({ description: 'Name (Ward 3, March)' })
  @IsText(200)
  name!: string;

  @Field(() => LocalDate, { description: 'First day' })
  startDate!: string;

  @Field(() => LocalDate, { description: `Last day, included; at most ${MAX_ROSTER_DAYS} days in all` })
  endDate!: string;

  @Field(() => [ID], { nullable: true, description: 'The members it rosters; every member of the organization when omitted' })
  @ArrayMaxSize(1000, { message: 'must have at most 1000 members' })
  @ArrayUnique({ message: 'must not repeat a member' })
  memberIds?: string[];

  @Field(() => [ID], { nullable: true, description: 'The shift types it staffs; every shift type of the organization when omitted' })
  @ArrayMaxSize(50, { message: 'must have at most 50 shift types' })
  @ArrayUnique({ message: 'must not repeat a shift type' })
  shiftTypeIds?: string[];

  @Field(() => [RosterCoverageInput], { nullable: true, description: 'Coverage requirements for this roster only' })
  @ArrayMaxSize(400, { message: 'must have at most 400 requirements' })
  @ValidateNested()
  coverageRequirements?: RosterCoverageInput[];
}

@InputType({ description: 'A request to swap a shift with a colleague' })
export class CreateSwapRequestInput {
  @Field(() => ID, { description: 'The shift (roster assignment) the requester gives' })
  assignmentId!: string;

  @Field(() => ID, { description: 'The colleague (workforce member) asked to take it' })
  targetMemberId!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'One of the colleague’s shifts the requester takes in exchange; a give-away when omitted',
  })
  targetAssignmentId?: string;

  @Field({ nullable: true, description: 'Why' })
  @IsText(1000)
  reason?: string;
}

@ArgsType()
export class OrganizationPageArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;
}

@ArgsType()
export class MemberListArgs extends OrganizationPageArgs {
  @Field({ nullable: true, description: 'Only members with this skill' })
  @IsSkillCode()
  skill?: string;
}

@ArgsType()
export class CoverageListArgs extends OrganizationPageArgs {
  @Field(() => ID, { nullable: true, description: 'Only this roster’s requirements (else the organization’s own)' })
  rosterId?: string;

  @Field(() => ID, { nullable: true, description: 'Only this shift type’s' })
  shiftTypeId?: string;
}

@ArgsType()
export class RosterListArgs extends OrganizationPageArgs {
  @Field(() => RosterStatus, { nullable: true, description: 'Only rosters in this state' })
  status?: RosterStatus;
}

@ArgsType()
export class AssignmentListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only this member’s shifts' })
  memberId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Only shifts starting on or after this day' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Only shifts starting on or before this day' })
  to?: string;

  @Field(() => AssignmentStatus, { nullable: true, description: 'active (the default) or removed' })
  status?: AssignmentStatus;
}

@ArgsType()
export class SwapListArgs extends OrganizationPageArgs {
  @Field(() => ID, { nullable: true, description: 'Only this roster’s' })
  rosterId?: string;

  @Field(() => SwapStatus, { nullable: true, description: 'Only swaps in this state' })
  status?: SwapStatus;
}

export enum FairnessMetric {
  hours = 'hours',
  nights = 'nights',
  weekends = 'weekends',
  contract_share = 'contract_share',
}
registerEnumType(FairnessMetric, {
  name: 'FairnessMetric',
  description: 'What is shared out: hours, night shifts, weekend shifts, or hours as a share of contracted hours',
});

@ArgsType()
export class FairnessArgs {
  @Field(() => ID, { nullable: true, description: 'The organization; optional when the caller belongs to exactly one' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'One roster (in any state); else the approved and published rosters' })
  rosterId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Shifts starting on or after this day' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Shifts starting on or before this day' })
  to?: string;
}

@ArgsType()
export class GiniArgs extends FairnessArgs {
  @Field(() => FairnessMetric, {
    nullable: true,
    defaultValue: FairnessMetric.hours,
    description: 'What the coefficient is of; hours by default',
  })
  metric: FairnessMetric = FairnessMetric.hours;
}

@ObjectType({ description: 'A page of workforce members' })
export class WorkforceMemberPage extends PageOf(WorkforceMember) {}

@ObjectType({ description: 'A page of shift types' })
export class ShiftTypePage extends PageOf(ShiftType) {}

@ObjectType({ description: 'A page of coverage requirements' })
export class CoverageRequirementPage extends PageOf(CoverageRequirement) {}

@ObjectType({ description: 'A page of rosters' })
export class RosterPage extends PageOf(Roster) {}

@ObjectType({ description: 'A page of roster assignments' })
export class RosterAssignmentPage extends PageOf(RosterAssignment) {}

@ObjectType({ description: 'A page of swap requests' })
export class SwapRequestPage extends PageOf(SwapRequest) {}

/** A part of a requirement left short: the whole staff, or the staff with one skill. */
@ObjectType('CoverageGap', { description: 'A part of a coverage requirement that the roster leaves short, and why' })
export class CoverageGap {
  @Field(() => LocalDate, { description: 'The day the shift starts' })
  date!: string;

  @Field(() => ID, { description: 'The shift type' })
  shiftTypeId!: string;

  @Field(() => ShiftType, { description: 'The shift type' })
  shiftType!: ShiftType;

  @Field(() => String, { nullable: true, description: 'The skill short of staff; null when the shift is short of staff in all' })
  skill!: string | null;

  @Field(() => Int, { description: 'Staff (with the skill) required' })
  required!: number;

  @Field(() => Int, { description: 'Staff (with the skill) on the shift' })
  assigned!: number;

  @Field(() => Int, { description: 'How many are missing' })
  missing!: number;

  @Field({
    description:
      'Why: not_generated (no roster yet), not_enough_staff (too few members may work it at all), staff_at_limits (those who may are at ' +
      'their contracted hours or need rest around other shifts), leave (shifts removed for approved leave), solver_limit (the solver ' +
      'stopped at its time limit)',
  })
  reason!: string;

  @Field({ description: 'The reason in words, with counts of members by cause' })
  message!: string;
}

@ObjectType({ description: 'A page of coverage gaps, in date and shift order' })
export class CoverageGapPage extends PageOf(CoverageGap) {}

@ObjectType('MemberFairness', { description: 'What one member works in the report’s scope, and how far from the mean' })
export class MemberFairness {
  @Field(() => ID, { description: 'The member' })
  memberId!: string;

  @Field(() => WorkforceMember, { description: 'The member' })
  member!: WorkforceMember;

  @Field(() => Float, { description: 'Hours worked' })
  hours!: number;

  @Field(() => Int, { description: 'Shifts worked' })
  shifts!: number;

  @Field(() => Int, { description: 'Night shifts worked' })
  nights!: number;

  @Field(() => Int, { description: 'Weekend shifts worked' })
  weekends!: number;

  @Field(() => Float, { description: 'Contracted hours per week' })
  contractedHoursPerWeek!: number;

  @Field(() => Float, { description: 'Hours less the mean hours of the members in the report' })
  hoursDeviation!: number;

  @Field(() => Float, { description: 'Nights less the mean' })
  nightsDeviation!: number;

  @Field(() => Float, { description: 'Weekend shifts less the mean' })
  weekendsDeviation!: number;
}

@ObjectType('FairnessReport', { description: 'How evenly shifts are shared between the members of an organization' })
export class FairnessReport {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field(() => ID, { nullable: true, description: 'The roster reported on; null: the approved and published rosters' })
  rosterId!: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'From this day, if limited' })
  from!: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'To this day, if limited' })
  to!: string | null;

  @Field(() => Int, { description: 'Members in the report' })
  memberCount!: number;

  @Field(() => Float, { description: 'Mean hours per member' })
  meanHours!: number;

  @Field(() => Float, { description: 'Mean nights per member' })
  meanNights!: number;

  @Field(() => Float, { description: 'Mean weekend shifts per member' })
  meanWeekends!: number;

  @Field(() => Float, { description: 'Gini coefficient of hours: 0 when equal, towards 1 when one member works them all' })
  giniHours!: number;

  @Field(() => Float, { description: 'Gini coefficient of nights' })
  giniNights!: number;

  @Field(() => Float, { description: 'Gini coefficient of weekend shifts' })
  giniWeekends!: number;

  @Field(() => [MemberFairness], { description: 'Every member in scope, by name (bounded by the organization’s staff)' })
  members!: MemberFairness[];
}

@ObjectType('GiniCoefficient', { description: 'The Gini coefficient of how one quantity is shared between members' })
export class GiniCoefficient {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field(() => ID, { nullable: true, description: 'The roster, if one' })
  rosterId!: string | null;

  @Field(() => FairnessMetric, { description: 'What is shared out' })
  metric!: FairnessMetric;

  @Field(() => Float, { description: 'From 0 (everyone the same) towards 1 (one member has it all): (n-1)/n at most' })
  gini!: number;

  @Field(() => Int, { description: 'Members counted' })
  memberCount!: number;

  @Field(() => Float, { description: 'Total of the quantity' })
  total!: number;

  @Field(() => Float, { description: 'Mean per member' })
  mean!: number;
}

@ObjectType({
  description:
    'What createSwapRequest answers: the new swap request, or what the user must fix (a bad field, a swap already pending, a rule the swap would break)',
})
export class CreateSwapRequestPayload extends PayloadOf(SwapRequest, 'swapRequest') {}
