import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { lockedChange } from '../../../shared/locked-change';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { fromMinor, toMinor } from '../../../shared/money';
import { organizationsWith, requireOrgPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { facilityScope, requireFacility } from './access';
import type { CreatePurchaseOrderInput, PurchaseOrderListArgs, ReorderInput, ReorderResult } from './inventory.types';
import { Product } from './product.entity';
import { OPEN_PURCHASE_ORDER, PURCHASE_ORDER, PurchaseOrder, PurchaseOrderLine, PurchaseOrderSource } from './purchase-order.entity';
import { InventoryItem, StockMovementReason } from './stock.entity';
import { ensureItems, move } from './stock';
import { Supplier } from './supplier.entity';

const HIDDEN = 'Purchase order';

interface DraftLine {
  productId: string;
  quantity: number;
  unitCost: bigint;
}

/** Writes a purchase order and its lines, numbered PO-000001 onwards per facility, in the caller's transaction. */
async function writePurchaseOrder(
  em: EntityManager,
  order: {
    facilityId: string;
    supplierId: string;
    currency: string;
    source: PurchaseOrderSource;
    notes: string | null;
    createdBy: string | null;
  },
  lines: DraftLine[],
): Promise<PurchaseOrder> {
  const number = formatNumber('PO', await nextCounterValue(em, 'purchase-order', order.facilityId));
  let total = 0n;
  const po = em.create(PurchaseOrder, { ...order, number, totalAmount: '0' });
  for (const line of lines) {
    const amount = line.unitCost * BigInt(line.quantity);
    total += amount;
    em.create(PurchaseOrderLine, {
      purchaseOrderId: po.id,
      productId: line.productId,
      quantity: line.quantity,
      unitCost: fromMinor(line.unitCost, order.currency),
      amount: fromMinor(amount, order.currency),
      currency: order.currency,
    });
  }
  po.totalAmount = fromMinor(total, order.currency);
  return po;
}

/**
 * Drafts purchase orders for items at or below their reorder level (of `facilities`, or every facility when null),
 * to each item's preferred supplier (the product's own when none is set), one order per facility, supplier and
 * currency. An item an open (draft or approved) purchase order already asks for gets none: the items are locked
 * first, so two runs at once (the endpoint and the scheduled job) take turns and the second sees the first's orders.
 */
export async function draftReorders(
  em: EntityManager,
  facilities: readonly string[] | null,
  actorId: string | null,
): Promise<ReorderResult> {
  const result: ReorderResult = { purchaseOrders: [], lowItems: 0, alreadyOnOrder: 0, skipped: 0 };
  if (facilities && !facilities.length) return result;
  const schema = em.config.get('schema');
  const tx = em.getTransactionContext();
  const low = await em
    .getConnection()
    .execute<{ id: string }[]>(
      `select id from "${schema}".inventory_items where reorder_level is not null and on_hand - reserved <= reorder_level` +
        (facilities ? ' and facility_id in (?)' : '') +
        ' order by id for update',
      facilities ? [[...facilities]] : [],
      'all',
      tx,
    );
  if (!low.length) return result;
  const items = await em.find(InventoryItem, { id: { $in: low.map((r) => r.id) } }, { refresh: true, orderBy: { id: 'asc' } });
  result.lowItems = items.length;
  const facilityIds = [...new Set(items.map((i) => i.facilityId))];
  const open = await em.getConnection().execute<{ product_id: string; facility_id: string }[]>(
    `select l.product_id, po.facility_id from "${schema}".purchase_order_lines l
       join "${schema}".purchase_orders po on po.id = l.purchase_order_id
       where po.status in (?) and po.facility_id in (?)`,
    [[...OPEN_PURCHASE_ORDER], facilityIds],
    'all',
    tx,
  );
  const onOrder = new Set(open.map((r) => `${r.facility_id}|${r.product_id}`));
  const products = new Map((await em.find(Product, { id: { $in: items.map((i) => i.productId) } })).map((p) => [p.id, p]));
  const supplierIds = [
    ...new Set(items.flatMap((i) => [i.preferredSupplierId, products.get(i.productId)?.supplierId]).filter((s): s is string => !!s)),
  ];
  const suppliers = new Map((await em.find(Supplier, { id: { $in: supplierIds }, active: true })).map((s) => [s.id, s]));

  const groups = new Map<string, { facilityId: string; supplierId: string; currency: string; lines: DraftLine[]; skus: string[] }>();
  for (const item of items) {
    if (onOrder.has(`${item.facilityId}|${item.productId}`)) {
      result.alreadyOnOrder++;
      continue;
    }
    const product = products.get(item.productId);
    const supplierId = item.preferredSupplierId ?? product?.supplierId;
    if (!product?.active || !supplierId || !suppliers.has(supplierId)) {
      result.skipped++;
      continue;
    }
    const quantity = item.reorderQuantity ?? Math.max(1, 2 * item.reorderLevel! - item.available);
    const key = `${item.facilityId}|${supplierId}|${product.currency}`;
    const group = groups.get(key) ?? { facilityId: item.facilityId, supplierId, currency: product.currency, lines: [], skus: [] };
    group.lines.push({ productId: product.id, quantity, unitCost: toMinor(product.priceAmount, product.currency) });
    group.skus.push(product.sku);
    groups.set(key, group);
  }
  for (const g of groups.values()) {
    const po = await writePurchaseOrder(
      em,
      {
        facilityId: g.facilityId,
        supplierId: g.supplierId,
        currency: g.currency,
        source: PurchaseOrderSource.reorder,
        notes: `Drafted by the reorder trigger: ${g.skus.join(', ')} at or below the reorder level`,
        createdBy: actorId,
      },
      g.lines,
    );
    result.purchaseOrders.push(po);
  }
  return result;
}

export class PurchaseOrderService {
  /** A draft purchase order (inventory writers of the facility); unit costs default to the catalogue's prices. */
  async create(ctx: SubgraphContext, input: CreatePurchaseOrderInput): Promise<PurchaseOrder> {
    const viewer = await requireFacility(ctx, input.facilityId, 'inventory:write');
    const issues: FieldIssue[] = [];
    if (!isUuid(input.supplierId)) issues.push({ field: 'supplierId', message: 'must be a supplier id' });
    const seen = new Set<string>();
    input.lines.forEach((line, i) => {
      if (!isUuid(line.productId)) issues.push({ field: `lines.${i}.productId`, message: 'must be a product id' });
      else if (seen.has(line.productId)) issues.push({ field: `lines.${i}.productId`, message: 'is on another line already' });
      seen.add(line.productId);
    });
    if (issues.length) throw errors.validation(issues);
    const supplier = await ctx.em.findOne(Supplier, { id: input.supplierId });
    if (!supplier) throw errors.invalidField('supplierId', 'must be a known supplier');
    if (!supplier.active) throw errors.invalidField('supplierId', 'must be an active supplier');
    const products = new Map((await ctx.em.find(Product, { id: { $in: [...seen] } })).map((p) => [p.id, p]));
    input.lines.forEach((line, i) => {
      if (!products.has(line.productId)) issues.push({ field: `lines.${i}.productId`, message: 'must be a known product' });
    });
    if (issues.length) throw errors.validation(issues);
    const currency = input.currency ?? products.get(input.lines[0].productId)!.currency;
    const lines = input.lines.map((line, i): DraftLine => {
      const product = products.get(line.productId)!;
      if (line.unitCost === undefined || line.unitCost === null) {
        if (product.currency !== currency) {
          issues.push({
            field: `lines.${i}.unitCost`,
            message: `is required: the product is priced in ${product.currency}, the order in ${currency}`,
          });
          return { productId: product.id, quantity: line.quantity, unitCost: 0n };
        }
        return { productId: product.id, quantity: line.quantity, unitCost: toMinor(product.priceAmount, currency) };
      }
      return { productId: product.id, quantity: line.quantity, unitCost: toMinor(line.unitCost, currency, `lines.${i}.unitCost`) };
    });
    if (issues.length) throw errors.validation(issues);
    return ctx.em.transactional((em) =>
      writePurchaseOrder(
        em,
        {
          facilityId: input.facilityId,
          supplierId: supplier.id,
          currency,
          source: PurchaseOrderSource.manual,
          notes: input.notes?.trim() ?? null,
          createdBy: viewer.userId,
        },
        lines,
      ),
    );
  }

  async list(ctx: SubgraphContext, args: PurchaseOrderListArgs): Promise<PageResult<PurchaseOrder>> {
    const scope = await facilityScope(ctx, args.facilityId, 'inventory:read');
    if (scope && !scope.length) return { items: [], total: 0, page: args.page, limit: args.limit };
    const where: FilterQuery<PurchaseOrder> = scope ? { facilityId: { $in: scope } } : {};
    if (args.supplierId !== undefined && args.supplierId !== null) {
      if (!isUuid(args.supplierId)) throw errors.invalidField('supplierId', 'must be a supplier id');
      where.supplierId = args.supplierId;
    }
    if (args.status) where.status = args.status;
    return paginate(ctx.em, PurchaseOrder, where, args);
  }

  async get(ctx: SubgraphContext, id: string): Promise<PurchaseOrder> {
    return this.readable(ctx, id);
  }

  /** The facility's administrator approves a draft; approving again is a 409. */
  async approve(ctx: SubgraphContext, id: string): Promise<PurchaseOrder> {
    const found = await this.readable(ctx, id);
    const viewer = requireOrgPermission(ctx.viewer, found.facilityId, 'purchase-orders:approve', HIDDEN);
    return lockedChange(ctx, PurchaseOrder, found.id, (_tx, po) => {
      po.status = PURCHASE_ORDER.next(po.status, 'approve');
      po.approvedBy = viewer.userId;
      po.approvedAt = clock.now();
    });
  }

  /** The goods of an approved order arrive: each line's units enter the facility's stock through the ledger. */
  async receive(ctx: SubgraphContext, id: string): Promise<PurchaseOrder> {
    const found = await this.readable(ctx, id);
    const viewer = requireOrgPermission(ctx.viewer, found.facilityId, 'inventory:write', HIDDEN);
    return lockedChange(ctx, PurchaseOrder, found.id, async (tx, po) => {
      po.status = PURCHASE_ORDER.next(po.status, 'receive');
      po.receivedBy = viewer.userId;
      po.receivedAt = clock.now();
      const lines = await tx.em.find(PurchaseOrderLine, { purchaseOrderId: po.id });
      const items = await ensureItems(
        tx.em,
        po.facilityId,
        lines.map((l) => l.productId),
      );
      for (const line of lines) {
        move(tx.em, items.get(line.productId)!, {
          reason: StockMovementReason.received,
          onHandChange: line.quantity,
          reservedChange: 0,
          purchaseOrderId: po.id,
          note: `purchase order ${po.number}`,
          actorId: viewer.userId,
        });
      }
    });
  }

  /** A draft or approved order is called off (inventory writers of the facility). */
  async cancel(ctx: SubgraphContext, id: string): Promise<PurchaseOrder> {
    const found = await this.readable(ctx, id);
    const viewer = requireOrgPermission(ctx.viewer, found.facilityId, 'inventory:write', HIDDEN);
    return lockedChange(ctx, PurchaseOrder, found.id, (_tx, po) => {
      po.status = PURCHASE_ORDER.next(po.status, 'cancel');
      po.cancelledBy = viewer.userId;
      po.cancelledAt = clock.now();
    });
  }

  /** Runs the reorder for one facility or every facility where the caller writes inventory. */
  async reorder(ctx: SubgraphContext, input: ReorderInput): Promise<ReorderResult> {
    const viewer = requireViewer(ctx.viewer);
    const scope =
      input.facilityId !== undefined && input.facilityId !== null
        ? (await requireFacility(ctx, input.facilityId, 'inventory:write'), [input.facilityId])
        : organizationsWith(viewer, 'inventory:write');
    return ctx.em.transactional((em) => draftReorders(em, scope, viewer.apiKey || viewer.system ? null : viewer.userId));
  }

  /** The lines of purchase orders, batched per request. */
  linesOf(ctx: SubgraphContext, po: PurchaseOrder): Promise<PurchaseOrderLine[] | null> {
    return ctx
      .loader<string, PurchaseOrderLine[]>('purchase-order-lines', async (ids) => {
        const rows = await ctx.em.find(
          PurchaseOrderLine,
          { purchaseOrderId: { $in: [...ids] } },
          { orderBy: { createdAt: 'asc', id: 'asc' } },
        );
        return ids.map((id) => rows.filter((r) => r.purchaseOrderId === id));
      })
      .load(po.id);
  }

  /** A purchase order of a facility where the caller reads inventory; 404 for anyone else. */
  private async readable(ctx: SubgraphContext, id: string): Promise<PurchaseOrder> {
    const viewer = requireViewer(ctx.viewer);
    const po = isUuid(id) ? await ctx.em.findOne(PurchaseOrder, { id }) : null;
    if (!po) throw errors.notFound(HIDDEN);
    requireOrgPermission(viewer, po.facilityId, 'inventory:read', HIDDEN);
    return po;
  }
}
