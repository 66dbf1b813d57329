import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalTime } from '../../../shared/scalars';

/**
 * A kind of shift an organization works (Day 07:00-15:00, Night 21:00-07:00). An end at or before the start is on the
 * next day: the shift crosses midnight. A night shift has at least 3 hours between 23:00 and 06:00 (rules.ts).
 */
@ObjectType('ShiftType', { description: 'A kind of shift: its hours and the skills everyone on it needs' })
@Entity({ tableName: 'workforce_shift_types' })
@Index({
  name: 'workforce_shift_types_name_unique',
  expression: 'create unique index "workforce_shift_types_name_unique" on "org"."workforce_shift_types" ("organization_id", lower("name"))',
})
export class ShiftType extends BaseRecord {
  @Field(() => ID, { description: 'The organization that works it' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Unique in the organization, whatever the letter case' })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => LocalTime, { description: 'Start, HH:MM on the ward’s clock' })
  @Property({ type: 'text' })
  startTime!: string;

  @Field(() => LocalTime, { description: 'End, HH:MM; at or before the start means the next day' })
  @Property({ type: 'text' })
  endTime!: string;

  @Field({ description: 'Ends on the day after it starts' })
  @Property({ type: 'boolean' })
  crossesMidnight!: boolean;

  @Field(() => Int, { description: 'Length in minutes' })
  @Property({ type: 'integer' })
  durationMinutes!: number;

  @Field({ description: 'A night shift: at least 3 hours of it fall between 23:00 and 06:00' })
  @Property({ type: 'boolean' })
  isNight!: boolean;

  @Field(() => [String], { description: 'Skill codes everyone working it must have' })
  @Property({ type: 'text[]', default: '{}' })
  requiredSkills: Opt<string[]> = [];
}

export enum DayOfWeek {
  monday = 'monday',
  tuesday = 'tuesday',
  wednesday = 'wednesday',
  thursday = 'thursday',
  friday = 'friday',
  saturday = 'saturday',
  sunday = 'sunday',
}
registerEnumType(DayOfWeek, { name: 'DayOfWeek', description: 'A day of the week' });

/** Days in Date.getUTCDay order (0 Sunday). */
export const DAYS_BY_INDEX: DayOfWeek[] = [
  DayOfWeek.sunday,
  DayOfWeek.monday,
  DayOfWeek.tuesday,
  DayOfWeek.wednesday,
  DayOfWeek.thursday,
  DayOfWeek.friday,
  DayOfWeek.saturday,
];

@ObjectType('SkillRequirement', { description: 'At least this many of the staff on a shift have this skill' })
export class SkillRequirement {
  @Field({ description: 'Skill code' })
  skill!: string;

  @Field(() => Int, { description: 'How many of the staff on the shift must have it' })
  minStaff!: number;
}

/**
 * How many staff a shift type needs on a day: every day (`dayOfWeek` null) or one day of the week, for the
 * organization's rosters or for one roster (`rosterId`), which then wins. For a date and shift type the most
 * specific one applies: the roster's for that day, the roster's for every day, the organization's for that day, the
 * organization's for every day.
 */
@ObjectType('CoverageRequirement', { description: 'The minimum staff of a shift type on a day of the week, in all and per skill' })
@Entity({ tableName: 'workforce_coverage_requirements' })
@Index({
  name: 'workforce_coverage_requirements_unique',
  expression:
    'create unique index "workforce_coverage_requirements_unique" on "org"."workforce_coverage_requirements" ' +
    `("organization_id", coalesce("roster_id", '00000000-0000-0000-0000-000000000000'), "shift_type_id", coalesce("day_of_week", 'every_day'))`,
})
export class CoverageRequirement extends BaseRecord {
  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { nullable: true, description: 'The roster it is for; null: every roster of the organization' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  rosterId?: string | null;

  @Field(() => ID, { description: 'The shift type' })
  @Property({ type: 'uuid' })
  shiftTypeId!: string;

  @Field(() => DayOfWeek, { nullable: true, description: 'The day it applies to; null: every day' })
  @Enum({ items: () => DayOfWeek, nullable: true })
  dayOfWeek?: DayOfWeek | null;

  @Field(() => Int, { description: 'Minimum staff on the shift' })
  @Property({ type: 'integer' })
  minStaff!: number;

  @Field(() => [SkillRequirement], { description: 'Minimums per skill, among those staff' })
  @Property({ type: 'jsonb' })
  skillRequirements: Opt<SkillRequirement[]> = [];
}
