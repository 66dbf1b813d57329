import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { changedKeys, isUuid, paginate, patchFrom, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { lockedChange } from '../../../shared/locked-change';
import { completeByReport, serviceRequestOfPatient } from '../service-requests/service-request.service';
import { DIAGNOSTIC_REPORT, DiagnosticReport } from './diagnostic-report.entity';
import type { CreateDiagnosticReportInput, DiagnosticReportListArgs, UpdateDiagnosticReportInput } from './diagnostic-report.types';

const RESOURCE = 'diagnostic_report';
const WHAT = 'Diagnostic report';
const TEXT_FIELDS = ['code', 'title', 'findings', 'conclusion', 'resultSummary'] as const;
const ONLY_DOCTORS = 'Only a doctor can sign a diagnostic report';

const codeOf = (err: unknown) => (err as { extensions?: { code?: string } }).extensions?.code;

/** The caller can already see the report, so a refusal to sign it is a 403, not a 404. */
const refused = (err: unknown): never => {
  throw codeOf(err) === 'NOT_FOUND' || codeOf(err) === 'FORBIDDEN' ? errors.forbidden(ONLY_DOCTORS) : err;
};

export class DiagnosticReportService {
  /** A new report is preliminary; a service request it answers must be one of the same patient's. */
  async create(ctx: SubgraphContext, input: CreateDiagnosticReportInput): Promise<DiagnosticReport> {
    const patient = await writablePatient(ctx, input.patientId);
    if (input.serviceRequestId != null) await serviceRequestOfPatient(ctx, input.serviceRequestId, patient.id, 'serviceRequestId');
    const report = ctx.em.create(DiagnosticReport, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      serviceRequestId: input.serviceRequestId ?? null,
      category: input.category ?? null,
      code: input.code.trim(),
      codeSystem: input.codeSystem ?? null,
      title: input.title?.trim() ?? null,
      findings: input.findings?.trim() ?? null,
      conclusion: input.conclusion?.trim() ?? null,
      resultSummary: input.resultSummary?.trim() ?? null,
      effectiveAt: input.effectiveAt ?? null,
      recordedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, report, {
      code: report.code,
      service_request_id: report.serviceRequestId,
      status: report.status,
    });
    await ctx.em.flush();
    return report;
  }

  /** One patient's (any patient the caller may read), or those of the caller's organizations and own profiles. */
  async list(ctx: SubgraphContext, args: DiagnosticReportListArgs): Promise<PageResult<DiagnosticReport>> {
    const filters: FilterQuery<DiagnosticReport>[] = [];
    if (args.status) filters.push({ status: args.status });
    if (args.category) filters.push({ category: args.category });
    if (args.serviceRequestId) {
      if (!isUuid(args.serviceRequestId)) throw errors.invalidField('serviceRequestId', 'must be a service request id');
      filters.push({ serviceRequestId: args.serviceRequestId });
    }
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, DiagnosticReport, { $and: [{ patientId: patient.id }, ...filters] }, args);
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<DiagnosticReport>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, DiagnosticReport, { $and: [scope, ...filters] }, args);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<DiagnosticReport> {
    const report = await readableRow(ctx, DiagnosticReport, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [report]);
    return report;
  }

  /** Preliminary reports only: once signed a report is fixed (409). Previous values stay in the audit trail. */
  async update(ctx: SubgraphContext, id: string, input: UpdateDiagnosticReportInput): Promise<DiagnosticReport> {
    const found = await writableRow(ctx, DiagnosticReport, id, WHAT);
    const patch = patchFrom(input, ['code']);
    for (const field of TEXT_FIELDS) {
      const value = patch[field];
      if (typeof value === 'string') patch[field] = value.trim();
    }
    return lockedChange(ctx, DiagnosticReport, found.id, (tx, report) => {
      DIAGNOSTIC_REPORT.next(report.status, 'edit');
      const changed = changedKeys(report, patch);
      if (!changed.length) return;
      const previous = Object.fromEntries(changed.map((k) => [k, report[k] ?? null]));
      tx.em.assign(report, patch);
      report.updatedBy = tx.viewer!.userId;
      auditRowChange(tx, 'update', RESOURCE, report, { fields: changed, previous });
    });
  }

  /**
   * Only a doctor of the patient's organization (outside any organization: a user registered as a doctor) signs;
   * the report becomes final, and an active service request it answers becomes completed.
   */
  async sign(ctx: SubgraphContext, id: string): Promise<DiagnosticReport> {
    const found = await readableRow(ctx, DiagnosticReport, id, WHAT);
    const viewer = ctx.viewer!;
    const patient = await writablePatient(ctx, found.patientId, { permission: 'reports:sign' }).catch(refused);
    if (!patient.organizationId && viewer.registrationRole !== 'DOCTOR' && !isPlatformAdmin(viewer)) throw errors.forbidden(ONLY_DOCTORS);
    return lockedChange(ctx, DiagnosticReport, found.id, async (tx, report) => {
      report.status = DIAGNOSTIC_REPORT.next(report.status, 'sign');
      report.signedBy = viewer.userId;
      report.signedAt = clock.now();
      auditRowChange(tx, 'sign', RESOURCE, report, { status: report.status });
      if (report.serviceRequestId) await completeByReport(tx, report.serviceRequestId, report.id);
    });
  }
}
