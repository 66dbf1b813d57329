import type { FilterQuery } from '@mikro-orm/core';
import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { byIds, isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { canSeeOrganization, organizationsWith, requirePlatformPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope } from '../access/patient-rows';
import { CaseClassification, CaseOutcome, CLASSIFICATION_RANK, NotifiableCase } from './case.entity';
import { CASE_REPORTED, IMMEDIATE_NOTIFICATION } from './case.events';
import type { CaseListArgs, DashboardArgs, NotifiableDisease, PublicHealthDashboard, ReportCaseInput } from './case.types';
import { diseaseByCode, diseaseForIcd10, NOTIFIABLE_DISEASES, type NotifiableDiseaseData } from './diseases';
import { normalizeIcd10 } from './icd10';
import { addDays, daysBetween, parsePeriod, weeklyPeriodOf } from './periods';
import { lockKey, rows, tableOf, utcDay } from './sql';

const RESOURCE = 'notifiable_case';
const WHAT = 'Notifiable case';
const DASHBOARD_DEFAULT_WEEKS = 12;
const DASHBOARD_MAX_DAYS = 366;

export function diseaseView(d: NotifiableDiseaseData): NotifiableDisease {
  return {
    code: d.code,
    name: d.name,
    icd10: d.icd10,
    immediatelyNotifiable: d.immediatelyNotifiable,
    incubationMinDays: d.incubationDays.min,
    incubationMaxDays: d.incubationDays.max,
    basis: d.basis,
  };
}

/** Checks the fields of a report before anything is read: 400 naming every bad one. */
function checkReport(input: ReportCaseInput, today: string): { icd10: string; disease: NotifiableDiseaseData } {
  const issues: FieldIssue[] = [];
  if (!isUuid(input.patientId)) issues.push({ field: 'patientId', message: 'must be a patient id' });
  const icd10 = normalizeIcd10(input.icd10Code);
  const disease = icd10 ? diseaseForIcd10(icd10) : null;
  if (!icd10) issues.push({ field: 'icd10Code', message: 'must be an ICD-10 code such as A00.1' });
  else if (!disease) issues.push({ field: 'icd10Code', message: `${icd10} is not the code of a notifiable disease` });
  if (input.onsetDate > today) issues.push({ field: 'onsetDate', message: 'must not be in the future' });
  if (issues.length) throw errors.validation(issues);
  return { icd10: icd10!, disease: disease! };
}

/** Notifiable case reports: by clinicians of the patient's organization; counted once per case. */
export class CaseService {
  /**
   * Reports a case. A report of the same patient and disease whose onset is within the disease's longest incubation
   * period of an earlier case's is the same case: it is kept, linked to that case (`primaryCaseId`) and not counted
   * again; the case takes the more certain classification and a known outcome from it. A new case of an
   * immediately notifiable disease emits `svc.public_health.immediate_notification` with the report.
   */
  async report(ctx: SubgraphContext, input: ReportCaseInput): Promise<NotifiableCase> {
    requireViewer(ctx.viewer);
    const { icd10, disease } = checkReport(input, utcDay(clock.now()));
    const patient = await writablePatient(ctx, input.patientId);
    if (!patient.organizationId)
      throw errors.invalidField('patientId', 'must be a patient of an organization: cases are counted per organization');
    if (input.onsetDate < patient.dateOfBirth) throw errors.invalidField('onsetDate', "must not be before the patient's date of birth");
    const organizationId = patient.organizationId;
    const reportedBy = ctx.viewer!.userId;
    return ctx.em.transactional(async (em) => {
      // Reports of one patient and disease are taken one at a time, so two at once cannot both become new cases.
      await lockKey(em, `notifiable-case:${patient.id}:${disease.code}`);
      const window = disease.incubationDays.max;
      const candidates = await em.find(NotifiableCase, {
        patientId: patient.id,
        diseaseCode: disease.code,
        primaryCaseId: null,
        onsetDate: { $gte: addDays(input.onsetDate, -window), $lte: addDays(input.onsetDate, window) },
      });
      const primary = candidates.sort(
        (a, b) =>
          Math.abs(daysBetween(a.onsetDate, input.onsetDate)) - Math.abs(daysBetween(b.onsetDate, input.onsetDate)) ||
          a.createdAt.getTime() - b.createdAt.getTime(),
      )[0];
      const report = em.create(NotifiableCase, {
        patientId: patient.id,
        organizationId,
        diseaseCode: disease.code,
        icd10Code: icd10,
        onsetDate: input.onsetDate,
        classification: input.classification,
        outcome: input.outcome ?? CaseOutcome.unknown,
        immediatelyNotifiable: disease.immediatelyNotifiable,
        primaryCaseId: primary?.id ?? null,
        notes: input.notes?.trim() || null,
        reportedBy,
      });
      const tx = { ...ctx, em };
      auditRowChange(tx, 'create', RESOURCE, report, {
        disease: disease.code,
        icd10: icd10,
        classification: report.classification,
        primary_case_id: report.primaryCaseId,
      });
      if (primary) {
        const previous = { classification: primary.classification, outcome: primary.outcome };
        if (CLASSIFICATION_RANK[report.classification] > CLASSIFICATION_RANK[primary.classification])
          primary.classification = report.classification;
        if (report.outcome !== CaseOutcome.unknown) primary.outcome = report.outcome;
        if (primary.classification !== previous.classification || primary.outcome !== previous.outcome) {
          auditRowChange(tx, 'update', RESOURCE, primary, { linked_report: report.id, previous });
        }
      }
      const fields = {
        case_id: report.id,
        patient_id: report.patientId,
        organization_id: organizationId,
        disease_code: disease.code,
        icd10_code: icd10,
        onset_date: report.onsetDate,
        classification: report.classification,
        outcome: report.outcome,
        reported_by: reportedBy,
      };
      emitEvent(em, 'clinical', CASE_REPORTED, { ...fields, primary_case_id: report.primaryCaseId ?? null });
      if (!primary && disease.immediatelyNotifiable) {
        emitEvent(em, 'clinical', IMMEDIATE_NOTIFICATION, {
          ...fields,
          disease_name: disease.name,
          reported_at: report.createdAt.toISOString(),
        });
      }
      return report;
    });
  }

  /**
   * Reports the caller may read: one patient's (any patient they may read), or those of the organizations where
   * they read clinical data (every one for public health administrators); newest onset first.
   */
  async list(ctx: SubgraphContext, args: CaseListArgs): Promise<PageResult<NotifiableCase>> {
    const viewer = requireViewer(ctx.viewer);
    const issues: FieldIssue[] = [];
    if (args.patientId != null && !isUuid(args.patientId)) issues.push({ field: 'patientId', message: 'must be a patient id' });
    if (args.organizationId != null && !isUuid(args.organizationId))
      issues.push({ field: 'organizationId', message: 'must be an organization id' });
    if (args.diseaseCode != null && !diseaseByCode(args.diseaseCode))
      issues.push({ field: 'diseaseCode', message: 'is not a notifiable disease code' });
    if (args.from && args.to && args.from > args.to) issues.push({ field: 'to', message: 'must be on or after from' });
    if (issues.length) throw errors.validation(issues);
    const where: FilterQuery<NotifiableCase>[] = [];
    if (args.patientId) {
      where.push({ patientId: (await readablePatient(ctx, args.patientId)).id });
    } else {
      const scope = await readableScope<NotifiableCase>(ctx);
      if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.push(scope);
    }
    if (args.organizationId) {
      const orgs = organizationsWith(viewer, 'clinical:read');
      if (orgs && !orgs.includes(args.organizationId)) {
        throw canSeeOrganization(viewer, args.organizationId) ? errors.forbidden() : errors.notFound('Organization');
      }
      where.push({ organizationId: args.organizationId });
    }
    if (args.diseaseCode) where.push({ diseaseCode: args.diseaseCode });
    if (args.classification) where.push({ classification: args.classification });
    if (args.from) where.push({ onsetDate: { $gte: args.from } });
    if (args.to) where.push({ onsetDate: { $lte: args.to } });
    const page = await paginate(ctx.em, NotifiableCase, { $and: where }, args, { onsetDate: 'desc', createdAt: 'desc', id: 'asc' });
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<NotifiableCase> {
    const found = await readableRow(ctx, NotifiableCase, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [found]);
    return found;
  }

  /** The first report of a case, for a linked report (the caller already reads this patient's data). */
  primaryOf(ctx: SubgraphContext, report: NotifiableCase): Promise<NotifiableCase | null> {
    if (!report.primaryCaseId) return Promise.resolve(null);
    return ctx.loader<string, NotifiableCase>('notifiable-case', byIds(ctx.em, NotifiableCase)).load(report.primaryCaseId);
  }

  /** Public health administrators: cases (repeat reports not counted) by disease, week, organization and classification. */
  async dashboard(ctx: SubgraphContext, args: DashboardArgs): Promise<PublicHealthDashboard> {
    requirePlatformPermission(ctx.viewer, 'public-health');
    const to = args.to ?? utcDay(clock.now());
    // By default the 12 epidemiological weeks ending with the week of `to`, from a Monday.
    const from = args.from ?? addDays(parsePeriod(weeklyPeriodOf(to))!.startDate, -7 * (DASHBOARD_DEFAULT_WEEKS - 1));
    const issues: FieldIssue[] = [];
    if (from > to) issues.push({ field: 'from', message: 'must be on or before to' });
    else if (daysBetween(from, to) >= DASHBOARD_MAX_DAYS)
      issues.push({ field: 'from', message: `must be at most ${DASHBOARD_MAX_DAYS} days before to` });
    if (args.diseaseCode != null && !diseaseByCode(args.diseaseCode))
      issues.push({ field: 'diseaseCode', message: 'is not a notifiable disease code' });
    if (args.organizationId != null && !isUuid(args.organizationId))
      issues.push({ field: 'organizationId', message: 'must be an organization id' });
    if (issues.length) throw errors.validation(issues);

    const filters: string[] = ['onset_date between ? and ?'];
    const params: unknown[] = [from, to];
    if (args.diseaseCode) {
      filters.push('disease_code = ?');
      params.push(args.diseaseCode);
    }
    if (args.organizationId) {
      filters.push('organization_id = ?');
      params.push(args.organizationId);
    }
    const table = tableOf(ctx.em, NotifiableCase);
    const grouped = await rows<{
      disease_code: string;
      onset_date: string | Date;
      organization_id: string;
      classification: CaseClassification;
      immediate: boolean;
      deaths: string;
      n: string;
    }>(
      ctx.em,
      `select disease_code, onset_date, organization_id, classification, bool_or(immediately_notifiable) as immediate,
              count(*) filter (where outcome = 'died') as deaths, count(*) as n
         from ${table} where primary_case_id is null and ${filters.join(' and ')}
        group by disease_code, onset_date, organization_id, classification`,
      params,
    );
    const [{ n: linked }] = await rows<{ n: string }>(
      ctx.em,
      `select count(*) as n from ${table} where primary_case_id is not null and ${filters.join(' and ')}`,
      params,
    );

    const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
    const byDisease = new Map<string, number>();
    const byWeek = new Map<string, number>();
    const byOrganization = new Map<string, number>();
    const byClassification = new Map<CaseClassification, number>();
    const cells = new Map<
      string,
      { diseaseCode: string; week: string; organizationId: string; classification: CaseClassification; count: number }
    >();
    let total = 0;
    let immediate = 0;
    let deaths = 0;
    for (const r of grouped) {
      const n = Number(r.n);
      const onset = r.onset_date instanceof Date ? r.onset_date.toISOString().slice(0, 10) : r.onset_date;
      const week = weeklyPeriodOf(onset);
      total += n;
      deaths += Number(r.deaths);
      if (r.immediate) immediate += n;
      add(byDisease, r.disease_code, n);
      add(byWeek, week, n);
      add(byOrganization, r.organization_id, n);
      add(byClassification, r.classification, n);
      const key = `${r.disease_code}|${week}|${r.organization_id}|${r.classification}`;
      const cell = cells.get(key) ?? {
        diseaseCode: r.disease_code,
        week,
        organizationId: r.organization_id,
        classification: r.classification,
        count: 0,
      };
      cell.count += n;
      cells.set(key, cell);
    }
    const weeks: string[] = [];
    for (let d = from; d <= to; d = addDays(d, 7)) weeks.push(weeklyPeriodOf(d));
    if (!weeks.includes(weeklyPeriodOf(to))) weeks.push(weeklyPeriodOf(to));
    const weekStart = (week: string) => parsePeriod(week)!.startDate;
    const most = <K>(map: Map<K, number>) => [...map.entries()].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
    return {
      from,
      to,
      totalCases: total,
      linkedReports: Number(linked),
      immediatelyNotifiableCases: immediate,
      deaths,
      byDisease: most(byDisease).map(([code, count]) => ({ diseaseCode: code, diseaseName: diseaseByCode(code)?.name ?? code, count })),
      byWeek: weeks.map((week) => ({ week, startDate: weekStart(week), count: byWeek.get(week) ?? 0 })),
      byOrganization: most(byOrganization).map(([organizationId, count]) => ({ organizationId, count })),
      byClassification: Object.values(CaseClassification).map((classification) => ({
        classification,
        count: byClassification.get(classification) ?? 0,
      })),
      cells: [...cells.values()].sort(
        (a, b) =>
          weekStart(a.week).localeCompare(weekStart(b.week)) ||
          a.diseaseCode.localeCompare(b.diseaseCode) ||
          a.organizationId.localeCompare(b.organizationId),
      ),
    };
  }

  /** The notifiable disease list (reference data: any signed-in caller). */
  diseases(ctx: SubgraphContext): NotifiableDisease[] {
    requireViewer(ctx.viewer);
    return NOTIFIABLE_DISEASES.map(diseaseView);
  }
}
