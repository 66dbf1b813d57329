import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsUUID, Matches, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate, LocalTime } from '../../../shared/scalars';
import { PayloadOf } from '../../../shared/user-errors';
import { IsCalendarDate, IsInRange, IsText } from '../../../shared/validation';
import { HH_MM, isTimeZone } from './calendar';
import { ResourceType, SchedulableResource, Schedule } from './resource.entity';

/** An IANA time zone name that luxon (and so the platform) knows, such as Africa/Nairobi. */
export function IsTimeZone(): PropertyDecorator {
  return ValidateBy({
    name: 'isTimeZone',
    validator: { validate: isTimeZone, defaultMessage: () => 'must be an IANA time zone such as Africa/Nairobi' },
  });
}

export const IsId = () => IsUUID('all', { message: 'must be a UUID' });

const IsClockTime = () => Matches(HH_MM, { message: 'must be a time of day written HH:MM' });

export const MIN_SLOT_MINUTES = 5;
export const MAX_SLOT_MINUTES = 240;

@InputType({ description: 'The fields of a new schedulable resource' })
export class CreateResourceInput {
  @Field(() => ID, { nullable: true, description: "The caller's organization when they schedule for exactly one" })
  @IsId()
  organizationId?: string;

  @Field(() => ResourceType)
  type!: ResourceType;

  @Field()
  @IsText(200)
  name!: string;

  @Field(() => ID, {
    nullable: true,
    description: "Doctors only: a doctor profile linked to the organization; the caller's own profile when omitted, if linked",
  })
  @IsId()
  doctorId?: string;

  @Field(() => ID, { nullable: true, description: 'Rooms only: the room this resource is' })
  @IsId()
  roomId?: string;

  @Field({ nullable: true })
  @IsText(2000)
  description?: string;

  @Field({ nullable: true, description: 'IANA time zone; UTC when omitted' })
  @IsTimeZone()
  timeZone?: string;

  @Field({ nullable: true, description: 'true when omitted' })
  active?: boolean;
}

/** Every field optional; description and room_id clear with null. The type and organization never change. */
@InputType({ description: 'The fields of a resource to change; those left out stay' })
export class UpdateResourceInput {
  @Field({ nullable: true })
  @IsText(200)
  name?: string;

  @Field(() => ID, { nullable: true })
  @IsId()
  doctorId?: string;

  @Field(() => ID, { nullable: true })
  @IsId()
  roomId?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  description?: string | null;

  @Field({ nullable: true })
  @IsTimeZone()
  timeZone?: string;

  @Field({ nullable: true })
  active?: boolean;
}

@ArgsType()
export class ResourceListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's resources; all the caller may see when omitted" })
  @IsId()
  organizationId?: string;

  @Field(() => ResourceType, { nullable: true, description: 'Only resources of this type; every type when omitted' })
  type?: ResourceType;

  @Field(() => ID, { nullable: true, description: "Only this doctor's resources; every doctor when omitted" })
  @IsId()
  doctorId?: string;
}

@ObjectType()
export class SchedulableResourcePage extends PageOf(SchedulableResource) {}

@ObjectType({
  description:
    'What createResource answers: the new resource, or what the user must fix (a bad field, a room or doctor not of the organization)',
})
export class CreateResourcePayload extends PayloadOf(SchedulableResource, 'resource') {}

@ObjectType({
  description: 'What createSchedule answers: the new schedule, or what the user must fix (a bad field, hours that overlap others)',
})
export class CreateSchedulePayload extends PayloadOf(Schedule, 'schedule') {}

@ObjectType({
  description:
    'What updateResource answers: the changed resource, or what the user must fix (a bad field, a room or doctor not of the organization)',
})
export class UpdateResourcePayload extends PayloadOf(SchedulableResource, 'resource') {}

@ObjectType({
  description: 'What updateSchedule answers: the changed schedule, or what the user must fix (a bad field, hours that overlap others)',
})
export class UpdateSchedulePayload extends PayloadOf(Schedule, 'schedule') {}

@InputType({ description: 'A break within working hours' })
export class ScheduleBreakInput {
  // String, not LocalTime, on purpose: a break is an item of a list, and the REST adapter would name a bad time
  // `breaks[0].end_time` where this route has always answered `breaks.0.end_time`.
  @Field({ description: 'HH:MM' })
  @IsClockTime()
  startTime!: string;

  @Field({ description: 'HH:MM' })
  @IsClockTime()
  endTime!: string;
}

@InputType({ description: 'Working hours to add to a resource' })
export class CreateScheduleInput {
  @Field(() => ID)
  @IsId()
  resourceId!: string;

  @Field(() => [Int], { nullable: true, description: 'ISO days of the week: 1 is Monday, 7 Sunday; every day when omitted' })
  @ArrayMinSize(1, { message: 'must name at least one day' })
  @ArrayUnique({ message: 'must not repeat a day' })
  @IsInRange(1, 7, undefined, { each: true })
  daysOfWeek?: number[];

  @Field(() => Int, { nullable: true, description: 'One day instead of days_of_week: 1 is Monday … 7 Sunday (0 is Sunday too)' })
  @IsInRange(0, 7)
  dayOfWeek?: number;

  @Field(() => LocalTime, { description: "HH:MM in the schedule's time zone" })
  @IsClockTime()
  startTime!: string;

