import { wrap } from '@mikro-orm/core';
import { snakeCase } from '../../../shared/case';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { paginate, type PageArgs, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { PATIENT_ERASED } from './dsr.events';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { auditChange, flushAudit } from '../../../shared/audit/audit-trail';
import { Consent, ConsentStatus } from '../consent/consent.entity';
import { exportSection, patientDataSources } from '../patient-data';
import type { Patient } from '../patients/patient.entity';
import { DataSubjectRequest, DsrStatus, DsrType } from './dsr.entity';

export const EXPORT_FORMAT = 'ccp-patient-export/1';
const ERASED = '[erased]';

export interface PatientExport {
  format: string;
  generatedAt: Date;
  patientId: string;
  sections: Record<string, unknown>;
}

/**
 * Data subject requests (GDPR). Executed by the patient, a platform administrator, or an administrator of the
 * patient's organization. Erasure pseudonymizes the profile's personal identifiers irreversibly and keeps the
 * clinical record itself, which the law requires to be retained; both are audited.
 */
export class DsrService {
  async erase(ctx: SubgraphContext, patientId: string, reason: string): Promise<DataSubjectRequest> {
    const patient = await writablePatient(ctx, patientId, { permission: 'patients:erase', allowSelf: true });
    if (patient.erasedAt) throw errors.conflict('This patient was already erased');
    const fields = ['first_name', 'last_name', 'email', 'phone', 'mrn', 'national_id', 'user_id', 'date_of_birth (kept: year only)'];
    patient.firstName = ERASED;
    patient.lastName = ERASED;
    patient.email = null;
    patient.phone = null;
    patient.mrn = null;
    patient.nationalId = null;
    patient.nationalIdCountry = null;
    patient.userId = null;
    patient.dateOfBirth = `${patient.dateOfBirth.slice(0, 4)}-01-01`;
    patient.erasedAt = clock.now();
    const revoked = await ctx.em.nativeUpdate(
      Consent,
      { patientId: patient.id, status: { $in: [ConsentStatus.active, ConsentStatus.requested] } },
      { status: ConsentStatus.revoked, revokedAt: clock.now() },
    );
    const request = ctx.em.create(DataSubjectRequest, {
      patientId: patient.id,
      type: DsrType.erasure,
      status: DsrStatus.completed,
      reason: reason.trim(),
      requestedBy: ctx.viewer!.userId,
      completedAt: clock.now(),
      outcome: { pseudonymized: fields, consents_revoked: revoked, retained: 'clinical data, kept as the law requires' },
    });
    auditChange(ctx, {
      action: 'erase',
      resourceType: 'patient',
      resourceId: patient.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
      details: { request_id: request.id },
    });
    emitEvent(ctx.em, 'clinical', PATIENT_ERASED, { patient_id: patient.id, organization_id: patient.organizationId ?? null });
    await ctx.em.flush();
    return request;
  }

  async list(ctx: SubgraphContext, patientId: string, args: PageArgs): Promise<PageResult<DataSubjectRequest>> {
    const patient = await readablePatient(ctx, patientId, 'patients:read');
    return paginate(ctx.em, DataSubjectRequest, { patientId: patient.id }, args);
  }

  /** Everything the clinical side holds about the patient, machine-readable (Art. 20), itself recorded and audited. */
  async export(ctx: SubgraphContext, patientId: string): Promise<PatientExport> {
    const patient = await writablePatient(ctx, patientId, { permission: 'patients:export', allowSelf: true });
    const request = ctx.em.create(DataSubjectRequest, {
      patientId: patient.id,
      type: DsrType.export,
      status: DsrStatus.completed,
      requestedBy: ctx.viewer!.userId,
      completedAt: clock.now(),
      outcome: { sections: ['profile', ...patientDataSources().map((s) => s.section)] },
    });
    auditChange(ctx, {
      action: 'export',
      resourceType: 'patient',
      resourceId: patient.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
      details: { request_id: request.id },
    });
    await ctx.em.flush();
    await flushAudit(ctx.em);
    const sections: Record<string, unknown> = { profile: profileOf(patient) };
    for (const source of patientDataSources()) sections[source.section] = await exportSection(ctx.em, source, patient.id);
    return { format: EXPORT_FORMAT, generatedAt: clock.now(), patientId: patient.id, sections };
  }
}

function profileOf(patient: Patient): Record<string, unknown> {
  const plain = wrap(patient).toObject() as Record<string, unknown>;
  return Object.fromEntries(Object.entries(plain).map(([k, v]) => [snakeCase(k), v instanceof Date ? v.toISOString() : v]));
}
