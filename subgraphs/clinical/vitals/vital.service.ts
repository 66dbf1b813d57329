import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { changedKeys, paginate, patchFrom, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { VITAL, VITAL_SIGN_FIELDS, Vital, VitalStatus, type VitalSign } from './vital.entity';
import type { RecordVitalInput, UpdateVitalInput, VitalListArgs } from './vital.types';

const RESOURCE = 'vital';
const WHAT = 'Vital sign record';
const NEWEST_FIRST = { recordedAt: 'desc', id: 'asc' } as const;
const hidden = (v: Vital) => v.status === VitalStatus.entered_in_error;

type Measurements = Partial<Record<VitalSign, number | null>>;

/** Rules across fields, on the record as it would be stored: one measurement at least, a blood pressure whole. */
function checkMeasurements(m: Measurements): void {
  if (VITAL_SIGN_FIELDS.every((f) => m[f] === undefined || m[f] === null)) {
    throw errors.invalidField('heartRate', 'or another measurement is required: a record holds at least one vital sign');
  }
  const systolic = m.bloodPressureSystolic ?? null;
  const diastolic = m.bloodPressureDiastolic ?? null;
  if (systolic !== null && diastolic === null)
    throw errors.invalidField('bloodPressureDiastolic', 'is required with the systolic pressure');
  if (diastolic !== null && systolic === null)
    throw errors.invalidField('bloodPressureSystolic', 'is required with the diastolic pressure');
  if (systolic !== null && diastolic !== null && diastolic >= systolic) {
    throw errors.invalidField('bloodPressureDiastolic', 'must be below the systolic pressure');
  }
}

export class VitalService {
  async record(ctx: SubgraphContext, input: RecordVitalInput): Promise<Vital> {
    const patient = await writablePatient(ctx, input.patientId);
    const measurements = Object.fromEntries(VITAL_SIGN_FIELDS.map((f) => [f, input[f] ?? null])) as Measurements;
    checkMeasurements(measurements);
    const vital = ctx.em.create(Vital, {
      ...measurements,
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      consciousness: input.consciousness ?? null,
      supplementalOxygen: input.supplementalOxygen ?? null,
      notes: input.notes?.trim() ?? null,
      recordedAt: input.recordedAt ?? clock.now(),
      status: VitalStatus.final,
      recordedBy: ctx.viewer!.userId,
    });
    const recorded = [...VITAL_SIGN_FIELDS, 'consciousness', 'supplementalOxygen'] as const;
    auditRowChange(ctx, 'create', RESOURCE, vital, { fields: recorded.filter((f) => vital[f] !== null) });
    await ctx.em.flush();
    return vital;
  }

  /** One patient's (any patient the caller may read), or those of the caller's organizations and own profiles. */
  async list(ctx: SubgraphContext, args: VitalListArgs): Promise<PageResult<Vital>> {
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(
        ctx.em,
        Vital,
        { patientId: patient.id, status: { $ne: VitalStatus.entered_in_error } },
        args,
        NEWEST_FIRST,
      );
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<Vital>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, Vital, { $and: [scope, { status: { $ne: VitalStatus.entered_in_error } }] }, args, NEWEST_FIRST);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Vital> {
    const vital = await readableRow(ctx, Vital, id, WHAT, hidden);
    auditRowsRead(ctx, 'read', RESOURCE, [vital]);
    return vital;
  }

  /** Corrects measurements; the record becomes `amended` and the previous values stay in the audit trail. */
  async update(ctx: SubgraphContext, id: string, input: UpdateVitalInput): Promise<Vital> {
    const vital = await writableRow(ctx, Vital, id, WHAT, { hidden });
    const patch = patchFrom(input, ['recordedAt']);
    if (patch.notes) patch.notes = patch.notes.trim();
    const changed = changedKeys(vital, patch);
    if (!changed.length) return vital;
    checkMeasurements(Object.fromEntries(VITAL_SIGN_FIELDS.map((f) => [f, f in patch ? patch[f] : vital[f]])) as Measurements);
    const previous = Object.fromEntries(changed.map((k) => [k, vital[k] ?? null]));
    ctx.em.assign(vital, patch);
    vital.status = VITAL.next(vital.status, 'amend');
    vital.updatedBy = ctx.viewer!.userId;
    auditRowChange(ctx, 'update', RESOURCE, vital, { fields: changed, previous });
    await ctx.em.flush();
    return vital;
  }

  /** Marks the record entered in error: kept (the law requires it), hidden from every list and read. */
  async delete(ctx: SubgraphContext, id: string): Promise<Vital> {
    const vital = await writableRow(ctx, Vital, id, WHAT, { hidden });
    vital.status = VITAL.next(vital.status, 'enter_in_error');
    vital.updatedBy = ctx.viewer!.userId;
    auditRowChange(ctx, 'delete', RESOURCE, vital, { status: vital.status });
    await ctx.em.flush();
    return vital;
  }
}
