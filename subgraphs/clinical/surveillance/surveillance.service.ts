import type { FilterQuery } from '@mikro-orm/core';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid, paginate, type PageArgs, type PageResult } from '../../../shared/model';
import { canSeeOrganization, hasPlatformPermission, organizationsWith, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ReportsysSkipReason, type ReportsysArgs, type ReportsysExport, type ReportsysSkipped } from '../public-health/case.types';
import type { DataValue } from '../public-health/reportsys.adapter';
import { ReportsysKind } from '../public-health/reportsys.entity';
import { dataValueSets, exportOf, reportMappings, reportScope } from '../public-health/reportsys.service';
import { rows, tableOf } from '../public-health/sql';
import { SurveillanceAlert, SyndromeDailyCount } from './surveillance.entity';
import type { AlertListArgs, CountListArgs, Syndrome } from './surveillance.types';
import { SYNDROMES, syndromeByCode, type SyndromeData } from './syndromes';

export function syndromeView(s: SyndromeData): Syndrome {
  return { code: s.code, name: s.name, definition: s.definition, icd10: s.icd10, complaintTerms: s.complaints, excludeTerms: s.exclude };
}

/**
 * The organizations whose surveillance the caller sees: every one for public health administrators (null), else
 * those where they read clinical data. Counts and alerts are aggregates, but of clinical data: someone who reads
 * clinical data nowhere is refused (403).
 */
function surveillanceScope(ctx: SubgraphContext): string[] | null {
  const viewer = requireViewer(ctx.viewer);
  if (hasPlatformPermission(viewer, 'public-health')) return null;
  const orgs = organizationsWith(viewer, 'clinical:read') ?? [];
  if (!orgs.length) throw errors.forbidden('Surveillance is for public health administrators and the clinicians of an organization');
  return orgs;
}

function checkFilters(args: { syndromeCode?: string; organizationId?: string; from?: string; to?: string }): void {
  const issues: FieldIssue[] = [];
  if (args.syndromeCode != null && !syndromeByCode(args.syndromeCode))
    issues.push({ field: 'syndromeCode', message: 'is not a monitored syndrome' });
  if (args.organizationId != null && !isUuid(args.organizationId))
    issues.push({ field: 'organizationId', message: 'must be an organization id' });
  if (args.from && args.to && args.from > args.to) issues.push({ field: 'to', message: 'must be on or after from' });
  if (issues.length) throw errors.validation(issues);
}

function scopedWhere(ctx: SubgraphContext, organizationId: string | undefined): Record<string, unknown> {
  const orgs = surveillanceScope(ctx);
  if (organizationId) {
    if (orgs && !orgs.includes(organizationId)) {
      throw canSeeOrganization(ctx.viewer, organizationId) ? errors.forbidden() : errors.notFound('Organization');
    }
    return { organizationId };
  }
  return orgs ? { organizationId: { $in: orgs } } : {};
}

function dateRange(args: { from?: string; to?: string }): Record<string, unknown> {
  if (!args.from && !args.to) return {};
  return { date: { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lte: args.to } : {}) } };
}

export class SurveillanceService {
  /** The monitored syndromes (reference data: any signed-in caller). */
  syndromes(ctx: SubgraphContext, args: PageArgs): PageResult<Syndrome> {
    requireViewer(ctx.viewer);
    return {
      items: SYNDROMES.slice((args.page - 1) * args.limit, args.page * args.limit).map(syndromeView),
      total: SYNDROMES.length,
      page: args.page,
      limit: args.limit,
    };
  }

  async alerts(ctx: SubgraphContext, args: AlertListArgs): Promise<PageResult<SurveillanceAlert>> {
    checkFilters(args);
    const where = {
      ...scopedWhere(ctx, args.organizationId),
      ...(args.syndromeCode ? { syndromeCode: args.syndromeCode } : {}),
      ...(args.algorithm ? { algorithm: args.algorithm } : {}),
      ...dateRange(args),
    } as FilterQuery<SurveillanceAlert>;
    return paginate(ctx.em, SurveillanceAlert, where, args, { date: 'desc', syndromeCode: 'asc', organizationId: 'asc', algorithm: 'asc' });
  }

  async counts(ctx: SubgraphContext, args: CountListArgs): Promise<PageResult<SyndromeDailyCount>> {
    checkFilters(args);
    const where = {
      ...scopedWhere(ctx, args.organizationId),
      ...(args.syndromeCode ? { syndromeCode: args.syndromeCode } : {}),
      ...dateRange(args),
    } as FilterQuery<SyndromeDailyCount>;
    return paginate(ctx.em, SyndromeDailyCount, where, args, { date: 'desc', syndromeCode: 'asc', organizationId: 'asc' });
  }

  /**
   * Syndrome counts of a period (sums of the daily counts) as DHIS2 dataValueSets: one per mapped organization, a
   * value for every mapped syndrome, zeros included. Public health administrators.
   */
  async report(ctx: SubgraphContext, args: ReportsysArgs): Promise<ReportsysExport> {
    const scope = await reportScope(ctx, args);
    const { period } = scope;
    const params: unknown[] = [period.startDate, period.endDate];
    if (scope.only) params.push(scope.only);
    const sums = await rows<{ organization_id: string; syndrome_code: string; total: string }>(
      ctx.em,
      `select organization_id, syndrome_code, sum(count) as total from ${tableOf(ctx.em, SyndromeDailyCount)}
        where date between ? and ? ${scope.only ? 'and organization_id = ?' : ''} group by organization_id, syndrome_code`,
      params,
    );
    const mappings = await reportMappings(
      ctx,
      scope,
      sums.map((s) => s.organization_id),
    );
    const totals = new Map<string, number>();
    const skipped: ReportsysSkipped[] = [];
    for (const s of sums) {
      const n = Number(s.total);
      if (!mappings.get(s.organization_id)!.mapping.syndromes[s.syndrome_code])
        skipped.push({
          reason: ReportsysSkipReason.syndrome_not_mapped,
          organizationId: s.organization_id,
          code: s.syndrome_code,
          count: n,
        });
      else totals.set(`${s.organization_id}|${s.syndrome_code}`, n);
    }
    const sets = dataValueSets(
      scope,
      mappings,
      (m) => m.surveillanceDataSet ?? m.dataSet,
      (organizationId, m): DataValue[] =>
        Object.keys(m.syndromes)
          .sort()
          .map((code) => ({
            dataElement: m.syndromes[code].dataElement,
            categoryOptionCombo: m.syndromes[code].categoryOptionCombo,
            value: String(totals.get(`${organizationId}|${code}`) ?? 0),
          })),
    );
    return exportOf(ReportsysKind.surveillance, period, sets, [...mappings.keys()], skipped);
  }
}
