import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { IsText } from '../../../shared/validation';
import { LocalDate } from '../../../shared/scalars';
import { AttendanceEntry } from './attendance.entity';

@InputType({ description: 'Where the member clocks in' })
export class ClockInInput {
  @Field(() => ID, { nullable: true, description: 'Optional when the caller belongs to exactly one organization' })
  organizationId?: string;

  @Field({ nullable: true })
  @IsText(1000)
  note?: string;

  @Field({ nullable: true })
  @IsText(200)
  location?: string;
}

@InputType({ description: 'Where the member clocks out (the open entry anywhere when left out), with a note' })
export class ClockOutInput {
  @Field(() => ID, { nullable: true, description: 'Optional when the caller is clocked in at one organization only' })
  organizationId?: string;

  @Field({ nullable: true })
  @IsText(1000)
  note?: string;
}

@ArgsType()
export class AttendanceTodayArgs {
  @Field(() => ID, { nullable: true, description: 'One organization; with members:manage, all its members' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'One member of organizationId (members:manage for someone else)' })
  userId?: string;
}

/** One member's day at one organization. */
@ObjectType({ description: "One member's attendance at one organization that day: entries, minutes worked, and whether clocked in now" })
export class AttendanceTotal {
  @Field(() => ID)
  organizationId!: string;

  @Field(() => ID)
  userId!: string;

  @Field(() => Int, { description: 'Minutes worked within the day (UTC), open entries counted up to now' })
  minutes!: number;

  @Field(() => Int)
  entryCount!: number;

  @Field({ description: 'Clocked in right now' })
  clockedIn!: boolean;
}

@ObjectType({ description: "One day's attendance: the entries, and the minutes worked in all and per member" })
export class AttendanceDay {
  @Field(() => LocalDate, { description: 'The UTC day, YYYY-MM-DD' })
  date!: string;

  @Field(() => [AttendanceEntry], { description: 'Entries overlapping the day, earliest first' })
  entries!: AttendanceEntry[];

  @Field(() => Int, { description: 'Minutes worked within the day by everyone listed, open entries up to now' })
  totalMinutes!: number;

  @Field(() => [AttendanceTotal], { description: 'Per member and organization' })
  totals!: AttendanceTotal[];
}
