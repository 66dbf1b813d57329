import { Readable } from 'node:stream';
import type { FilterQuery } from '@mikro-orm/core';
import type { Hl7Message } from '@medplum/core';
import { objectStorage } from '../../../shared/adapters/object-storage';
import { clock } from '../../../shared/clock';
import { keysetConnection, windowOf, type Connection, type ConnectionArgs, type KeysetList } from '../../../shared/connection';
import { AppError, errors } from '../../../shared/errors';
import { changedKeys, isUuid, type PageResult, paginate, patchFrom } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { LAB_RESULT_RECEIVED } from './lab.events';
import { can, organizationsWith, requireOrgPermission, requireUser, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { Patient } from '../patients/patient.entity';
import {
  MalformedMessage,
  acknowledgment,
  parseMessage,
  readOru,
  type AckError,
  type OruMessage,
  type OruObservation,
  type OruOrder,
} from './hl7';
import { beyondPanicLimit } from './lab-data';
import {
  LAB_ORDER,
  LAB_RESULT_REVIEW,
  LabMessage,
  LabOrder,
  LabOrderPriority,
  LabOrderStatus,
  LabResult,
  LabResultReviewStatus,
} from './lab.entity';
import type {
  CreateLabOrderInput,
  IngestLabMessageArgs,
  LabIngestAck,
  LabOrderListArgs,
  LabResultDocument,
  LabResultDocumentInfo,
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
  reason?: string | null;
  patientId?: string;
  labOrderIds?: string[];
  resultIds?: string[];
  problems?: AckError[];
  duplicate?: boolean;
}

interface MatchedOrder {
  order: LabOrder;
  patient: Patient;
  orders: OruOrder[];
  observations: OruObservation[];
  action: 'result' | 'partial_result';
}

/** A part of a message not stored: the OBR it starts at, and why (ERR code of HL7 table 0357 and text). */
interface Refusal {
  position: number;
  field: number;
  code: AckError['code'];
  /** Why, as the answer's reason when nothing was stored. */
  text: string;
  /** Where and why, with what was not stored: the ERR text. */
  detail: string;
}

/**
 * Results as the laboratory sent them: the newest message first, and a message's results (its orders, each with its
 * OBX) in the order of their OBX.
 */
/** An organization's critical results (flagged HH, LL, AA or beyond a panic limit) no clinician has reviewed yet. */
const CRITICAL_INBOX: KeysetList<LabResult> = {
  name: 'organization:critical-lab-results',
  entity: LabResult,
  parentColumn: 'organization_id',
  sortColumn: 'received_at',
  where: "critical and review_status = 'pending_review'",
};

const RESULT_ORDER = { receivedAt: 'desc', labMessageId: 'asc', messageControlId: 'asc', sequence: 'asc', id: 'asc' } as const;
const RESULT_ORDER_ASC = { receivedAt: 'asc', labMessageId: 'asc', messageControlId: 'asc', sequence: 'asc', id: 'asc' } as const;

/** What a result says of its embedded document, without the bytes; null when it carries none. */
export function documentInfo(result: LabResult): LabResultDocumentInfo | null {
  if (!result.documentKey) return null;
  return { contentType: result.documentContentType!, size: result.documentSize!, sha256: result.documentSha256! };
}

/** Documents embedded in results (ED) are kept in object storage, at most this large each. */
const DOCUMENT_MAX_BYTES = 5_000_000;

function answer(message: Hl7Message | null, code: AckCode, outcome: Outcome): LabIngestAck {
  const labOrderIds = outcome.labOrderIds ?? [];
  const problems = outcome.problems ?? [];
  return {
    acknowledgmentCode: code,
    ack: acknowledgment(message, code, outcome.reason ?? null, problems),
    messageControlId: outcome.controlId,
    reason: outcome.reason ?? null,
    patientId: outcome.patientId ?? null,
    labOrderId: labOrderIds[0] ?? null,
    labOrderIds,
    resultIds: outcome.resultIds ?? [],
    duplicate: outcome.duplicate ?? false,
    notStored: problems.map((p) => p.text),
  };
}

function problem(r: Refusal): AckError {
  return { segment: r.field === 3 ? 'PID' : 'OBR', position: r.field === 3 ? 1 : r.position, field: r.field, code: r.code, text: r.detail };
}

/** The LOINC code of an observation: its code, or its alternate code, whichever is LOINC (no system: taken as LOINC). */
function loinc(obs: OruObservation): string | null {
  if (!obs.codeSystem || LOINC_SYSTEMS.has(obs.codeSystem.toUpperCase())) return obs.code;
  if (obs.alternateCode && obs.alternateCodeSystem && LOINC_SYSTEMS.has(obs.alternateCodeSystem.toUpperCase())) return obs.alternateCode;
  return null;
}

/** The sender as the ACK text names it: MSH-3 and MSH-4. */
function sender(oru: OruMessage): string {
  return [oru.sendingApplication, oru.sendingFacility].filter(Boolean).join(' / ') || '(no MSH-3 or MSH-4)';
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
      const rows = await ctx.em.find(LabResult, { labOrderId: { $in: [...orderIds] } }, { orderBy: RESULT_ORDER_ASC });
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
    const page = await paginate(ctx.em, LabResult, where, args, RESULT_ORDER);
    auditPatientRead(ctx, 'list', RESULT, patient, { count: page.items.length });
    return page;
  }

  /** The embedded document of a result (an OBX of value type ED), with its bytes; 404 when it carries none. */
  async document(ctx: SubgraphContext, id: string): Promise<LabResultDocument> {
    const result = await readableRow(ctx, LabResult, id, 'Lab result');
    if (!result.documentKey) throw errors.notFound('This lab result carries no document');
    const chunks: Buffer[] = [];
    const stream = await objectStorage()
      .read(result.documentKey)
      .catch(() => {
        throw errors.notFound('The document of this lab result');
      });
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    auditRowsRead(ctx, 'read_document', RESULT, [result]);
    return { ...documentInfo(result)!, labResultId: result.id, data: Buffer.concat(chunks).toString('base64') };
  }

  async getResult(ctx: SubgraphContext, id: string): Promise<LabResult> {
    const result = await readableRow(ctx, LabResult, id, 'Lab result');
    auditRowsRead(ctx, 'read', RESULT, [result]);
    return result;
  }

  /** A clinician (a person, not a key) signs a result off; critical results wait for this. */
  /**
   * The critical results of an organization waiting for a clinician's review (`reviewLabResult` takes them out),
   * newest received first, by cursor: clinical:read in the organization. Batched across organizations.
   */
  async criticalInbox(ctx: SubgraphContext, organizationId: string, args: ConnectionArgs): Promise<Connection<LabResult>> {
    windowOf(args);
    if (!isUuid(organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
    requireOrgPermission(ctx.viewer, organizationId, 'clinical:read');
    const connection = await keysetConnection(ctx, CRITICAL_INBOX, organizationId, args);
    auditRowsRead(ctx, 'list', RESULT, connection.nodes);
    return connection;
  }

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
   * error: AR for a message that cannot be read (or a batch), AE for one naming an unknown patient or order or
   * reusing a control id of its sender for other content, AA once stored. A message whose orders match only in part
   * stores what matches and answers AE naming each part not stored (ERR segments). A message delivered again (same
   * sender, control id and content) stores nothing and gets the first answer again. Only authentication and
   * permission fail.
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
    const earlier = await this.ingested(ctx, scope, oru);
    if (earlier) return answer(message, earlier.code, earlier.outcome);
    const { matched, refused } = await this.match(ctx, viewer, oru);
    if (!matched.length) {
      return answer(message, 'AE', { reason: refused[0].text, controlId: oru.controlId, problems: refused.map(problem) });
    }
    const written: string[] = [];
    try {
      const stored = await this.store(ctx, oru, matched, refused, written);
      await ctx.em.flush();
      return answer(message, refused.length ? 'AE' : 'AA', stored);
    } catch (err) {
      await Promise.all(
        written.map((key) =>
          objectStorage()
            .remove(key)
            .catch(() => undefined),
        ),
      );
      // The same message delivered twice at once: the other delivery stored it, so this one is answered as a repeat.
      if ((err as { name?: string }).name !== 'UniqueConstraintViolationException') throw err;
      ctx.em.clear();
      const other = await this.ingested(ctx, scope, oru);
      if (!other) throw err;
      return answer(message, other.code, other.outcome);
    }
  }

  /**
   * A message of this sender with this control id stored before, within the organizations it may concern: the same
   * content is a redelivery, answered as the first time (its own patient and orders, nothing of another message);
   * other content is refused (AE), so that neither message is lost silently. Results stored before messages were
   * kept (no sender recorded) are compared by their content.
   */
  private async ingested(
    ctx: SubgraphContext,
    organizationIds: string[],
    oru: OruMessage,
  ): Promise<{ code: AckCode; outcome: Outcome } | null> {
    if (!organizationIds.length) return null;
    const reused = (): { code: AckCode; outcome: Outcome } => {
      const text =
        `Control id ${oru.controlId} (MSH-10) of ${sender(oru)} was already used for another message: nothing stored. ` +
        'Send this message with a new control id.';
      return {
        code: 'AE',
        outcome: {
          controlId: oru.controlId,
          reason: `Control id ${oru.controlId} already used for another message; nothing stored`,
          problems: [{ segment: 'MSH', position: 1, field: 10, code: '205', text }],
        },
      };
    };
    const stored = await ctx.em.findOne(LabMessage, {
      organizationId: { $in: organizationIds },
      sendingApplication: oru.sendingApplication,
      sendingFacility: oru.sendingFacility,
      messageControlId: oru.controlId,
    });
    if (stored) {
      if (stored.contentHash !== oru.contentHash) return reused();
      return {
        code: stored.acknowledgmentCode as AckCode,
        outcome: {
          controlId: oru.controlId,
          reason: stored.reason ?? null,
          patientId: stored.patientId,
          labOrderIds: stored.labOrderIds,
          resultIds: stored.resultIds,
          problems: stored.problems as AckError[],
          duplicate: true,
        },
      };
    }
    const legacy = await ctx.em.find(
      LabResult,
      { messageControlId: oru.controlId, labMessageId: null, organizationId: { $in: organizationIds } },
      { orderBy: { sequence: 'asc' } },
    );
    if (!legacy.length) return null;
    const observations = oru.orders.flatMap((order) => order.observations.map((obs) => ({ obs, placer: order.placerOrderNumber })));
    const same =
      legacy.length === observations.length &&
      legacy.every((r, i) => {
        const { obs, placer } = observations[i];
        return (
          r.labOrderId === placer &&
          r.sequence === obs.sequence &&
          r.code === obs.code &&
          r.value === obs.value &&
          r.resultStatus === obs.resultStatus
        );
      });
    if (!same) return reused();
    return {
      code: 'AA',
      outcome: {
        controlId: oru.controlId,
        patientId: legacy[0].patientId,
        labOrderIds: [...new Set(legacy.map((r) => r.labOrderId))],
        resultIds: legacy.map((r) => r.id),
        duplicate: true,
      },
    };
  }

  /** For a platform administrator (no organization of their own): the organizations of the orders the message names. */
  private async orderOrganizations(ctx: SubgraphContext, oru: OruMessage): Promise<string[]> {
    const ids = oru.orders.map((o) => o.placerOrderNumber).filter(isUuid);
    const orders = ids.length ? await ctx.em.find(LabOrder, { id: { $in: ids } }, { fields: ['organizationId'] }) : [];
    return [...new Set(orders.flatMap((o) => (o.organizationId ? [o.organizationId] : [])))];
  }

  /**
   * Each OBR's order (OBR-2) and the patient (PID-3), in the caller's organization. OBR segments naming the same
   * order are taken together; each order is matched on its own, so that one that does not match (a reflex test the
   * laboratory added, without OBR-2; an unknown or cancelled order) does not keep the others from being stored.
   */
  private async match(ctx: SubgraphContext, viewer: Viewer, oru: OruMessage): Promise<{ matched: MatchedOrder[]; refused: Refusal[] }> {
    const groups = new Map<string, OruOrder[]>();
    for (const o of oru.orders) groups.set(o.placerOrderNumber, [...(groups.get(o.placerOrderNumber) ?? []), o]);
    const identifiers = oru.patientIdentifiers;
    const uuids = identifiers.filter(isUuid);
    const matched: MatchedOrder[] = [];
    const refused: Refusal[] = [];
    for (const [placer, orders] of groups) {
      const observations = orders.flatMap((o) => o.observations);
      const where = `OBR ${orders.map((o) => o.index).join(', ')}`;
      const refuse = (code: Refusal['code'], text: string, field = 2) =>
        refused.push({
          position: orders[0].index,
          field,
          code,
          text,
          detail: `${where}: ${text}; ${observations.length} result(s) not stored`,
        });
      if (!placer) {
        refuse('101', 'OBR-2 (placer order number) must name the lab order');
        continue;
      }
      const unknown = `No lab order ${placer} in your organization (OBR-2)`;
      const order = isUuid(placer) ? await ctx.em.findOne(LabOrder, { id: placer }) : null;
      if (!order?.organizationId || !can(viewer, 'lab-results:write', order.organizationId)) {
        refuse('204', unknown);
        continue;
      }
      const patient = await writablePatient(ctx, order.patientId, { permission: 'lab-results:write' }).catch((err) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      if (!patient) {
        refuse('204', unknown);
        continue;
      }
      const named = await ctx.em.find(
        Patient,
        { organizationId: order.organizationId, $or: [{ mrn: { $in: identifiers } }, ...(uuids.length ? [{ id: { $in: uuids } }] : [])] },
        { fields: ['id'] },
      );
      if (!named.length) {
        const text = `No patient with identifier ${identifiers.join(', ')} in your organization (PID-3)`;
        refused.push({ position: 1, field: 3, code: '204', text, detail: `${text}; ${observations.length} result(s) not stored` });
        continue;
      }
      if (!named.some((p) => p.id === patient.id)) {
        refuse('207', `Lab order ${order.id} is for another patient than PID-3 names`);
        continue;
      }
      if (order.status === LabOrderStatus.cancelled) {
        refuse('207', `Lab order ${order.id} is cancelled`);
        continue;
      }
      const action = observations.every((o) => FINAL.has(o.resultStatus)) ? 'result' : 'partial_result';
      if (!LAB_ORDER.can(order.status, action)) {
        refuse('207', `Lab order ${order.id} already has final results; preliminary results are not accepted`, 25);
        continue;
      }
      matched.push({ order, patient, orders, observations, action });
    }
    // The patient is the message's: a PID-3 naming nobody refuses every order once, not once per order.
    const unique = refused.filter((r, i) => r.field !== 3 || refused.findIndex((o) => o.field === 3) === i);
    // Orders of one message are of one patient; one of another organization's patient is not stored with them.
    const patientId = matched[0]?.patient.id;
    const same = matched.filter((m) => m.patient.id === patientId);
    for (const m of matched.filter((x) => x.patient.id !== patientId)) {
      const text = `Lab order ${m.order.id} is for another patient than the message's other orders`;
      unique.push({
        position: m.orders[0].index,
        field: 2,
        code: '207',
        text,
        detail: `OBR ${m.orders.map((o) => o.index).join(', ')}: ${text}; ${m.observations.length} result(s) not stored`,
      });
    }
    return { matched: same, refused: unique };
  }

  /**
   * The message, its results, order status changes, audit entries and events: written by the caller's next flush,
   * together. Embedded documents are written to object storage first (their keys in `written`, for the caller to
   * remove should the flush fail).
   */
  private async store(
    ctx: SubgraphContext,
    oru: OruMessage,
    matched: MatchedOrder[],
    refused: Refusal[],
    written: string[],
  ): Promise<Outcome> {
    const resultIds: string[] = [];
    const receivedAt = clock.now();
    const first = matched[0];
    const organizationId = first.order.organizationId!;
    const message = ctx.em.create(LabMessage, {
      organizationId,
      patientId: first.patient.id,
      sendingApplication: oru.sendingApplication,
      sendingFacility: oru.sendingFacility,
      messageControlId: oru.controlId,
      contentHash: oru.contentHash,
      acknowledgmentCode: refused.length ? 'AE' : 'AA',
      reason: null,
      problems: refused.map(problem),
      labOrderIds: matched.map((m) => m.order.id),
      resultIds,
    });
    for (const { order, patient, orders, observations, action } of matched) {
      const from = order.status;
      order.status = LAB_ORDER.next(order.status, action);
      if (order.status === LabOrderStatus.resulted) order.resultedAt ??= clock.now();
      const comments = orders.map((o) => o.comment).filter((c): c is string => !!c);
      if (comments.length) order.labComment = [order.labComment, ...comments].filter(Boolean).join('\n\n');
      for (const obs of observations) {
        const loincCode = loinc(obs);
        const panic = obs.numericValue !== null && !!loincCode && beyondPanicLimit(loincCode, obs.unit, obs.numericValue);
        const critical = panic || (!!obs.abnormalFlag && CRITICAL_FLAGS.has(obs.abnormalFlag));
        const abnormal = critical || (!!obs.abnormalFlag && obs.abnormalFlag !== 'N');
        const result = ctx.em.create(LabResult, {
          labOrderId: order.id,
          patientId: patient.id,
          organizationId: order.organizationId!,
          labMessageId: message.id,
          receivedAt,
          code: obs.code,
          codeSystem: obs.codeSystem,
          display: obs.display,
          alternateCode: obs.alternateCode,
          alternateCodeSystem: obs.alternateCodeSystem,
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
          subId: obs.subId,
          comment: obs.comment,
          reviewStatus: critical ? LabResultReviewStatus.pending_review : LabResultReviewStatus.not_required,
        });
        if (obs.document) {
          const key = `lab-documents/${result.organizationId}/${result.id}`;
          written.push(key);
          const kept = await objectStorage().put(key, Readable.from([obs.document.data]), {
            contentType: obs.document.contentType,
            maxBytes: DOCUMENT_MAX_BYTES,
          });
          result.documentKey = key;
          result.documentContentType = obs.document.contentType;
          result.documentSize = kept.size;
          result.documentSha256 = kept.sha256;
        }
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
    const stored = matched.reduce((n, m) => n + m.observations.length, 0);
    message.reason = refused.length ? `Stored ${stored} result(s); not stored: ${refused.map((r) => r.detail).join('; ')}` : null;
    message.resultIds = [...resultIds];
    return {
      controlId: oru.controlId,
      reason: message.reason,
      patientId: first.patient.id,
      labOrderIds: message.labOrderIds,
      resultIds,
      problems: message.problems as AckError[],
    };
  }

  private changed(ctx: SubgraphContext, order: LabOrder, action: string, details: Record<string, unknown>): void {
    auditRowChange(ctx, action, ORDER, order, details);
  }
}
