import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { requirePlatformPermission } from '../../../shared/permissions';
import { organizationStatus } from '../../../shared/refs';
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
import { mappedOrganizations, mappingsOf, type EffectiveMapping } from './reportsys-mapping.service';
import { ageBandOf, type OrganizationMapping } from './reportsys.mapping';
import { lockKey, rows, tableOf, utcDay } from './sql';

/** What an aggregate report covers: its period, and the organization the caller named, if any. */
export interface ReportScope {
  period: Period;
  /** The organization the caller named, if any. */
  only: string | null;
}

/** Checks who asks (public health administrators), the period and the organization. */
export async function reportScope(ctx: SubgraphContext, args: ReportsysArgs): Promise<ReportScope> {
  requirePlatformPermission(ctx.viewer, 'public-health');
  const period = parsePeriod(args.period.trim());
  if (!period) throw errors.invalidField('period', 'must be a DHIS2 period such as 20261121, 2026W47, 202611, 2026Q4 or 2026');
  if (period.startDate > utcDay(clock.now())) throw errors.invalidField('period', 'must not be in the future');
  const only = args.organizationId ?? null;
  if (only !== null && (!isUuid(only) || !(await organizationStatus(ctx, only)))) {
    throw errors.invalidField('organizationId', 'must be an organization id');
  }
  return { period, only };
}

/**
 * The organizations a report is for and their mappings (reportsys-mapping.service.ts): the one named, or every
 * organization with a mapping of its own and every one with counts in the period (by the built-in default when it
 * has no mapping), in id order.
 */
export async function reportMappings(ctx: SubgraphContext, scope: ReportScope, counted: string[]): Promise<Map<string, EffectiveMapping>> {
  const organizations = scope.only ? [scope.only] : [...new Set([...(await mappedOrganizations(ctx.em)), ...counted])].sort();
  return mappingsOf(ctx.em, organizations);
}

/**
 * One dataValueSet per organization, exactly as DHIS2 takes it: names read by code carry DHIS2's id scheme fields,
 * and a period that has ended carries `completeDate` (the day the platform reports it complete: today).
 */
export function dataValueSets(
  scope: ReportScope,
  mappings: Map<string, EffectiveMapping>,
  dataSetOf: (m: OrganizationMapping) => string,
  valuesOf: (organizationId: string, m: OrganizationMapping) => DataValue[],
): DataValueSet[] {
  const today = utcDay(clock.now());
  return [...mappings.values()].map(({ organizationId, mapping: m }) => ({
    dataSet: dataSetOf(m),
    ...(scope.period.endDate < today ? { completeDate: today } : {}),
    period: scope.period.id,
    orgUnit: m.orgUnit,
    ...(m.attributeOptionCombo ? { attributeOptionCombo: m.attributeOptionCombo } : {}),
    ...(m.idScheme === 'code' ? { dataSetIdScheme: 'CODE', orgUnitIdScheme: 'CODE', dataElementIdScheme: 'CODE' } : {}),
    dataValues: valuesOf(organizationId, m),
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
  const scope = await reportScope(ctx, args);
  const { period } = scope;
  const params: unknown[] = [period.startDate, period.endDate];
  const where = scope.only ? 'and c.organization_id = ?' : '';
  if (scope.only) params.push(scope.only);
  const found = await rows<CaseRow>(
    ctx.em,
    `select c.organization_id, c.disease_code, c.onset_date, c.outcome, p.date_of_birth
       from ${tableOf(ctx.em, NotifiableCase)} c join ${tableOf(ctx.em, Patient)} p on p.id = c.patient_id
      where c.primary_case_id is null and c.organization_id is not null and c.onset_date between ? and ? ${where}`,
    params,
  );
  const mappings = await reportMappings(
    ctx,
    scope,
    found.map((r) => r.organization_id),
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
    const mapping = mappings.get(row.organization_id)!.mapping;
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
  const sets = dataValueSets(
    scope,
    mappings,
    (m) => m.dataSet,
    (organizationId, m) => {
      const byValue = counts.get(organizationId);
      const values: DataValue[] = [];
      for (const code of Object.keys(m.diseases).sort()) {
        const d = m.diseases[code];
        const combos = d.categoryOptionCombo ? [d.categoryOptionCombo] : [...new Set(Object.values(d.categoryOptionCombos!))];
        for (const dataElement of [d.cases, ...(d.deaths ? [d.deaths] : [])]) {
          for (const combo of combos) {
            values.push({ dataElement, categoryOptionCombo: combo, value: String(byValue?.get(`${dataElement}|${combo}`) ?? 0) });
          }
        }
      }
      return values;
    },
  );
  return exportOf(ReportsysKind.cases, period, sets, [...mappings.keys()], [...skipped.values()]);
}

export function exportOf(
  kind: ReportsysKind,
  period: Period,
  sets: DataValueSet[],
  organizations: string[],
  skipped: ReportsysSkipped[],
): ReportsysExport {
  return {
    kind,
    organizationIds: organizations,
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
export async function pushReport(ctx: SubgraphContext, report: ReportsysExport): Promise<ReportsysPushResult> {
  const adapter = reportsys();
  const viewer = ctx.viewer!;
  const submissions: ReportsysSubmission[] = [];
  for (const [i, set] of (report.dataValueSets as unknown as DataValueSet[]).entries()) {
    const summary = await adapter.pushDataValueSet(set);
    const submission = await ctx.em.transactional(async (em) => {
      await lockKey(em, `reportsys:${report.kind}:${set.dataSet}:${report.period}:${set.orgUnit}`);
      const existing = await em.findOne(
        ReportsysSubmission,
        { kind: report.kind, dataSet: set.dataSet, period: report.period, orgUnit: set.orgUnit },
        { refresh: true },
      );
      const fields = {
        organizationId: report.organizationIds[i],
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
