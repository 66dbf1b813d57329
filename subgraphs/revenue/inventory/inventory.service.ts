import type { FilterQuery } from '@mikro-orm/core';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid, paginate, type PageArgs, type PageResult } from '../../../shared/model';
import { can } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { facilityScope, requireFacility } from './access';
import {
  StockCountOutcome,
  type AdjustStockInput,
  type InventoryListArgs,
  type InventorySyncResult,
  type StockCountInput,
  type StockCountResult,
  type SyncInventoryInput,
} from './inventory.types';
import { Product } from './product.entity';
import { ADJUSTMENT_REASONS, InventoryItem, StockMovement, StockMovementReason, type AdjustmentReason } from './stock.entity';
import { ensureItems, lockItems, markLowStock, move } from './stock';
import { Supplier } from './supplier.entity';

const label = (p: Product) => `${p.name} (${p.sku})`;

/** The settings an adjustment or a count may also set on an item. */
type Settings = Pick<StockCountInput, 'reorderLevel' | 'reorderQuantity' | 'preferredSupplierId' | 'batchNumber' | 'expiryDate'>;

/** Sets what is given; the caller then moves stock (which checks for low stock) or calls markLowStock itself. */
function applySettings(item: InventoryItem, settings: Settings): void {
  if (settings.reorderLevel !== undefined && settings.reorderLevel !== null) item.reorderLevel = settings.reorderLevel;
  if (settings.reorderQuantity !== undefined && settings.reorderQuantity !== null) item.reorderQuantity = settings.reorderQuantity;
  if (settings.preferredSupplierId) item.preferredSupplierId = settings.preferredSupplierId;
  if (settings.batchNumber) item.batchNumber = settings.batchNumber.trim();
  if (settings.expiryDate) item.expiryDate = settings.expiryDate;
}

export class InventoryService {
  /** Stock of one facility, or of every facility where the caller reads inventory. */
  async list(ctx: SubgraphContext, args: InventoryListArgs): Promise<PageResult<InventoryItem>> {
    return this.page(ctx, args, {});
  }

  /** Items whose available stock is at or below their reorder level, longest low first. */
  async lowStock(ctx: SubgraphContext, args: InventoryListArgs): Promise<PageResult<InventoryItem>> {
    return this.page(ctx, args, { lowStockSince: { $ne: null } }, { lowStockSince: 'asc', id: 'asc' });
  }

  /**
   * A signed change of on hand with its reason (inventory writers of the facility). Taking away more than is
   * available (on hand less what open orders hold) is a 409; the item is created by the first receipt.
   */
  async adjust(ctx: SubgraphContext, input: AdjustStockInput): Promise<InventoryItem> {
    const viewer = await requireFacility(ctx, input.facilityId, 'inventory:write');
    const reason = input.reason as AdjustmentReason;
    const issues: FieldIssue[] = [];
    if (!isUuid(input.productId)) issues.push({ field: 'productId', message: 'must be a product id' });
    if (input.quantity === 0) issues.push({ field: 'quantity', message: 'must not be 0' });
    const sign = ADJUSTMENT_REASONS[reason];
    if (sign === 'positive' && input.quantity < 0) issues.push({ field: 'quantity', message: `must be positive for ${reason}` });
    if (sign === 'negative' && input.quantity > 0) issues.push({ field: 'quantity', message: `must be negative for ${reason}` });
    if (issues.length) throw errors.validation(issues);
    const product = await this.product(ctx, input.productId, 'productId');
    await this.checkSupplier(ctx, input.preferredSupplierId, 'preferredSupplierId');
    return ctx.em.transactional(async (em) => {
      const items =
        input.quantity > 0 ? await ensureItems(em, input.facilityId, [product.id]) : await lockItems(em, input.facilityId, [product.id]);
      const item = items.get(product.id);
      const available = item?.available ?? 0;
      if (!item || -input.quantity > available) {
        throw errors.conflict(
          `Cannot take ${-input.quantity} of ${label(product)}: only ${available} available` +
            (item?.reserved ? ` (${item.onHand} on hand, ${item.reserved} held for orders)` : ''),
        );
      }
      // Settings first, then the move, which checks for low stock against the new level and the new counts.
      applySettings(item, input);
      move(em, item, {
        reason: reason as unknown as StockMovementReason,
        onHandChange: input.quantity,
        reservedChange: 0,
        note: input.note?.trim() ?? null,
        actorId: viewer.userId,
      });
      return item;
    });
  }

