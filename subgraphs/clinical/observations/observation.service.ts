import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { changedKeys, paginate, patchFrom, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditChange, auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { VITAL_SIGNS } from '../vitals/vital.entity';
import { LOINC_CODES } from './loinc';
import { INITIAL_OBSERVATION_STATUSES, OBSERVATION, Observation, ObservationStatus, STATUS_ACTIONS } from './observation.entity';
import type { RecordObservationInput, ObservationListArgs, UpdateObservationInput } from './observation.types';

const RESOURCE = 'observation';
const WHAT = 'Observation';
const NEWEST_FIRST = { effectiveAt: 'desc', id: 'asc' } as const;
const hidden = (o: Observation) => o.status === ObservationStatus.entered_in_error;
/** Until a result exists (registered) or when none will come (cancelled), an observation has no value. */
const VALUE_OPTIONAL: ObservationStatus[] = [ObservationStatus.registered, ObservationStatus.cancelled];
/** The vital signs' plausible ranges apply to observations of the same codes in the same unit. */
const VITAL_BY_LOINC = new Map(Object.values(VITAL_SIGNS).map((s) => [s.loinc as string, s]));

interface ObservationValue {
  valueQuantity?: number | null;
  unit?: string | null;
  valueString?: string | null;
  status: ObservationStatus;
}

/** The value as it would be stored: one kind of value, a unit with a quantity, the code's own unit when known. */
function checkValue(code: string, v: ObservationValue): void {
  const quantity = v.valueQuantity ?? null;
  const unit = v.unit ?? null;
  if (quantity !== null && (v.valueString ?? null) !== null)
    throw errors.invalidField('valueString', 'cannot be given with a quantity value');
  if (quantity === null && (v.valueString ?? null) === null && !VALUE_OPTIONAL.includes(v.status)) {
    throw errors.invalidField('valueQuantity', `or a text value is required for a ${v.status} observation`);
  }
  if (quantity === null) {
    if (unit !== null) throw errors.invalidField('unit', 'goes only with a quantity value');
    return;
  }
  if (unit === null) throw errors.invalidField('unit', 'is required with a quantity value');
  const known = LOINC_CODES[code];
  if (known && !known.units.includes(unit)) {
    throw errors.invalidField('unit', `must be ${known.units.join(' or ')} for LOINC ${code} (${known.display})`);
  }
  const vital = VITAL_BY_LOINC.get(code);
  if (vital && vital.unit === unit && (quantity < vital.min || quantity > vital.max)) {
    throw errors.invalidField('valueQuantity', `must be between ${vital.min} and ${vital.max} ${vital.symbol}`);
  }
}

export class ObservationService {
  async create(ctx: SubgraphContext, input: RecordObservationInput): Promise<Observation> {
    const patient = await writablePatient(ctx, input.patientId);
    const known = LOINC_CODES[input.code];
    const status = input.status ?? ObservationStatus.final;
    if (!(INITIAL_OBSERVATION_STATUSES as readonly ObservationStatus[]).includes(status)) {
      throw errors.invalidField('status', `must be ${INITIAL_OBSERVATION_STATUSES.join(', ')} for a new observation`);
    }
    const category = input.category ?? known?.category;
    if (!category) throw errors.invalidField('category', 'is required for a code outside the built-in LOINC table');
    checkValue(input.code, { ...input, status });
    const observation = ctx.em.create(Observation, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      code: input.code,
      display: input.display?.trim() ?? known?.display ?? null,
      category,
      valueQuantity: input.valueQuantity ?? null,
      unit: input.unit ?? null,
      valueString: input.valueString ?? null,
      status,
      effectiveAt: input.effectiveAt ?? clock.now(),
      interpretation: input.interpretation ?? null,
      notes: input.notes?.trim() ?? null,
      recordedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, observation, { code: observation.code, status });
    await ctx.em.flush();
    return observation;
  }

  /** One patient's (any patient the caller may read), or those of the caller's organizations and own profiles. */
  async list(ctx: SubgraphContext, args: ObservationListArgs): Promise<PageResult<Observation>> {
    const filters: FilterQuery<Observation>[] = [{ status: { $ne: ObservationStatus.entered_in_error } }];
    if (args.status) filters.push({ status: args.status });
    if (args.code) filters.push({ code: args.code });
    if (args.category) filters.push({ category: args.category });
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, Observation, { $and: [{ patientId: patient.id }, ...filters] }, args, NEWEST_FIRST);
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<Observation>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, Observation, { $and: [scope, ...filters] }, args, NEWEST_FIRST);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Observation> {
    const observation = await readableRow(ctx, Observation, id, WHAT, hidden);
    auditRowsRead(ctx, 'read', RESOURCE, [observation]);
    return observation;
  }

  /**
   * Changes fields and, with `status`, moves the observation on (preliminary → final, ...). Changing the result of
   * a final observation amends it; a cancelled one cannot be changed. Previous values stay in the audit trail.
   */
  async update(ctx: SubgraphContext, id: string, input: UpdateObservationInput): Promise<Observation> {
    const observation = await writableRow(ctx, Observation, id, WHAT, { hidden });
    const { status: requested, ...patch } = patchFrom(input, ['category', 'effectiveAt', 'status']);
    if (patch.display) patch.display = patch.display.trim();
    if (patch.notes) patch.notes = patch.notes.trim();
    const changed = changedKeys(observation, patch);
    const before = observation.status;
    if (requested && !STATUS_ACTIONS[requested]) {
      throw errors.invalidField('status', `must be ${Object.keys(STATUS_ACTIONS).join(', ')}`);
    }
    const settled = before !== ObservationStatus.registered && before !== ObservationStatus.preliminary;
    const action = requested && requested !== before ? STATUS_ACTIONS[requested] : changed.length && settled ? 'amend' : undefined;
    if (!action && !changed.length) return observation;
    const status = action ? OBSERVATION.next(before, action) : before;
    const merged = { ...observation, ...patch, status };
    checkValue(observation.code, merged);
    const previous = Object.fromEntries(changed.map((k) => [k, observation[k] ?? null]));
    ctx.em.assign(observation, { ...patch, status });
    observation.updatedBy = ctx.viewer!.userId;
    auditChange(ctx, {
      action: 'update',
      resourceType: RESOURCE,
      resourceId: observation.id,
      patientId: observation.patientId,
      organizationId: observation.organizationId,
      details: { fields: changed, previous, ...(status !== before ? { status: { from: before, to: status } } : {}) },
    });
    await ctx.em.flush();
    return observation;
  }

  /** Marks the observation entered in error: kept, hidden from every list and read. */
  async delete(ctx: SubgraphContext, id: string): Promise<Observation> {
    const observation = await writableRow(ctx, Observation, id, WHAT, { hidden });
    const before = observation.status;
    observation.status = OBSERVATION.next(before, 'enter_in_error');
    observation.updatedBy = ctx.viewer!.userId;
    auditRowChange(ctx, 'delete', RESOURCE, observation, { status: { from: before, to: observation.status } });
    await ctx.em.flush();
    return observation;
  }
}
