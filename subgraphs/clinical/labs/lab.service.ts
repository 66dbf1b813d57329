import type { FilterQuery } from '@mikro-orm/core';
import type { Hl7Message } from '@medplum/core';
import { clock } from '../../../shared/clock';
import { AppError, errors } from '../../../shared/errors';
import { changedKeys, isUuid, type PageResult, paginate, patchFrom } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { LAB_RESULT_RECEIVED } from './lab.events';
import { can, organizationsWith, requireUser, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { Patient } from '../patients/patient.entity';
import { MalformedMessage, acknowledgment, parseMessage, readOru, type OruMessage, type OruObservation } from './hl7';
import { beyondPanicLimit } from './lab-data';
import { LAB_ORDER, LAB_RESULT_REVIEW, LabOrder, LabOrderPriority, LabOrderStatus, LabResult, LabResultReviewStatus } from './lab.entity';
import type {
  CreateLabOrderInput,
  IngestLabMessageArgs,
  LabIngestAck,
  LabOrderListArgs,
  LabResultListArgs,
  UpdateLabOrderInput,
} from './lab.types';

const ORDER = 'lab_order';
const RESULT = 'lab_result';
/** OBX-11 statuses that end an order: final and corrected. Anything else (P preliminary, ...) leaves it in progress. */
const FINAL = new Set(['F', 'C']);
/** OBX-8 flags (HL7 table 0078) for values beyond panic limits, and for very abnormal non-numeric results. */
const CRITICAL_FLAGS = new Set(['HH', 'LL', 'AA']);
const LOINC_SYSTEMS = new Set(['LN', 'LOINC', 'HTTP://LOINC.ORG']);

type AckCode = 'AA' | 'AE' | 'AR';

interface Outcome {
  controlId: string | null;
  reason?: string;
  patientId?: string;
  labOrderIds?: string[];
  resultIds?: string[];
}

interface MatchedOrder {
  order: LabOrder;
  patient: Patient;
  observations: OruObservation[];
  action: 'result' | 'partial_result';
}

function answer(message: Hl7Message | null, code: AckCode, outcome: Outcome): LabIngestAck {
  const labOrderIds = outcome.labOrderIds ?? [];
  return {
    acknowledgmentCode: code,
    ack: acknowledgment(message, code, outcome.reason ?? null),
    messageControlId: outcome.controlId,
    reason: outcome.reason ?? null,
    patientId: outcome.patientId ?? null,
    labOrderId: labOrderIds[0] ?? null,
    labOrderIds,
    resultIds: outcome.resultIds ?? [],
  };
}

export class LabService {
  async create(ctx: SubgraphContext, input: CreateLabOrderInput): Promise<LabOrder> {
    const patient = await writablePatient(ctx, input.patientId);
    const order = ctx.em.create(LabOrder, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      testType: input.testType,
      priority: input.priority ?? LabOrderPriority.routine,
      notes: input.notes ?? null,
      orderedBy: ctx.viewer!.userId,
    });
    this.changed(ctx, order, 'create', { test_type: order.testType, priority: order.priority });
    await ctx.em.flush();
    return order;
  }

  /**
   * With a patient: that patient's orders. Without: orders of every organization where the caller may read clinical
   * data, and orders for the caller as a patient.
   */
  async list(ctx: SubgraphContext, args: LabOrderListArgs): Promise<PageResult<LabOrder>> {
    const where: FilterQuery<LabOrder> = args.status ? { status: args.status } : {};
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, LabOrder, { ...where, patientId: patient.id }, args);
      auditPatientRead(ctx, 'list', ORDER, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<LabOrder>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, LabOrder, { $and: [scope, where] }, args);
    auditRowsRead(ctx, 'list', ORDER, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<LabOrder> {
    const order = await readableRow(ctx, LabOrder, id, 'Lab order');
    auditRowsRead(ctx, 'read', ORDER, [order]);
    return order;
  }

  /** Only while nothing has been done with the order: its test, priority and notes. */
  async update(ctx: SubgraphContext, id: string, input: UpdateLabOrderInput): Promise<LabOrder> {
    const order = await writableRow(ctx, LabOrder, id, 'Lab order');
    LAB_ORDER.next(order.status, 'update');
    const patch = patchFrom(input, ['testType', 'priority']);
    const fields = changedKeys(order, patch);
    if (!fields.length) return order;
    ctx.em.assign(order, patch);
    order.updatedBy = ctx.viewer!.userId;
    this.changed(ctx, order, 'update', { fields: fields.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)) });
    await ctx.em.flush();
    return order;
  }

  async cancel(ctx: SubgraphContext, id: string, reason?: string): Promise<LabOrder> {
    const order = await writableRow(ctx, LabOrder, id, 'Lab order');
    order.status = LAB_ORDER.next(order.status, 'cancel');
    order.cancelledAt = clock.now();
    order.cancelledBy = ctx.viewer!.userId;
    order.cancelReason = reason?.trim() ?? null;
    order.updatedBy = ctx.viewer!.userId;
    this.changed(ctx, order, 'cancel', { reason: order.cancelReason });
    await ctx.em.flush();
    return order;
  }

  /** An order's results, batched across the orders of one request. The order itself was authorized. */
  results(ctx: SubgraphContext, order: LabOrder): Promise<LabResult[]> {
    const loader = ctx.loader<string, LabResult[]>('lab-order-results', async (orderIds) => {
      const rows = await ctx.em.find(LabResult, { labOrderId: { $in: [...orderIds] } }, { orderBy: { createdAt: 'asc', sequence: 'asc' } });
      return orderIds.map((id) => rows.filter((r) => r.labOrderId === id));
    });
    return loader.load(order.id) as Promise<LabResult[]>;
  }

  async listResults(ctx: SubgraphContext, patientId: string, args: LabResultListArgs): Promise<PageResult<LabResult>> {
    const patient = await readablePatient(ctx, patientId);
    const where: FilterQuery<LabResult> = { patientId: patient.id };
    if (args.reviewStatus) where.reviewStatus = args.reviewStatus;
    if (args.labOrderId) {
      if (!isUuid(args.labOrderId)) throw errors.invalidField('labOrderId', 'must be an id');
      where.labOrderId = args.labOrderId;
    }
    const page = await paginate(ctx.em, LabResult, where, args, { createdAt: 'desc', sequence: 'asc', id: 'asc' });
    auditPatientRead(ctx, 'list', RESULT, patient, { count: page.items.length });
    return page;
  }

  async getResult(ctx: SubgraphContext, id: string): Promise<LabResult> {
    const result = await readableRow(ctx, LabResult, id, 'Lab result');
    auditRowsRead(ctx, 'read', RESULT, [result]);
    return result;
  }

  /** A clinician (a person, not a key) signs a result off; critical results wait for this. */
  async review(ctx: SubgraphContext, id: string, note?: string): Promise<LabResult> {
    const viewer = requireUser(ctx.viewer);
    const result = await writableRow(ctx, LabResult, id, 'Lab result');
    const from = result.reviewStatus;
    result.reviewStatus = LAB_RESULT_REVIEW.next(result.reviewStatus, 'review');
    result.reviewedBy = viewer.userId;
    result.reviewedAt = clock.now();
    result.reviewNote = note?.trim() ?? null;
    auditRowChange(ctx, 'review', RESULT, result, { from, critical: result.critical });
    await ctx.em.flush();
    return result;
  }

  /**
   * An HL7v2 ORU^R01 message from a laboratory of the caller's organization. Every HL7 outcome is an answer, not an
   * error: AR for a message that cannot be read, AE for one naming an unknown patient or order, AA once stored (and
   * again, storing nothing, for a message control id already stored). Only authentication and permission fail.
   */
  async ingest(ctx: SubgraphContext, args: IngestLabMessageArgs): Promise<LabIngestAck> {
    const viewer = requireViewer(ctx.viewer);
    const orgs = organizationsWith(viewer, 'lab-results:write');
    if (orgs && !orgs.length) {
      throw errors.forbidden('Sending lab results needs a laboratory role, or an API key with the lab-results:write scope');
    }
    let message: Hl7Message | null = null;
    let oru: OruMessage;
    try {
      message = parseMessage(args.message);
      oru = readOru(message);
    } catch (err) {
      if (!(err instanceof MalformedMessage)) throw err;
      return answer(message, 'AR', { reason: err.message, controlId: message?.header.getComponent(10, 1).trim() || null });
    }
    const scope = orgs ?? (await this.orderOrganizations(ctx, oru));
    const earlier = await this.ingested(ctx, scope, oru.controlId);
    if (earlier) return answer(message, 'AA', earlier);
    const matched = await this.match(ctx, viewer, oru);
    if (typeof matched === 'string') return answer(message, 'AE', { reason: matched, controlId: oru.controlId });
    const stored = this.store(ctx, oru, matched);
    try {
      await ctx.em.flush();
    } catch (err) {
      // The same message delivered twice at once: the other delivery stored it, so this one is answered as a repeat.
      if ((err as { name?: string }).name !== 'UniqueConstraintViolationException') throw err;
      ctx.em.clear();
      const other = await this.ingested(ctx, scope, oru.controlId);
      if (!other) throw err;
      return answer(message, 'AA', other);
    }
    return answer(message, 'AA', stored);
  }

  /** A message already stored: its results, found by control id within the organizations it may concern. */
  private async ingested(ctx: SubgraphContext, organizationIds: string[], controlId: string): Promise<Outcome | null> {
    if (!organizationIds.length) return null;
    const rows = await ctx.em.find(
      LabResult,
      { messageControlId: controlId, organizationId: { $in: organizationIds } },
      { orderBy: { sequence: 'asc' } },
    );
    if (!rows.length) return null;
    return {
      controlId,
      patientId: rows[0].patientId,
      labOrderIds: [...new Set(rows.map((r) => r.labOrderId))],
      resultIds: rows.map((r) => r.id),
    };
  }

  /** For a platform administrator (no organization of their own): the organizations of the orders the message names. */
  private async orderOrganizations(ctx: SubgraphContext, oru: OruMessage): Promise<string[]> {
    const ids = oru.orders.map((o) => o.placerOrderNumber).filter(isUuid);
    const orders = ids.length ? await ctx.em.find(LabOrder, { id: { $in: ids } }, { fields: ['organizationId'] }) : [];
    return [...new Set(orders.flatMap((o) => (o.organizationId ? [o.organizationId] : [])))];
  }

  /** Each OBR's order (OBR-2) and the patient (PID-3), in the caller's organization; a reason (AE) when one fails. */
  private async match(ctx: SubgraphContext, viewer: Viewer, oru: OruMessage): Promise<MatchedOrder[] | string> {
    const groups = new Map<string, OruObservation[]>();
    for (const o of oru.orders) groups.set(o.placerOrderNumber, [...(groups.get(o.placerOrderNumber) ?? []), ...o.observations]);
    const identifiers = oru.patientIdentifiers;
    const uuids = identifiers.filter(isUuid);
    const matched: MatchedOrder[] = [];
    for (const [placer, observations] of groups) {
      const unknown = placer
        ? `No lab order ${placer} in your organization (OBR-2)`
        : 'OBR-2 (placer order number) must name the lab order';
      const order = isUuid(placer) ? await ctx.em.findOne(LabOrder, { id: placer }) : null;
      if (!order?.organizationId || !can(viewer, 'lab-results:write', order.organizationId)) return unknown;
      const patient = await writablePatient(ctx, order.patientId, { permission: 'lab-results:write' }).catch((err) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      if (!patient) return unknown;
      const named = await ctx.em.find(
        Patient,
        { organizationId: order.organizationId, $or: [{ mrn: { $in: identifiers } }, ...(uuids.length ? [{ id: { $in: uuids } }] : [])] },
        { fields: ['id'] },
      );
      if (!named.length) return `No patient with identifier ${identifiers.join(', ')} in your organization (PID-3)`;
      if (!named.some((p) => p.id === patient.id)) return `Lab order ${order.id} is for another patient than PID-3 names`;
      if (order.status === LabOrderStatus.cancelled) return `Lab order ${order.id} is cancelled`;
      const action = observations.every((o) => FINAL.has(o.resultStatus)) ? 'result' : 'partial_result';
      if (!LAB_ORDER.can(order.status, action))
        return `Lab order ${order.id} already has final results; preliminary results are not accepted`;
      matched.push({ order, patient, observations, action });
    }
    return matched;
  }

  /** Results, order status changes, their audit entries and events: written by the caller's next flush, together. */
  private store(ctx: SubgraphContext, oru: OruMessage, matched: MatchedOrder[]): Outcome {
    const resultIds: string[] = [];
    for (const { order, patient, observations, action } of matched) {
      const from = order.status;
      order.status = LAB_ORDER.next(order.status, action);
      if (order.status === LabOrderStatus.resulted) order.resultedAt ??= clock.now();
      for (const obs of observations) {
        const loinc = !obs.codeSystem || LOINC_SYSTEMS.has(obs.codeSystem.toUpperCase());
        const panic = obs.numericValue !== null && loinc && beyondPanicLimit(obs.code, obs.unit, obs.numericValue);
        const critical = panic || (!!obs.abnormalFlag && CRITICAL_FLAGS.has(obs.abnormalFlag));
        const abnormal = critical || (!!obs.abnormalFlag && obs.abnormalFlag !== 'N');
        const result = ctx.em.create(LabResult, {
          labOrderId: order.id,
          patientId: patient.id,
          organizationId: order.organizationId!,
          code: obs.code,
          codeSystem: obs.codeSystem,
          display: obs.display,
          valueType: obs.valueType,
          value: obs.value,
          numericValue: obs.numericValue,
          unit: obs.unit,
          referenceRange: obs.referenceRange,
          abnormalFlag: obs.abnormalFlag,
          abnormal,
          critical,
          resultStatus: obs.resultStatus,
          observedAt: obs.observedAt,
          messageControlId: oru.controlId,
          sequence: obs.sequence,
          reviewStatus: critical ? LabResultReviewStatus.pending_review : LabResultReviewStatus.not_required,
        });
        auditRowChange(ctx, 'create', RESULT, result, {
          lab_order_id: order.id,
          message_control_id: oru.controlId,
          code: obs.code,
          critical,
        });
        emitEvent(ctx.em, 'clinical', LAB_RESULT_RECEIVED, {
          lab_result_id: result.id,
          lab_order_id: order.id,
          patient_id: patient.id,
          organization_id: result.organizationId,
          test_code: obs.code,
          abnormal,
          critical,
        });
        resultIds.push(result.id);
      }
      this.changed(ctx, order, action, { from, to: order.status, message_control_id: oru.controlId, results: observations.length });
    }
    return { controlId: oru.controlId, patientId: matched[0].patient.id, labOrderIds: matched.map((m) => m.order.id), resultIds };
  }

  private changed(ctx: SubgraphContext, order: LabOrder, action: string, details: Record<string, unknown>): void {
    auditRowChange(ctx, action, ORDER, order, details);
  }
}
