import { randomUUID } from 'node:crypto';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { lockedChange } from '../../../shared/locked-change';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { fromMinor, money, toMinor } from '../../../shared/money';
import { emitEvent } from '../../../shared/outbox';
import { can, requireOrgPermission, requireViewer } from '../../../shared/permissions';
import { ownPatientId, readableById, requireActiveOrganization } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { requireFacility } from '../inventory/access';
import { Product } from '../inventory/product.entity';
import { consume, release, reserve, type StockLine } from '../inventory/stock';
import { ePrescriptionFor, patientVisible, type EPrescriptionView } from './graph';
import { PAYMENT_REQUESTED } from './marketplace.events';
import type {
  CancelSupplyOrderArgs,
  CheckoutInput,
  CheckoutResult,
  CreateSupplyOrderInput,
  SupplyOrderListArgs,
  VerifySupplyOrderInput,
} from './marketplace.types';
import {
  HOLDING_STOCK,
  SUPPLY_ORDER,
  SupplyOrder,
  SupplyOrderPaymentState,
  SupplyOrderStatus,
  type SupplyOrderAction,
  type SupplyOrderItem,
} from './order.entity';
import { medicationNames } from './prescription-match';

const HIDDEN = 'Supply order';

const linesOf = (order: SupplyOrder): StockLine[] =>
  order.items.map((i) => ({ productId: i.productId, quantity: i.quantity, label: `${i.name} (${i.sku})` }));

/** Why an e-prescription cannot cover a product of an order, or null when it can. */
function coverProblem(order: SupplyOrder, product: Product, ep: EPrescriptionView | null): string | null {
  if (!ep) return 'was not found among the e-prescriptions this pharmacy can see';
  if (ep.patientId !== order.patientId) return "is another patient's";
  if (ep.pharmacyId !== order.facilityId) return 'was sent to another pharmacy';
  if (ep.status !== 'transmitted') return ep.status === 'pending' ? 'has not been transmitted to the pharmacy yet' : `is ${ep.status}`;
  if (ep.prescription?.status !== 'signed') return `belongs to a prescription that is ${ep.prescription?.status ?? 'unknown'}`;
  if (!medicationNames(ep.prescription.medication, product)) return `prescribes ${ep.prescription.medication}, not ${product.name}`;
  return null;
}

export class SupplyOrderService {
  /** An order from one facility: its units are reserved at once (409 when the facility does not have them). */
  create(ctx: SubgraphContext, input: CreateSupplyOrderInput): Promise<SupplyOrder> {
    return this.place(ctx, input, null).then((r) => r.order);
  }

  /** Turns a cart into an order and, when asked, requests its mobile money payment in the same transaction. */
  checkout(ctx: SubgraphContext, input: CheckoutInput): Promise<CheckoutResult> {
    return this.place(ctx, input, input.payment ?? null);
  }

  /** The caller's own orders, or a facility's (its staff), newest first. */
  async list(ctx: SubgraphContext, args: SupplyOrderListArgs): Promise<PageResult<SupplyOrder>> {
    const viewer = requireViewer(ctx.viewer);
    const where: FilterQuery<SupplyOrder>[] = [];
    // A developer key has no orders of its own: it lists its facility's.
    const facilityId = args.facilityId ?? viewer.apiKey?.organizationId;
    if (facilityId !== undefined && facilityId !== null) {
      await requireFacility(ctx, facilityId, 'supply-orders:read');
      where.push({ facilityId });
    } else {
      const own = await ownPatientId(ctx);
      where.push({ $or: [{ customerId: viewer.userId }, ...(own ? [{ patientId: own }] : [])] });
    }
    if (args.patientId !== undefined && args.patientId !== null) {
      if (!isUuid(args.patientId)) throw errors.invalidField('patientId', 'must be a patient id');
      where.push({ patientId: args.patientId });
    }
    if (args.status) where.push({ status: args.status });
    return paginate(ctx.em, SupplyOrder, { $and: where }, args);
  }

  async get(ctx: SubgraphContext, id: string): Promise<SupplyOrder> {
    return this.readable(ctx, id);
  }

  /** The customer (or the patient) while it is early, or the facility's staff; the units it held are released. */
  async cancel(ctx: SubgraphContext, args: CancelSupplyOrderArgs): Promise<SupplyOrder> {
    const found = await this.readable(ctx, args.id);
    const viewer = ctx.viewer!;
    if (!(await this.isCustomer(ctx, found)) && !can(viewer, 'supply-orders:write', found.facilityId)) throw errors.forbidden();
    return lockedChange(ctx, SupplyOrder, found.id, async (tx, order) => {
      order.status = SUPPLY_ORDER.next(order.status, 'cancel');
      order.cancelledBy = viewer.userId;
      order.cancelledAt = clock.now();
      order.cancellationReason = args.reason?.trim() ?? null;
      await release(tx.em, order.facilityId, linesOf(order), order.id, viewer.userId);
    });
  }

