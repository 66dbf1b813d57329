import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { LabOrderPriority } from '../labs/lab.entity';
import {
  INITIAL_SERVICE_REQUEST_STATUSES,
  SERVICE_REQUEST,
  ServiceRequest,
  ServiceRequestStatus,
  type ServiceRequestAction,
} from './service-request.entity';
import type { CreateServiceRequestInput, ServiceRequestListArgs, ServiceRequestTransitionArgs } from './service-request.types';
import { lockedChange } from '../../../shared/locked-change';

const RESOURCE = 'service_request';
const WHAT = 'Service request';
const hidden = (r: ServiceRequest) => r.status === ServiceRequestStatus.entered_in_error;
/** The statuses `PATCH .../status` may ask for: those some transition leads to. */

/**
 * The service request `id` names, when it is one of `patientId`'s (and not entered in error); otherwise a 400 naming
 * `field`, since the caller, who may write the patient's data, sent a reference that does not fit.
 */
export async function serviceRequestOfPatient(ctx: SubgraphContext, id: string, patientId: string, field: string): Promise<ServiceRequest> {
  const request = isUuid(id) ? await ctx.em.findOne(ServiceRequest, { id }) : null;
  if (!request || request.patientId !== patientId || hidden(request)) {
    throw errors.invalidField(field, 'must be a service request of the same patient');
  }
  return request;
}

/** A final report for an active request fulfils it: the request becomes completed (in the caller's transaction). */
export async function completeByReport(tx: SubgraphContext, requestId: string, reportId: string): Promise<void> {
  const request = await tx.em.findOne(ServiceRequest, { id: requestId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!request || !SERVICE_REQUEST.can(request.status, 'complete')) return;
  const from = request.status;
  request.status = SERVICE_REQUEST.next(from, 'complete');
  request.statusReason = null;
  request.statusChangedAt = clock.now();
  request.statusChangedBy = tx.viewer!.userId;
  auditRowChange(tx, 'complete', RESOURCE, request, { status: { from, to: request.status }, diagnostic_report_id: reportId });
}

export class ServiceRequestService {
  async create(ctx: SubgraphContext, input: CreateServiceRequestInput): Promise<ServiceRequest> {
    if (input.performerOrganizationId != null && !isUuid(input.performerOrganizationId)) {
      throw errors.invalidField('performerOrganizationId', 'must be an organization id');
    }
    const status = input.status ?? ServiceRequestStatus.active;
    if (!(INITIAL_SERVICE_REQUEST_STATUSES as readonly ServiceRequestStatus[]).includes(status)) {
      throw errors.invalidField('status', `must be ${INITIAL_SERVICE_REQUEST_STATUSES.join(' or ')} for a new service request`);
    }
    const patient = await writablePatient(ctx, input.patientId);
    const request = ctx.em.create(ServiceRequest, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      category: input.category ?? null,
      code: input.code.trim(),
      codeSystem: input.codeSystem ?? null,
      description: input.description?.trim() ?? null,
      priority: input.priority ?? LabOrderPriority.routine,
      reason: input.reason?.trim() ?? null,
      notes: input.notes?.trim() ?? null,
      performerOrganizationId: input.performerOrganizationId ?? null,
      occurrenceAt: input.occurrenceAt ?? null,
      status,
      requesterId: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, request, {
      category: request.category,
      code: request.code,
      priority: request.priority,
      status,
    });
    await ctx.em.flush();
    return request;
  }

  /** One patient's (any patient the caller may read), or those of the caller's organizations and own profiles. */
  async list(ctx: SubgraphContext, args: ServiceRequestListArgs): Promise<PageResult<ServiceRequest>> {
    const filters: FilterQuery<ServiceRequest>[] = [{ status: { $ne: ServiceRequestStatus.entered_in_error } }];
    if (args.status) filters.push({ status: args.status });
    if (args.category) filters.push({ category: args.category });
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, ServiceRequest, { $and: [{ patientId: patient.id }, ...filters] }, args);
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<ServiceRequest>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, ServiceRequest, { $and: [scope, ...filters] }, args);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<ServiceRequest> {
    const request = await readableRow(ctx, ServiceRequest, id, WHAT, hidden);
    auditRowsRead(ctx, 'read', RESOURCE, [request]);
    return request;
  }

  /** Moves the request on by an action of its machine (409 when its status does not allow it). */
  async transition(ctx: SubgraphContext, args: ServiceRequestTransitionArgs, action: ServiceRequestAction): Promise<ServiceRequest> {
    const found = await writableRow(ctx, ServiceRequest, args.id, WHAT, { hidden });
    return lockedChange(ctx, ServiceRequest, found.id, (tx, request) => {
      if (hidden(request)) throw errors.notFound(WHAT);
      const from = request.status;
      request.status = SERVICE_REQUEST.next(from, action);
      request.statusReason = args.reason?.trim() ?? null;
      request.statusChangedAt = clock.now();
      request.statusChangedBy = tx.viewer!.userId;
      auditRowChange(tx, action, RESOURCE, request, {
        status: { from, to: request.status },
        reason: request.statusReason,
      });
    });
  }
}
