import { wrap } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { changedKeys, type PageArgs, type PageResult, paginate, patchFrom } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { CLINICAL_RECORD_UPDATED } from './clinical-record.events';
import { requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, writableRow } from '../access/patient-rows';
import { AuditEvent } from '../../../shared/audit/audit-event.entity';
import { auditOfResource, auditPatientRead, auditRowChange, auditRowsRead, flushAudit } from '../../../shared/audit/audit-trail';
import { Patient } from '../patients/patient.entity';
import { ClinicalRecord, ClinicalRecordVersion } from './clinical-record.entity';
import type { CreateClinicalRecordInput, UpdateClinicalRecordInput } from './clinical-record.types';

const RESOURCE = 'clinical_record';
const WHAT = 'Clinical record';
const FIELDS = ['encounterType', 'chiefComplaint', 'notes'] as const;
/** Deleted records answer 404, except to their audit trail. */
const deleted = (r: ClinicalRecord) => !!r.deletedAt;

export class ClinicalRecordService {
  async create(ctx: SubgraphContext, input: CreateClinicalRecordInput): Promise<ClinicalRecord> {
    const patient = await writablePatient(ctx, input.patientId);
    const record = ctx.em.create(ClinicalRecord, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      encounterType: input.encounterType,
      chiefComplaint: input.chiefComplaint?.trim() ?? null,
      notes: input.notes ?? null,
      authorId: ctx.viewer!.userId,
    });
    this.changed(ctx, record, 'create', [...FIELDS]);
    await ctx.em.flush();
    return record;
  }

  /** Records the caller wrote, and records about the caller when they are a patient. */
  async mine(ctx: SubgraphContext, args: PageArgs): Promise<PageResult<ClinicalRecord>> {
    const viewer = requireUser(ctx.viewer);
    const own = await ctx.em.find(Patient, { userId: viewer.userId }, { fields: ['id'] });
    const page = await paginate(
      ctx.em,
      ClinicalRecord,
      {
        deletedAt: null,
        $or: [{ authorId: viewer.userId }, ...(own.length ? [{ patientId: { $in: own.map((p) => p.id) } }] : [])],
      },
      args,
    );
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async listForPatient(ctx: SubgraphContext, patientId: string, args: PageArgs): Promise<PageResult<ClinicalRecord>> {
    const patient = await readablePatient(ctx, patientId);
    const page = await paginate(ctx.em, ClinicalRecord, { patientId: patient.id, deletedAt: null }, args);
    auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<ClinicalRecord> {
    const record = await readableRow(ctx, ClinicalRecord, id, WHAT, deleted);
    auditRowsRead(ctx, 'read', RESOURCE, [record]);
    return record;
  }

  async update(ctx: SubgraphContext, id: string, input: UpdateClinicalRecordInput): Promise<ClinicalRecord> {
    const record = await writableRow(ctx, ClinicalRecord, id, WHAT, { hidden: deleted });
    const { expectedVersion, ...fields } = input;
    if (expectedVersion !== undefined && expectedVersion !== record.version) {
      throw errors.staleVersion('record', record.version, expectedVersion);
    }
    const patch = patchFrom(fields, ['encounterType']);
    const changed = changedKeys(record, patch);
    if (!changed.length) return record;
    ctx.em.assign(record, patch);
    record.version += 1;
    record.updatedBy = ctx.viewer!.userId;
    this.changed(ctx, record, 'update', changed);
    await ctx.em.flush();
    return record;
  }

  /** Deletion keeps the record (the law requires it) but hides it from every list and read. */
  async delete(ctx: SubgraphContext, id: string): Promise<ClinicalRecord> {
    const record = await writableRow(ctx, ClinicalRecord, id, WHAT, { hidden: deleted });
    record.deletedAt = clock.now();
    record.version += 1;
    record.updatedBy = ctx.viewer!.userId;
    this.changed(ctx, record, 'delete', []);
    await ctx.em.flush();
    return record;
  }

  /** Who read or changed a record, and when: for anyone who may read the record. */
  async auditTrail(ctx: SubgraphContext, id: string, args: PageArgs): Promise<PageResult<AuditEvent>> {
    const record = await readableRow(ctx, ClinicalRecord, id, WHAT);
    await flushAudit(ctx.em);
    return paginate(ctx.em, AuditEvent, { $and: [{ resourceType: RESOURCE }, auditOfResource(record.id)] }, args, {
      createdAt: 'asc',
      id: 'asc',
    });
  }

  /** A record's versions, oldest first; batched: one query for every record of a response. */
  async versions(ctx: SubgraphContext, record: ClinicalRecord): Promise<ClinicalRecordVersion[]> {
    const found = await ctx
      .loader<string, ClinicalRecordVersion[]>('clinical-record-versions', async (ids) => {
        const rows = await ctx.em.find(
          ClinicalRecordVersion,
          { recordId: { $in: [...ids] } },
          { orderBy: { recordId: 'asc', version: 'asc' } },
        );
        return ids.map((id) => rows.filter((v) => v.recordId === id));
      })
      .load(record.id);
    return found ?? [];
  }

  /** A version, an audit entry and the clinical-record-updated event, all with the change's transaction. */
  private changed(ctx: SubgraphContext, record: ClinicalRecord, change: 'create' | 'update' | 'delete', fields: string[]): void {
    const snapshot = wrap(record).toObject() as Record<string, unknown>;
    ctx.em.create(ClinicalRecordVersion, {
      recordId: record.id,
      patientId: record.patientId,
      version: record.version,
      change,
      snapshot,
      changedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, change, RESOURCE, record, { version: record.version, fields });
    emitEvent(ctx.em, 'clinical', CLINICAL_RECORD_UPDATED, {
      record_id: record.id,
      patient_id: record.patientId,
      organization_id: record.organizationId ?? null,
      changed_by: ctx.viewer!.userId,
      change,
      version: record.version,
      fields: fields.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
    });
  }
}