  @Field(() => LocalTime, { description: "HH:MM in the schedule's time zone, after start_time" })
  @IsClockTime()
  endTime!: string;

  @Field({ nullable: true, description: "IANA time zone; the resource's when omitted" })
  @IsTimeZone()
  timeZone?: string;

  @Field(() => [ScheduleBreakInput], { nullable: true })
  @ArrayMaxSize(20, { message: 'must have at most 20 breaks' })
  @ValidateNested()
  breaks?: ScheduleBreakInput[];

  @Field(() => Int, { nullable: true, description: `${MIN_SLOT_MINUTES} to ${MAX_SLOT_MINUTES}; 30 when omitted` })
  @Min(MIN_SLOT_MINUTES, { message: `must be at least ${MIN_SLOT_MINUTES} minutes` })
  @Max(MAX_SLOT_MINUTES, { message: `must be at most ${MAX_SLOT_MINUTES} minutes` })
  slotMinutes?: number;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD' })
  @IsCalendarDate()
  validFrom?: string;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD, not before valid_from' })
  @IsCalendarDate()
  validUntil?: string;
}

/** Every field optional; time_zone, valid_from and valid_until clear with null. */
@InputType({ description: 'The fields of a schedule to change; those left out stay' })
export class UpdateScheduleInput {
  @Field(() => [Int], { nullable: true })
  @ArrayMinSize(1, { message: 'must name at least one day' })
  @ArrayUnique({ message: 'must not repeat a day' })
  @IsInRange(1, 7, undefined, { each: true })
  daysOfWeek?: number[];

  @Field(() => LocalTime, { nullable: true })
  @IsClockTime()
  startTime?: string;

  @Field(() => LocalTime, { nullable: true })
  @IsClockTime()
  endTime?: string;

  @Field(() => String, { nullable: true })
  @IsTimeZone()
  timeZone?: string | null;

  @Field(() => [ScheduleBreakInput], { nullable: true })
  @ArrayMaxSize(20, { message: 'must have at most 20 breaks' })
  @ValidateNested()
  breaks?: ScheduleBreakInput[];

  @Field(() => Int, { nullable: true })
  @Min(MIN_SLOT_MINUTES, { message: `must be at least ${MIN_SLOT_MINUTES} minutes` })
  @Max(MAX_SLOT_MINUTES, { message: `must be at most ${MAX_SLOT_MINUTES} minutes` })
  slotMinutes?: number;

  @Field(() => LocalDate, { nullable: true })
  @IsCalendarDate()
  validFrom?: string | null;

  @Field(() => LocalDate, { nullable: true })
  @IsCalendarDate()
  validUntil?: string | null;
}

@ObjectType()
export class SchedulePage extends PageOf(Schedule) {}

@ArgsType()
export class AvailabilityArgs {
  @Field(() => ID, { description: 'The resource' })
  @IsId()
  resourceId!: string;

  @Field(() => LocalDate, { description: "YYYY-MM-DD in the resource's time zone" })
  @IsCalendarDate()
  date!: string;
}

@ObjectType({ description: 'A time slot of a resource and whether it is free' })
export class AvailabilitySlot {
  @Field(() => Date)
  startTime!: Date;

  @Field(() => Date)
  endTime!: Date;

  @Field(() => Boolean, { description: 'false when an appointment holds (part of) this time' })
  available!: boolean;
}

@ObjectType({ description: "A resource's slots on one day, in its time zone" })
export class ResourceAvailability {
  @Field(() => ID)
  resourceId!: string;

  @Field(() => LocalDate)
  date!: string;

  @Field()
  timeZone!: string;

  @Field(() => [AvailabilitySlot], { description: 'Slots of the day not yet begun, in time order' })
  slots!: AvailabilitySlot[];
}

export const MAX_AVAILABILITY_DAYS = 31;

@ArgsType()
export class DoctorAvailabilityArgs {
  @Field(() => ID, { description: 'The doctor profile' })
  @IsId()
  doctorId!: string;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD; today (UTC) when omitted' })
  @IsCalendarDate()
  from?: string;

  @Field(() => Int, { nullable: true, description: `1 to ${MAX_AVAILABILITY_DAYS}; 7 when omitted` })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_AVAILABILITY_DAYS, { message: `must be at most ${MAX_AVAILABILITY_DAYS}` })
  days?: number;
}

@ObjectType({ description: 'A free slot of a doctor, with the resource that has it' })
export class DoctorSlot {
  @Field(() => ID)
  resourceId!: string;

  @Field(() => Date)
  startTime!: Date;

  @Field(() => Date)
  endTime!: Date;
}

@ObjectType({ description: "One day of a doctor's free slots" })
export class DoctorAvailabilityDay {
  @Field(() => LocalDate)
  date!: string;

  @Field(() => Int)
  freeSlots!: number;

  @Field(() => DoctorSlot, { nullable: true })
  firstFreeSlot?: DoctorSlot | null;
}

@ObjectType({ description: "A doctor's free slots from a date, day by day" })
export class DoctorAvailability {
  @Field(() => ID)
  doctorId!: string;

  @Field(() => LocalDate)
  from!: string;

  @Field(() => [DoctorAvailabilityDay])
  days!: DoctorAvailabilityDay[];
}