  /**
   * A pharmacist of the facility checks the order: every prescription-only item must be covered by a valid
   * e-prescription of the patient (transmitted to this pharmacy, its prescription signed, naming the product), asked
   * of the clinical subgraph as the pharmacist. An order already paid for (mobile money completed while it was
   * pending) goes straight on to paid.
   */
  async verify(ctx: SubgraphContext, id: string, input: VerifySupplyOrderInput): Promise<SupplyOrder> {
    const found = await this.readable(ctx, id);
    const viewer = ctx.viewer!;
    if (!can(viewer, 'supply-orders:verify', found.facilityId)) throw errors.forbidden('Only a pharmacist of the facility verifies orders');
    const covers = input.eprescriptions ?? [];
    const issues: FieldIssue[] = [];
    const rx = new Map(found.items.filter((i) => i.prescriptionOnly).map((i) => [i.productId, i]));
    const seen = new Set<string>();
    covers.forEach((c, i) => {
      if (!isUuid(c.productId)) issues.push({ field: `eprescriptions.${i}.productId`, message: 'must be a product id' });
      else if (!rx.has(c.productId))
        issues.push({ field: `eprescriptions.${i}.productId`, message: 'must be a prescription-only product of this order' });
      else if (seen.has(c.productId)) issues.push({ field: `eprescriptions.${i}.productId`, message: 'is covered twice' });
      seen.add(c.productId);
      if (!isUuid(c.eprescriptionId))
        issues.push({ field: `eprescriptions.${i}.eprescriptionId`, message: 'must be an e-prescription id' });
    });
    if (issues.length) throw errors.validation(issues);
    SUPPLY_ORDER.next(found.status, 'verify'); // a 409 before anyone is asked, when the order is not pending
    const uncovered = [...rx.values()].filter((i) => !seen.has(i.productId));
    if (uncovered.length) {
      throw errors.conflict(
        `Prescription-only ${uncovered.map((i) => `${i.name} (${i.sku})`).join(', ')} cannot be sold without a valid e-prescription of the patient`,
      );
    }
    // Asked outside the transaction: another subgraph's answer does not need this order locked.
    const views = new Map<string, EPrescriptionView | null>();
    for (const c of covers) views.set(c.eprescriptionId, await ePrescriptionFor(ctx, c.eprescriptionId));
    const products = new Map((await ctx.em.find(Product, { id: { $in: [...rx.keys()] } })).map((p) => [p.id, p]));
    const problems = covers.flatMap((c) => {
      const problem = coverProblem(found, products.get(c.productId)!, views.get(c.eprescriptionId)!);
      return problem ? [`e-prescription ${c.eprescriptionId} cannot cover ${rx.get(c.productId)!.name}: it ${problem}`] : [];
    });
    if (problems.length) throw errors.conflict(problems.join('; '));
    return lockedChange(ctx, SupplyOrder, found.id, async (tx, order) => {
      order.status = SUPPLY_ORDER.next(order.status, 'verify');
      await this.claimPrescriptions(
        tx.em,
        order,
        covers.map((c) => c.eprescriptionId),
      );
      const byProduct = new Map(covers.map((c) => [c.productId, c.eprescriptionId]));
      order.items = order.items.map((item) => ({
        ...item,
        eprescriptionId: byProduct.get(item.productId) ?? item.eprescriptionId ?? null,
      }));
      order.verifiedBy = viewer.userId;
      order.verifiedAt = clock.now();
      order.verificationNotes = input.notes?.trim() ?? null;
      if (order.paymentState === SupplyOrderPaymentState.completed) order.status = SUPPLY_ORDER.next(order.status, 'pay');
    });
  }

  /** Staff of the facility take a payment at the counter. */
  pay(ctx: SubgraphContext, id: string): Promise<SupplyOrder> {
    return this.staffStep(ctx, id, 'pay', (order) => {
      order.paymentState = SupplyOrderPaymentState.completed;
      order.paymentProvider ??= 'counter';
      order.paidAt = clock.now();
    });
  }

  pack(ctx: SubgraphContext, id: string): Promise<SupplyOrder> {
    return this.staffStep(ctx, id, 'pack', (order) => {
      order.packedAt = clock.now();
    });
  }

  dispatch(ctx: SubgraphContext, id: string): Promise<SupplyOrder> {
    return this.staffStep(ctx, id, 'dispatch', (order) => {
      order.dispatchedAt = clock.now();
    });
  }