  /**
   * A stock count: each counted quantity replaces on hand, the difference written to the ledger as a count
   * correction. A count below what open orders hold is rejected for that product (the others are applied).
   */
  async sync(ctx: SubgraphContext, input: SyncInventoryInput): Promise<InventorySyncResult> {
    const viewer = await requireFacility(ctx, input.facilityId, 'inventory:write');
    const issues: FieldIssue[] = [];
    const seen = new Set<string>();
    input.items.forEach((line, i) => {
      if (!isUuid(line.productId)) issues.push({ field: `items.${i}.productId`, message: 'must be a product id' });
      else if (seen.has(line.productId)) issues.push({ field: `items.${i}.productId`, message: 'is counted twice' });
      seen.add(line.productId);
      if (line.preferredSupplierId !== undefined && line.preferredSupplierId !== null && !isUuid(line.preferredSupplierId)) {
        issues.push({ field: `items.${i}.preferredSupplierId`, message: 'must be a supplier id' });
      }
    });
    if (issues.length) throw errors.validation(issues);
    const products = new Map((await ctx.em.find(Product, { id: { $in: [...seen] } })).map((p) => [p.id, p]));
    const supplierIds = [...new Set(input.items.flatMap((l) => (l.preferredSupplierId ? [l.preferredSupplierId] : [])))];
    const suppliers = new Set((supplierIds.length ? await ctx.em.find(Supplier, { id: { $in: supplierIds } }) : []).map((s) => s.id));
    return ctx.em.transactional(async (em) => {
      const known = input.items
        .filter((l) => products.has(l.productId) && (!l.preferredSupplierId || suppliers.has(l.preferredSupplierId)))
        .map((l) => l.productId);
      const items = await ensureItems(em, input.facilityId, known);
      const results: StockCountResult[] = input.items.map((line) => {
        const rejected = (reason: string): StockCountResult => ({
          productId: line.productId,
          outcome: StockCountOutcome.rejected,
          difference: null,
          reason,
          item: null,
        });
        const product = products.get(line.productId);
        if (!product) return rejected('unknown product');
        if (line.preferredSupplierId && !suppliers.has(line.preferredSupplierId)) return rejected('unknown preferred supplier');
        const item = items.get(line.productId)!;
        if (line.quantity < item.reserved) {
          return {
            ...rejected(`counted ${line.quantity} but ${item.reserved} are held for open orders: count again or cancel orders first`),
            item,
          };
        }
        applySettings(item, line);
        const difference = line.quantity - item.onHand;
        if (difference === 0) {
          markLowStock(em, item);
          return { productId: line.productId, outcome: StockCountOutcome.unchanged, difference: 0, reason: null, item };
        }
        move(em, item, {
          reason: StockMovementReason.count_correction,
          onHandChange: difference,
          reservedChange: 0,
          note: line.note?.trim() ?? 'stock count',
          actorId: viewer.userId,
        });
        return { productId: line.productId, outcome: StockCountOutcome.adjusted, difference, reason: null, item };
      });
      const count = (o: StockCountOutcome) => results.filter((r) => r.outcome === o).length;
      return {
        facilityId: input.facilityId,
        adjusted: count(StockCountOutcome.adjusted),
        unchanged: count(StockCountOutcome.unchanged),
        rejected: count(StockCountOutcome.rejected),
        items: results,
      };
    });
  }

  /** The ledger of an item, newest first (whoever reads the item's facility inventory). */
  async movements(ctx: SubgraphContext, item: InventoryItem, args: PageArgs): Promise<PageResult<StockMovement>> {
    if (!can(ctx.viewer, 'inventory:read', item.facilityId)) return { items: [], total: 0, page: args.page, limit: args.limit };
    return paginate(ctx.em, StockMovement, { inventoryItemId: item.id }, args, { createdAt: 'desc', id: 'desc' });
  }

  private async page(
    ctx: SubgraphContext,
    args: InventoryListArgs,
    extra: Record<string, unknown>,
    orderBy: Record<string, 'asc' | 'desc'> = { createdAt: 'desc', id: 'asc' },
  ): Promise<PageResult<InventoryItem>> {
    const scope = await facilityScope(ctx, args.facilityId, 'inventory:read');
    if (scope && !scope.length) return { items: [], total: 0, page: args.page, limit: args.limit };
    const where: Record<string, unknown> = { ...extra, ...(scope ? { facilityId: { $in: scope } } : {}) };
    if (args.productId !== undefined && args.productId !== null) {
      if (!isUuid(args.productId)) throw errors.invalidField('productId', 'must be a product id');
      where.productId = args.productId;
    }
    return paginate(ctx.em, InventoryItem, where as FilterQuery<InventoryItem>, args, orderBy as never);
  }

  private async product(ctx: SubgraphContext, id: string, field: string): Promise<Product> {
    const product = await ctx.em.findOne(Product, { id });
    if (!product) throw errors.invalidField(field, 'must be a known product');
    return product;
  }

  private async checkSupplier(ctx: SubgraphContext, id: string | undefined | null, field: string): Promise<void> {
    if (id === undefined || id === null) return;
    if (!isUuid(id) || !(await ctx.em.count(Supplier, { id }))) throw errors.invalidField(field, 'must be a known supplier');
  }
}
