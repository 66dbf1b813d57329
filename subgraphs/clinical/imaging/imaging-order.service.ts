import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { paginate, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { CLOCK_SKEW_MS } from '../../../shared/validation';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditChange, auditPatientRead, auditRowsRead } from '../../../shared/audit/audit-trail';
import { IMAGING_ORDER, ImagingOrder, ImagingOrderPriority, ImagingOrderStatus } from './imaging-order.entity';
import type {
  CancelImagingOrderArgs,
  CreateImagingOrderInput,
  ImagingOrderListArgs,
  ScheduleImagingOrderArgs,
} from './imaging-order.types';

const RESOURCE = 'imaging_order';
const WHAT = 'Imaging order';

export class ImagingOrderService {
  async create(ctx: SubgraphContext, input: CreateImagingOrderInput): Promise<ImagingOrder> {
    const patient = await writablePatient(ctx, input.patientId);
    const order = ctx.em.create(ImagingOrder, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      modality: input.modality,
      bodyPart: input.bodyPart?.trim() ?? null,
      laterality: input.laterality ?? null,
      priority: input.priority ?? ImagingOrderPriority.routine,
      clinicalIndication: input.clinicalIndication.trim(),
      notes: input.notes?.trim() ?? null,
      status: ImagingOrderStatus.ordered,
      orderedBy: ctx.viewer!.userId,
    });
    this.changed(ctx, order, 'create', { modality: order.modality, priority: order.priority });
    await ctx.em.flush();
    return order;
  }

  /** One patient's (any patient the caller may read), or those of the caller's organizations and own profiles. */
  async list(ctx: SubgraphContext, args: ImagingOrderListArgs): Promise<PageResult<ImagingOrder>> {
    const filters: FilterQuery<ImagingOrder>[] = [];
    if (args.status) filters.push({ status: args.status });
    if (args.modality) filters.push({ modality: args.modality });
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, ImagingOrder, { $and: [{ patientId: patient.id }, ...filters] }, args);
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<ImagingOrder>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, ImagingOrder, { $and: [scope, ...filters] }, args);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<ImagingOrder> {
    const order = await readableRow(ctx, ImagingOrder, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [order]);
    return order;
  }

  /** Books the examination; an order already scheduled is rescheduled. */
  async schedule(ctx: SubgraphContext, args: ScheduleImagingOrderArgs): Promise<ImagingOrder> {
    const order = await writableRow(ctx, ImagingOrder, args.id, WHAT);
    if (args.scheduledAt.getTime() < clock.nowMs() - CLOCK_SKEW_MS) throw errors.invalidField('scheduledAt', 'must not be in the past');
    order.status = IMAGING_ORDER.next(order.status, 'schedule');
    order.scheduledAt = args.scheduledAt;
    this.changed(ctx, order, 'schedule', { scheduled_at: args.scheduledAt.toISOString() });
    await ctx.em.flush();
    return order;
  }

  async start(ctx: SubgraphContext, id: string): Promise<ImagingOrder> {
    const order = await writableRow(ctx, ImagingOrder, id, WHAT);
    order.status = IMAGING_ORDER.next(order.status, 'start');
    order.startedAt = clock.now();
    this.changed(ctx, order, 'start');
    await ctx.em.flush();
    return order;
  }

  async complete(ctx: SubgraphContext, id: string): Promise<ImagingOrder> {
    const order = await writableRow(ctx, ImagingOrder, id, WHAT);
    order.status = IMAGING_ORDER.next(order.status, 'complete');
    order.completedAt = clock.now();
    this.changed(ctx, order, 'complete');
    await ctx.em.flush();
    return order;
  }

  /** Possible until the examination starts (ordered or scheduled); 409 afterwards. */
  async cancel(ctx: SubgraphContext, args: CancelImagingOrderArgs): Promise<ImagingOrder> {
    const order = await writableRow(ctx, ImagingOrder, args.id, WHAT);
    order.status = IMAGING_ORDER.next(order.status, 'cancel');
    order.cancelledAt = clock.now();
    order.cancelledBy = ctx.viewer!.userId;
    order.cancelReason = args.reason?.trim() ?? null;
    this.changed(ctx, order, 'cancel', { reason: order.cancelReason });
    await ctx.em.flush();
    return order;
  }

  private changed(ctx: SubgraphContext, order: ImagingOrder, action: string, details: Record<string, unknown> = {}): void {
    auditChange(ctx, {
      action,
      resourceType: RESOURCE,
      resourceId: order.id,
      patientId: order.patientId,
      organizationId: order.organizationId,
      details: { ...details, status: order.status },
    });
  }
}