  /** The patient has it: its units leave the stock (on hand and reserved both fall). */
  deliver(ctx: SubgraphContext, id: string): Promise<SupplyOrder> {
    return this.staffStep(ctx, id, 'deliver', async (order, tx) => {
      order.deliveredAt = clock.now();
      await consume(tx.em, order.facilityId, linesOf(order), order.id, tx.viewer!.userId);
    });
  }

  /** Who may see an order: its customer, its patient, the facility's staff; 404 for anyone else. */
  async readable(ctx: SubgraphContext, id: string): Promise<SupplyOrder> {
    const viewer = requireViewer(ctx.viewer);
    const order = isUuid(id) ? await ctx.em.findOne(SupplyOrder, { id }) : null;
    if (!order || !(await this.reads(ctx, viewer, order))) throw errors.notFound(HIDDEN);
    return order;
  }

  /** An order under the rule of `supplyOrder(id)`, batched; null when there is none or the caller may not see it. */
  visible(ctx: SubgraphContext, id: string): Promise<SupplyOrder | null> {
    return readableById(ctx, SupplyOrder, id, (viewer, order) => this.reads(ctx, viewer, order));
  }

  private async reads(ctx: SubgraphContext, viewer: Viewer, order: SupplyOrder): Promise<boolean> {
    return can(viewer, 'supply-orders:read', order.facilityId) || (await this.isCustomer(ctx, order));
  }

  /** The person who placed the order, or the patient it is for (their own profile). */
  private async isCustomer(ctx: SubgraphContext, order: SupplyOrder): Promise<boolean> {
    const viewer = ctx.viewer;
    if (!viewer || viewer.apiKey || viewer.system) return false;
    if (order.customerId === viewer.userId) return true;
    return !!order.patientId && (await ownPatientId(ctx)) === order.patientId;
  }

  private async staffStep(
    ctx: SubgraphContext,
    id: string,
    action: Exclude<SupplyOrderAction, 'verify' | 'cancel'>,
    record: (order: SupplyOrder, tx: SubgraphContext) => void | Promise<void>,
  ): Promise<SupplyOrder> {
    const found = await this.readable(ctx, id);
    // The caller sees the order (its customer, say): a refusal now is a 403.
    if (!can(ctx.viewer, 'supply-orders:write', found.facilityId)) throw errors.forbidden("Only the facility's staff move an order on");
    return lockedChange(ctx, SupplyOrder, found.id, async (tx, order) => {
      order.status = SUPPLY_ORDER.next(order.status, action);
      await record(order, tx);
    });
  }

  /**
   * An e-prescription covers one order at a time: none other that still holds stock may use it. Taken under a
   * transaction-scoped advisory lock per e-prescription, so two verifications at once cannot both claim it.
   */
  private async claimPrescriptions(em: EntityManager, order: SupplyOrder, ids: readonly string[]): Promise<void> {
    const schema = em.config.get('schema');
    for (const id of [...ids].sort()) {
      await em
        .getConnection()
        .execute('select pg_advisory_xact_lock(hashtextextended(?, 19))', [`eprescription:${id}`], 'all', em.getTransactionContext());
      const taken = await em
        .getConnection()
        .execute<{ number: string }[]>(
          `select number from "${schema}".supply_orders where id <> ? and status in (?) and items @> ?::jsonb limit 1`,
          [order.id, [...HOLDING_STOCK], JSON.stringify([{ eprescriptionId: id }])],
          'all',
          em.getTransactionContext(),
        );
      if (taken.length) throw errors.duplicate(`E-prescription ${id} already covers order ${taken[0].number}`);
    }
  }

