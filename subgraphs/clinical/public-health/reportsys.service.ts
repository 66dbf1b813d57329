import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { requirePlatformPermission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Patient } from '../patients/patient.entity';
import { NotifiableCase, CaseOutcome } from './case.entity';
import {
  ReportsysSkipReason,
  type ReportsysArgs,
  type ReportsysExport,
  type ReportsysPushResult,
  type ReportsysSkipped,
} from './case.types';
import { ageInYears, parsePeriod, type Period } from './periods';
import { reportsys, type DataValue, type DataValueSet } from './reportsys.adapter';
import { ReportsysImportStatus, ReportsysKind, ReportsysSubmission } from './reportsys.entity';
import { ageBandOf, reportsysMapping, type ReportsysMapping } from './reportsys.mapping';
import { lockKey, rows, tableOf, utcDay } from './sql';

/** What an aggregate report covers: its period, the mapping, and the mapped organizations it reports for. */
export interface ReportScope {
  period: Period;
  mapping: ReportsysMapping;
  /** Mapped organizations reported for (one when the caller named it). */
  organizations: string[];
  /** The organization the caller named, if any. */
  only: string | null;
}

/** Checks who asks (public health administrators), the period and the organization, and loads the mapping. */
export function reportScope(ctx: SubgraphContext, args: ReportsysArgs): ReportScope {
  requirePlatformPermission(ctx.viewer, 'public-health');
  const period = parsePeriod(args.period.trim());
  if (!period) throw errors.invalidField('period', 'must be a DHIS2 period such as 20261121, 2026W47, 202611, 2026Q4 or 2026');
  if (period.startDate > utcDay(clock.now())) throw errors.invalidField('period', 'must not be in the future');
  if (args.organizationId !== undefined && args.organizationId !== null && !isUuid(args.organizationId)) {
    throw errors.invalidField('organizationId', 'must be an organization id');
  }
  const mapping = reportsysMapping();
  const only = args.organizationId ?? null;
  if (only && !mapping.orgUnits[only])
    throw errors.invalidField('organizationId', 'has no org unit in the reporting mapping (REPORTSYS_MAPPING orgUnits)');
  return { period, mapping, only, organizations: only ? [only] : Object.keys(mapping.orgUnits).sort() };
}

/** One dataValueSet per organization, exactly as DHIS2 takes it. */
export function dataValueSets(scope: ReportScope, dataSet: string, valuesOf: (organizationId: string) => DataValue[]): DataValueSet[] {
  const aoc = scope.mapping.attributeOptionCombo;
  return scope.organizations.map((organizationId) => ({
    dataSet,
    period: scope.period.id,
    orgUnit: scope.mapping.orgUnits[organizationId],
    ...(aoc ? { attributeOptionCombo: aoc } : {}),
    dataValues: valuesOf(organizationId),
  }));
}

interface CaseRow {
  organization_id: string;
  disease_code: string;
  onset_date: string | Date;
  outcome: string;
  date_of_birth: string | Date | null;
}

const day = (v: string | Date) => (v instanceof Date ? v.toISOString().slice(0, 10) : v);

/**
 * Notifiable cases of the period (by onset date; a repeat report linked to a case is not counted again), per
 * organization, disease and age band at onset: cases, and deaths when the mapping names a deaths data element.
 * Every mapped disease is reported for every mapped organization, zeros included (IDSR asks for zero reporting).
 */
