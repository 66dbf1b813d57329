import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { emitEvent } from '../../../shared/outbox';
import { STOCK_LOW } from './inventory.events';
import { InventoryItem, StockMovement, StockMovementReason } from './stock.entity';

/**
 * The stock ledger, written once. Every change of an item's counts goes through `move`, which writes the ledger row
 * with the change in the same transaction, on a row locked (`SELECT ... FOR UPDATE`) beforehand: two changes of one
 * item run one after the other, each seeing the other's result, so concurrent orders never oversell. Items are always
 * locked in id order, so two orders taking the same items cannot deadlock.
 */

/** A change of stock: what moved, why and for what. */
export interface Movement {
  reason: StockMovementReason;
  onHandChange: number;
  reservedChange: number;
  orderId?: string | null;
  purchaseOrderId?: string | null;
  note?: string | null;
  /** Who made it; null for the platform. */
  actorId: string | null;
}

/** A line of stock wanted: a product and its units. */
export interface StockLine {
  productId: string;
  quantity: number;
  /** How the product is named in a refusal ("Amoxicillin 500 mg (AMX-500)"). */
  label: string;
}

const schemaOf = (em: EntityManager) => em.config.get('schema');

/** The items of a facility for these products, locked for update in id order; keyed by product. */
export async function lockItems(em: EntityManager, facilityId: string, productIds: readonly string[]): Promise<Map<string, InventoryItem>> {
  const items = await em.find(
    InventoryItem,
    { facilityId, productId: { $in: [...new Set(productIds)] } },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
  );
  return new Map(items.map((i) => [i.productId, i]));
}

/** Makes sure the facility has an item (0 on hand) for each product, then locks them. */
export async function ensureItems(
  em: EntityManager,
  facilityId: string,
  productIds: readonly string[],
): Promise<Map<string, InventoryItem>> {
  const ids = [...new Set(productIds)];
  if (ids.length) {
    const now = clock.now();
    const values = ids.map(() => '(?, ?, ?, ?, ?, 0, 0)').join(', ');
    const params = ids.flatMap((productId) => [randomUUID(), now, now, facilityId, productId]);
    await em.getConnection().execute(
      `insert into "${schemaOf(em)}".inventory_items (id, created_at, updated_at, facility_id, product_id, on_hand, reserved)
       values ${values} on conflict (facility_id, product_id) do nothing`,
      params,
      'run',
      em.getTransactionContext(),
    );
  }
  return lockItems(em, facilityId, ids);
}

/**
 * Applies a change to a locked item and writes its ledger row. Callers refuse impossible changes first with a
 * message a person understands; this refuses them anyway (409), and the database's checks would too.
 */
export function move(em: EntityManager, item: InventoryItem, movement: Movement): StockMovement {
  const onHand = item.onHand + movement.onHandChange;
  const reserved = item.reserved + movement.reservedChange;
  if (onHand < 0 || reserved < 0 || reserved > onHand) {
    throw errors.conflict(`Stock cannot go below zero: ${item.onHand} on hand, ${item.reserved} reserved`);
  }
  item.onHand = onHand;
  item.reserved = reserved;
  const row = em.create(StockMovement, {
    inventoryItemId: item.id,
    facilityId: item.facilityId,
    productId: item.productId,
    reason: movement.reason,
    onHandChange: movement.onHandChange,
    reservedChange: movement.reservedChange,
    onHandAfter: onHand,
    reservedAfter: reserved,
    orderId: movement.orderId ?? null,
    purchaseOrderId: movement.purchaseOrderId ?? null,
    note: movement.note ?? null,
    createdBy: movement.actorId,
  });
  markLowStock(em, item);
  return row;
}

/**
 * Keeps `lowStockSince` true to the counts: set, with a `svc.inventory.stock_low` event, when available stock falls
 * to or below the reorder level; cleared when it rises above. Called after every change of counts or reorder level.
 */
