import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { AttendanceEntry } from './attendance.entity';
import { AttendanceService } from './attendance.service';
import { AttendanceDay, AttendanceTodayArgs, ClockInInput, ClockOutInput } from './attendance.types';

@Resolver(() => AttendanceEntry)
export class AttendanceResolver {
  private readonly service = new AttendanceService();

  @Mutation(() => AttendanceEntry, { description: 'Clock in at an organization; one open entry per member and organization' })
  clockIn(
    @Arg('input', () => ClockInInput, {
      nullable: true,
      description: "The organization, a note and a location, all optional; when omitted, the caller's only organization",
    })
    input: ClockInInput | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.clockIn(ctx, input ?? {});
  }

  @Mutation(() => AttendanceEntry, { description: 'Clock out; answers the closed entry with its duration' })
  clockOut(
    @Arg('input', () => ClockOutInput, {
      nullable: true,
      description: 'The organization and a note, both optional; when omitted, the one organization the caller is clocked in at',
    })
    input: ClockOutInput | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.clockOut(ctx, input ?? {});
  }

  @Query(() => AttendanceDay, { description: "Today's attendance (UTC day): the caller's, or an organization's for its administrators" })
  attendanceToday(@Args() args: AttendanceTodayArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.today(ctx, args);
  }
}
