import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate, LocalTime } from '../../../shared/scalars';

export enum ResourceType {
  doctor = 'doctor',
  room = 'room',
  equipment = 'equipment',
}
registerEnumType(ResourceType, { name: 'ResourceType', description: 'What a schedulable resource is: a doctor, a room, or equipment' });

/** Something appointments are booked on: a doctor, a room or a piece of equipment of an organization. */
@ObjectType('SchedulableResource', { description: 'Something appointments are booked with: a doctor, a room or equipment' })
@Entity({ tableName: 'schedulable_resources' })
@Index({ properties: ['organizationId', 'type'] })
export class SchedulableResource extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ResourceType)
  @Enum({ items: () => ResourceType })
  type!: ResourceType;

  @Field()
  @Property({ type: 'text' })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'The doctor profile (doctor resources only)' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  doctorId?: string | null;

  @Field(() => ID, { nullable: true, description: 'A room of the organization (room resources only)' })
  @Property({ type: 'uuid', nullable: true })
  roomId?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => String, { description: 'IANA time zone its schedules are written in, such as Africa/Nairobi' })
  @Property({ type: 'text' })
  timeZone: Opt<string> = 'UTC';

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  /** Set when a resource with appointments in its history is deleted: it leaves every read, its history stays. */
  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;
}

/** A break inside a schedule's working window, `HH:MM` in the schedule's time zone. */
@ObjectType('ScheduleBreak', { description: 'A break within working hours' })
export class ScheduleBreak {
  @Field(() => LocalTime, { description: 'HH:MM' })
  startTime!: string;

  @Field(() => LocalTime, { description: 'HH:MM' })
  endTime!: string;
}

/** Weekly working hours of a resource: a window on some days of the week, less its breaks, cut into slots. */
@ObjectType('Schedule', { description: 'Working hours of a resource: days of the week, times and breaks' })
@Entity({ tableName: 'schedules' })
export class Schedule extends BaseRecord {
  @Index()
  @ManyToOne(() => SchedulableResource, { deleteRule: 'cascade' })
  resource!: SchedulableResource;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => [Int], { description: 'ISO days of the week: 1 is Monday, 7 Sunday' })
  @Property({ type: 'jsonb' })
  daysOfWeek!: number[];

  @Field(() => LocalTime, { description: 'HH:MM, local to the time zone' })
  @Property({ type: 'text' })
  startTime!: string;

  @Field(() => LocalTime, { description: 'HH:MM, local to the time zone, after start_time' })
  @Property({ type: 'text' })
  endTime!: string;

  @Field(() => String, { nullable: true, description: "IANA time zone; the resource's when null" })
  @Property({ type: 'text', nullable: true })
  timeZone?: string | null;

  @Field(() => [ScheduleBreak])
  @Property({ type: 'jsonb' })
  breaks: Opt<ScheduleBreak[]> = [];

  @Field(() => Int, { description: 'Length of a bookable slot, 5 to 240 minutes' })
  @Property({ type: 'integer' })
  slotMinutes: Opt<number> = 30;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD, first day it applies' })
  @Property({ type: 'date', nullable: true })
  validFrom?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD, last day it applies' })
  @Property({ type: 'date', nullable: true })
  validUntil?: string | null;
}