export function markLowStock(em: EntityManager, item: InventoryItem): void {
  const low = item.reorderLevel !== null && item.reorderLevel !== undefined && item.available <= item.reorderLevel;
  if (low && !item.lowStockSince) {
    item.lowStockSince = clock.now();
    emitEvent(em, 'revenue', STOCK_LOW, {
      inventory_item_id: item.id,
      organization_id: item.facilityId,
      product_id: item.productId,
      on_hand: item.onHand,
      available: item.available,
      reorder_level: item.reorderLevel!,
    });
  } else if (!low && item.lowStockSince) {
    item.lowStockSince = null;
  }
}

/** Sums lines of the same product, so a product named twice is checked and moved once. */
function merged(lines: readonly StockLine[]): StockLine[] {
  const byProduct = new Map<string, StockLine>();
  for (const line of lines) {
    const seen = byProduct.get(line.productId);
    byProduct.set(line.productId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...byProduct.values()];
}

/** Holds units of each line for an order; 409 when the facility does not have them available. */
export async function reserve(
  em: EntityManager,
  facilityId: string,
  lines: readonly StockLine[],
  orderId: string,
  actorId: string | null,
): Promise<void> {
  const wanted = merged(lines);
  const items = await lockItems(
    em,
    facilityId,
    wanted.map((l) => l.productId),
  );
  for (const line of wanted) {
    const item = items.get(line.productId);
    const available = item?.available ?? 0;
    if (!item || available < line.quantity) {
      throw errors.conflict(`Not enough stock of ${line.label} at this facility: ${available} available, ${line.quantity} ordered`);
    }
  }
  for (const line of wanted) {
    move(em, items.get(line.productId)!, {
      reason: StockMovementReason.reserved,
      onHandChange: 0,
      reservedChange: line.quantity,
      orderId,
      actorId,
    });
  }
}

/** Gives an order's reserved units back (the order was cancelled). */
export function release(em: EntityManager, facilityId: string, lines: readonly StockLine[], orderId: string, actorId: string | null) {
  return settleReserved(em, facilityId, lines, orderId, actorId, StockMovementReason.released, false);
}

/** Takes an order's reserved units out of stock (the order was delivered). */
export function consume(em: EntityManager, facilityId: string, lines: readonly StockLine[], orderId: string, actorId: string | null) {
  return settleReserved(em, facilityId, lines, orderId, actorId, StockMovementReason.delivered, true);
}

/** Ends an order's reservation: the units go back (released) or leave the stock with it (delivered). */
async function settleReserved(
  em: EntityManager,
  facilityId: string,
  lines: readonly StockLine[],
  orderId: string,
  actorId: string | null,
  reason: StockMovementReason,
  leavesStock: boolean,
): Promise<void> {
  const held = merged(lines);
  const items = await lockItems(
    em,
    facilityId,
    held.map((l) => l.productId),
  );
  for (const line of held) {
    const item = items.get(line.productId);
    if (!item) throw new Error(`order ${orderId} holds ${line.productId}, which the facility has no item for`);
    move(em, item, { reason, onHandChange: leavesStock ? -line.quantity : 0, reservedChange: -line.quantity, orderId, actorId });
  }
}

/** Stock of a product available at facilities other than `excluded`: at least `quantity` units, for emergency routing. */
export async function facilitiesHolding(
  em: EntityManager,
  productIds: readonly string[],
  quantity: number,
  excluded: readonly string[],
): Promise<{ facilityId: string; productId: string; available: number }[]> {
  if (!productIds.length) return [];
  const qb = em
    .createQueryBuilder(InventoryItem, 'i')
    .select('*')
    .where({ productId: { $in: [...productIds] } })
    .andWhere('i.on_hand - i.reserved >= ?', [quantity]);
  if (excluded.length) qb.andWhere({ facilityId: { $nin: [...excluded] } });
  const items = await qb.orderBy({ id: 'asc' }).getResultList();
  // The best holding per facility (one facility may stock several catalogues' versions of one item).
  const best = new Map<string, { facilityId: string; productId: string; available: number }>();
  for (const item of items) {
    const seen = best.get(item.facilityId);
    if (!seen || item.available > seen.available)
      best.set(item.facilityId, { facilityId: item.facilityId, productId: item.productId, available: item.available });
  }
  return [...best.values()];
}
