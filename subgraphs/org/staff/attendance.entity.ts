import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

/**
 * A stretch of work of a member at an organization: clock-in to clock-out. At most one is open (no clock-out yet)
 * per member and organization; a partial unique index holds that even when two clock-ins arrive together.
 */
@ObjectType('AttendanceEntry', { description: 'One clock-in (and its clock-out) of a staff member at an organization' })
@Entity({ tableName: 'attendance_entries' })
@Index({ properties: ['organizationId', 'clockInAt'] })
@Index({ properties: ['userId', 'clockInAt'] })
@Index({
  name: 'attendance_entries_open_unique',
  expression:
    'create unique index "attendance_entries_open_unique" on "org"."attendance_entries" ' +
    '("organization_id", "user_id") where "clock_out_at" is null',
})
export class AttendanceEntry extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'The member' })
  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  clockInAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Null while the member is clocked in' })
  @Property({ type: 'timestamptz', nullable: true })
  clockOutAt?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Whole minutes from clock-in to clock-out (rounded down)' })
  @Property({ type: 'integer', nullable: true })
  durationMinutes?: number | null;

  @Field(() => String, { nullable: true, description: 'Given at clock-in' })
  @Property({ type: 'text', nullable: true })
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'Where the member clocked in (ward, site), as they gave it' })
  @Property({ type: 'text', nullable: true })
  location?: string | null;

  @Field(() => String, { nullable: true, description: 'Given at clock-out' })
  @Property({ type: 'text', nullable: true })
  clockOutNote?: string | null;
}

/** Clocks an open entry out at `at`, working out its whole minutes. */
export function clockOutEntry(entry: AttendanceEntry, at: Date, note: string | null): void {
  entry.clockOutAt = at;
  entry.durationMinutes = Math.floor((at.getTime() - entry.clockInAt.getTime()) / 60_000);
  entry.clockOutNote = note;
}
