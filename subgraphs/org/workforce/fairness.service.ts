import type { FilterQuery } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { organizationScope } from './access';
import { gini, loads, mean, round } from './fairness';
import { WorkforceMember } from './member.entity';
import { rosterMembers } from './roster-data';
import { AssignmentStatus, Roster, RosterAssignment, RosterStatus } from './roster.entity';
import { FairnessMetric, type FairnessArgs, type FairnessReport, type GiniArgs, type GiniCoefficient } from './workforce.types';

/**
 * How evenly an organization's shifts are shared (workforce:manage): over one roster in any state, or over its
 * approved and published rosters, optionally between two days. Members without shifts count, as zero.
 */
export class FairnessService {
  async report(ctx: SubgraphContext, args: FairnessArgs): Promise<FairnessReport> {
    const scope = await this.scope(ctx, args);
    const list = loads(
      scope.members.map((m) => m.id),
      scope.shifts.map((s) => ({ memberId: s.memberId, minutes: s.durationMinutes, isNight: s.isNight, isWeekend: s.isWeekend })),
    );
    const byId = new Map(scope.members.map((m) => [m.id, m]));
    return {
      organizationId: scope.organizationId,
      rosterId: args.rosterId ?? null,
      from: args.from ?? null,
      to: args.to ?? null,
      memberCount: list.length,
      meanHours: round(mean(list.map((l) => l.hours))),
      meanNights: round(mean(list.map((l) => l.nights))),
      meanWeekends: round(mean(list.map((l) => l.weekends))),
      giniHours: gini(list.map((l) => l.hours)),
      giniNights: gini(list.map((l) => l.nights)),
      giniWeekends: gini(list.map((l) => l.weekends)),
      members: list.map((l) => ({
        ...l,
        member: byId.get(l.memberId)!,
        contractedHoursPerWeek: byId.get(l.memberId)!.contractedHoursPerWeek,
      })),
    };
  }

  async gini(ctx: SubgraphContext, args: GiniArgs): Promise<GiniCoefficient> {
    const report = await this.report(ctx, args);
    const metric = args.metric ?? FairnessMetric.hours;
    const values = report.members.map((m) =>
      metric === FairnessMetric.nights
        ? m.nights
        : metric === FairnessMetric.weekends
          ? m.weekends
          : metric === FairnessMetric.hours
            ? m.hours
            : m.hours / m.contractedHoursPerWeek,
    );
    const total = values.reduce((a, b) => a + b, 0);
    return {
      organizationId: report.organizationId,
      rosterId: report.rosterId,
      metric,
      gini: gini(values),
      memberCount: values.length,
      total: round(total, 4),
      mean: round(mean(values), 4),
    };
  }

  private async scope(ctx: SubgraphContext, args: FairnessArgs) {
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'workforce:manage');
    if (args.from && args.to && args.to < args.from) throw errors.invalidField('to', 'must be on or after from');
    const where: FilterQuery<RosterAssignment> = { organizationId, status: AssignmentStatus.active };
    let members: WorkforceMember[];
    if (args.rosterId) {
      const roster = isUuid(args.rosterId) ? await ctx.em.findOne(Roster, { id: args.rosterId, organizationId }) : null;
      if (!roster) throw errors.notFound('Roster');
      where.rosterId = roster.id;
      members = await rosterMembers(ctx.em, roster);
    } else {
      const rosters = await ctx.em.find(
        Roster,
        { organizationId, status: { $in: [RosterStatus.approved, RosterStatus.published] } },
        { fields: ['id'] },
      );
      where.rosterId = { $in: rosters.map((r) => r.id) };
      members = await ctx.em.find(WorkforceMember, { organizationId }, { orderBy: { name: 'asc', id: 'asc' } });
    }
    if (args.from || args.to) where.date = { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lte: args.to } : {}) };
    const shifts = await ctx.em.find(RosterAssignment, where, { fields: ['memberId', 'durationMinutes', 'isNight', 'isWeekend'] });
    return { organizationId, members, shifts };
  }
}