  private async place(
    ctx: SubgraphContext,
    input: CreateSupplyOrderInput,
    payment: { provider: string; phone: string } | null,
  ): Promise<CheckoutResult> {
    const viewer = requireViewer(ctx.viewer);
    const issues: FieldIssue[] = [];
    if (!isUuid(input.facilityId)) issues.push({ field: 'facilityId', message: 'must be an organization id' });
    const seen = new Set<string>();
    input.items.forEach((item, i) => {
      if (!isUuid(item.productId)) issues.push({ field: `items.${i}.productId`, message: 'must be a product id' });
      else if (seen.has(item.productId)) issues.push({ field: `items.${i}.productId`, message: 'is on another line already' });
      seen.add(item.productId);
    });
    if (input.patientId !== undefined && input.patientId !== null && !isUuid(input.patientId)) {
      issues.push({ field: 'patientId', message: 'must be a patient id' });
    }
    if (issues.length) throw errors.validation(issues);
    // A developer key orders only for its own facility (a walk-in sale it records).
    if (viewer.apiKey) requireOrgPermission(viewer, input.facilityId, 'supply-orders:write');
    const products = new Map((await ctx.em.find(Product, { id: { $in: [...seen] } })).map((p) => [p.id, p]));
    const currency = products.get(input.items[0].productId)?.currency;
    input.items.forEach((item, i) => {
      const product = products.get(item.productId);
      if (!product) issues.push({ field: `items.${i}.productId`, message: 'must be a known product' });
      else if (!product.active) issues.push({ field: `items.${i}.productId`, message: 'is no longer sold' });
      else if (product.currency !== currency)
        issues.push({
          field: `items.${i}.productId`,
          message: `is priced in ${product.currency}; an order is in one currency (${currency})`,
        });
    });
    if (issues.length) throw errors.validation(issues);
    await requireActiveOrganization(ctx, input.facilityId, 'facilityId');
    let patientId: string | null = null;
    if (input.patientId) {
      if (!(await patientVisible(ctx, input.patientId))) throw errors.notFound('Patient');
      patientId = input.patientId;
    } else {
      patientId = await ownPatientId(ctx);
    }
    const lines = input.items.map((i) => ({ product: products.get(i.productId)!, quantity: i.quantity }));
    if (!patientId && lines.some((l) => l.product.prescriptionOnly)) {
      throw errors.invalidField('patientId', 'is required: prescription-only items are sold for a patient');
    }
    let total = 0n;
    const items: SupplyOrderItem[] = lines.map(({ product, quantity }) => {
      const unit = toMinor(product.priceAmount, product.currency);
      total += unit * BigInt(quantity);
      return {
        productId: product.id,
        sku: product.sku,
        name: product.name,
        prescriptionOnly: product.prescriptionOnly,
        quantity,
        unitPrice: product.priceAmount,
        amount: fromMinor(unit * BigInt(quantity), product.currency),
        currency: product.currency,
        eprescriptionId: null,
      };
    });
    return ctx.em.transactional(async (em) => {
      // Stock first: the reservation locks only the items ordered; the order number (a per-facility counter row,
      // locked until commit) comes last, so orders of different products do not queue behind each other for long.
      const id = randomUUID();
      const stockLines = items.map((i) => ({ productId: i.productId, quantity: i.quantity, label: `${i.name} (${i.sku})` }));
      await reserve(em, input.facilityId, stockLines, id, viewer.userId);
      const number = formatNumber('ORD', await nextCounterValue(em, 'supply-order', input.facilityId));
      const order = em.create(SupplyOrder, {
        id,
        number,
        facilityId: input.facilityId,
        customerId: viewer.userId,
        patientId,
        items,
        currency: currency!,
        totalAmount: fromMinor(total, currency!),
        deliveryAddress: input.deliveryAddress?.trim() ?? null,
        notes: input.notes?.trim() ?? null,
      });
      if (!payment) return { order, payment: null };
      order.paymentState = SupplyOrderPaymentState.requested;
      order.paymentProvider = payment.provider;
      emitEvent(em, 'revenue', PAYMENT_REQUESTED, {
        order_id: order.id,
        organization_id: order.facilityId,
        patient_id: order.patientId ?? null,
        amount: order.totalAmount,
        currency: order.currency,
        provider: payment.provider,
        phone: payment.phone,
        description: `Supply order ${order.number}`,
      });
      return {
        order,
        payment: { state: 'requested', provider: payment.provider, orderId: order.id, amount: money(total, order.currency) },
      };
    });
  }
}

/**
 * Applies a completed payment to its supply order, once: a verified order becomes paid; a pending one keeps the
 * payment and becomes paid when verified; one paid already (this payment or another) is left alone. A payment whose
 * amount or currency is not the order's total, or that names no order, pays nothing: a RangeError, for an operator.
 */
export async function applyPayment(
  em: EntityManager,
  payment: { orderId: string; paymentId: string; amount: string; currency: string; completedAt: Date },
): Promise<'paid' | 'recorded' | 'ignored'> {
  const order = await em.findOne(SupplyOrder, { id: payment.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!order) throw new RangeError(`no supply order ${payment.orderId}`);
  if (order.paymentState === SupplyOrderPaymentState.completed) return 'ignored';
  if (payment.currency !== order.currency || toMinor(payment.amount, order.currency) !== toMinor(order.totalAmount, order.currency)) {
    throw new RangeError(
      `payment ${payment.paymentId} of ${payment.amount} ${payment.currency} does not match order ${order.number} (${order.totalAmount} ${order.currency})`,
    );
  }
  order.paymentState = SupplyOrderPaymentState.completed;
  order.paymentId = payment.paymentId;
  order.paidAt = payment.completedAt;
  if (SUPPLY_ORDER.can(order.status, 'pay')) {
    order.status = SUPPLY_ORDER.next(order.status, 'pay');
    return 'paid';
  }
  if (order.status === SupplyOrderStatus.cancelled) {
    logger.warn(
      { order: order.id, payment: payment.paymentId },
      'a payment completed for a cancelled supply order: it is due back to the payer',
    );
  }
  return 'recorded';
}