export async function caseReport(ctx: SubgraphContext, args: ReportsysArgs): Promise<ReportsysExport> {
  const scope = reportScope(ctx, args);
  const { mapping, period } = scope;
  const params: unknown[] = [period.startDate, period.endDate];
  const where = scope.only ? 'and c.organization_id = ?' : '';
  if (scope.only) params.push(scope.only);
  const found = await rows<CaseRow>(
    ctx.em,
    `select c.organization_id, c.disease_code, c.onset_date, c.outcome, p.date_of_birth
       from ${tableOf(ctx.em, NotifiableCase)} c join ${tableOf(ctx.em, Patient)} p on p.id = c.patient_id
      where c.primary_case_id is null and c.onset_date between ? and ? ${where}`,
    params,
  );
  // counts: organization -> data element -> category option combo -> n
  const counts = new Map<string, Map<string, number>>();
  const skipped = new Map<string, ReportsysSkipped>();
  const skip = (reason: ReportsysSkipReason, organizationId: string, code: string) => {
    const key = `${reason}|${organizationId}|${code}`;
    const entry = skipped.get(key) ?? { reason, organizationId, code, count: 0 };
    entry.count++;
    skipped.set(key, entry);
  };
  const add = (organizationId: string, dataElement: string, combo: string) => {
    const byValue = counts.get(organizationId) ?? new Map<string, number>();
    const key = `${dataElement}|${combo}`;
    byValue.set(key, (byValue.get(key) ?? 0) + 1);
    counts.set(organizationId, byValue);
  };
  for (const row of found) {
    if (!mapping.orgUnits[row.organization_id]) {
      skip(ReportsysSkipReason.organization_not_mapped, row.organization_id, row.disease_code);
      continue;
    }
    const disease = mapping.diseases[row.disease_code];
    if (!disease) {
      skip(ReportsysSkipReason.disease_not_mapped, row.organization_id, row.disease_code);
      continue;
    }
    let combo = disease.categoryOptionCombo;
    if (!combo) {
      const birth = row.date_of_birth ? day(row.date_of_birth) : null;
      const band = ageBandOf(mapping, birth ? ageInYears(birth, day(row.onset_date)) : null);
      combo = disease.categoryOptionCombos![band ?? 'unknown'];
      if (!combo) {
        skip(ReportsysSkipReason.age_unknown, row.organization_id, row.disease_code);
        continue;
      }
    }
    add(row.organization_id, disease.cases, combo);
    if (disease.deaths && row.outcome === CaseOutcome.died) add(row.organization_id, disease.deaths, combo);
  }
  const diseaseCodes = Object.keys(mapping.diseases).sort();
  const sets = dataValueSets(scope, mapping.dataSet, (organizationId) => {
    const byValue = counts.get(organizationId);
    const values: DataValue[] = [];
    for (const code of diseaseCodes) {
      const d = mapping.diseases[code];
      const combos = d.categoryOptionCombo ? [d.categoryOptionCombo] : [...new Set(Object.values(d.categoryOptionCombos!))];
      for (const dataElement of [d.cases, ...(d.deaths ? [d.deaths] : [])]) {
        for (const combo of combos) {
          values.push({ dataElement, categoryOptionCombo: combo, value: String(byValue?.get(`${dataElement}|${combo}`) ?? 0) });
        }
      }
    }
    return values;
  });
  return exportOf(ReportsysKind.cases, period, sets, [...skipped.values()]);
}

export function exportOf(kind: ReportsysKind, period: Period, sets: DataValueSet[], skipped: ReportsysSkipped[]): ReportsysExport {
  return {
    kind,
    period: period.id,
    periodType: period.type,
    startDate: period.startDate,
    endDate: period.endDate,
    dataValueSets: sets as unknown as Record<string, unknown>[],
    skipped: skipped.sort((a, b) => a.organizationId.localeCompare(b.organizationId) || a.code.localeCompare(b.code)),
  };
}

const STATUS = {
  SUCCESS: ReportsysImportStatus.success,
  WARNING: ReportsysImportStatus.warning,
  ERROR: ReportsysImportStatus.error,
} as const;

/**
 * Posts each dataValueSet of a report through the configured adapter and keeps its import summary: one submission
 * per kind, data set, period and org unit, updated (attempts + 1) when the same period is pushed again.
 */
export async function pushReport(
  ctx: SubgraphContext,
  report: ReportsysExport,
  organizationOf: (orgUnit: string) => string,
): Promise<ReportsysPushResult> {
  const adapter = reportsys();
  const viewer = ctx.viewer!;
  const submissions: ReportsysSubmission[] = [];
  for (const set of report.dataValueSets as unknown as DataValueSet[]) {
    const summary = await adapter.pushDataValueSet(set);
    const submission = await ctx.em.transactional(async (em) => {
      await lockKey(em, `reportsys:${report.kind}:${set.dataSet}:${report.period}:${set.orgUnit}`);
      const existing = await em.findOne(
        ReportsysSubmission,
        { kind: report.kind, dataSet: set.dataSet, period: report.period, orgUnit: set.orgUnit },
        { refresh: true },
      );
      const fields = {
        organizationId: organizationOf(set.orgUnit),
        provider: adapter.name,
        dataValueSet: set as unknown as Record<string, unknown>,
        status: STATUS[summary.status],
        ...summary.importCount,
        conflicts: summary.conflicts,
        importSummary: summary.raw,
        pushedAt: clock.now(),
        pushedBy: viewer.userId,
      };
      if (existing) {
        em.assign(existing, { ...fields, attempts: existing.attempts + 1 });
        return existing;
      }
      return em.create(ReportsysSubmission, {
        kind: report.kind,
        dataSet: set.dataSet,
        period: report.period,
        orgUnit: set.orgUnit,
        ...fields,
      });
    });
    submissions.push(submission);
  }
  return { ...report, provider: adapter.name, submissions };
}

/** The organization of an org unit in the mapping (the report was built from it, so there is one). */
export function organizationOfOrgUnit(mapping: ReportsysMapping): (orgUnit: string) => string {
  const reverse = new Map(Object.entries(mapping.orgUnits).map(([organizationId, orgUnit]) => [orgUnit, organizationId]));
  return (orgUnit) => reverse.get(orgUnit)!;
}
