import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { errors } from '../../../shared/errors';
import { PageArgs } from '../../../shared/model';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { OrganizationRef, ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ReportsysArgs, ReportsysExport, ReportsysPushResult } from '../public-health/case.types';
import { pushReport } from '../public-health/reportsys.service';
import { SurveillanceAlert, SyndromeDailyCount } from './surveillance.entity';
import { SurveillanceService, syndromeView } from './surveillance.service';
import { AlertListArgs, CountListArgs, Syndrome, SurveillanceAlertPage, SyndromeDailyCountPage, SyndromePage } from './surveillance.types';
import { syndromeByCode } from './syndromes';

function syndromeOf(code: string): Syndrome {
  const s = syndromeByCode(code);
  if (!s) throw errors.notFound('Syndrome');
  return syndromeView(s);
}

@Resolver()
export class SurveillanceResolver {
  private readonly service = new SurveillanceService();

  @Query(() => SyndromePage, {
    description: 'The syndromes monitored, with their ICD-10 codes and chief complaint terms (any signed-in caller)',
  })
  surveillanceSyndromes(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.syndromes(ctx, args);
  }

  @Query(() => SurveillanceAlertPage, {
    description:
      "EARS alerts: every organization's for public health administrators, their organizations' for clinicians; newest day first",
  })
  surveillanceAlerts(@Args() args: AlertListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.alerts(ctx, args);
  }

  @Query(() => SyndromeDailyCountPage, { description: 'Daily syndrome counts, under the same rules as the alerts; newest day first' })
  syndromeDailyCounts(@Args() args: CountListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.counts(ctx, args);
  }

  @RequiresPlatformPermission('public-health')
  @Query(() => ReportsysExport, { description: 'Syndrome counts of a period as DHIS2 dataValueSets (public health administrators)' })
  surveillanceReportsysExport(@Args() args: ReportsysArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.report(ctx, args);
  }

  @RequiresPlatformPermission('public-health')
  @Mutation(() => ReportsysPushResult, {
    description:
      'Post the syndrome counts of a period to the aggregate reporting system and keep its import summary; the same period again updates',
  })
  async pushSurveillanceReportsys(@Args() args: ReportsysArgs, @Ctx() ctx: SubgraphContext) {
    const report = await this.service.report(ctx, args);
    return pushReport(ctx, report);
  }
}

@Resolver(() => SurveillanceAlert)
export class SurveillanceAlertResolver {
  @FieldResolver(() => Syndrome, { description: 'The syndrome' })
  syndrome(@Root() alert: SurveillanceAlert): Syndrome {
    return syndromeOf(alert.syndromeCode);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization' })
  organization(@Root() alert: SurveillanceAlert) {
    return ref(alert.organizationId);
  }
}

@Resolver(() => SyndromeDailyCount)
export class SyndromeDailyCountResolver {
  @FieldResolver(() => Syndrome, { description: 'The syndrome' })
  syndrome(@Root() count: SyndromeDailyCount): Syndrome {
    return syndromeOf(count.syndromeCode);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization' })
  organization(@Root() count: SyndromeDailyCount) {
    return ref(count.organizationId);
  }
}
