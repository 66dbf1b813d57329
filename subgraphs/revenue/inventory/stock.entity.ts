import { Check, Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';

/**
 * Why stock moved. The first five are the reasons of a manual adjustment; the others are written by the platform:
 * an order reserves, its cancellation releases, its delivery takes the units away; a purchase order received adds
 * them (as `received`, with the purchase order named).
 */
export enum StockMovementReason {
  received = 'received',
  dispensed = 'dispensed',
  damaged = 'damaged',
  expired = 'expired',
  count_correction = 'count_correction',
  reserved = 'reserved',
  released = 'released',
  delivered = 'delivered',
}
registerEnumType(StockMovementReason, {
  name: 'StockMovementReason',
  description:
    'Why stock moved: an adjustment (received, dispensed, damaged, expired, count_correction) or an order (reserved, released, delivered)',
});

/** The reasons a person may give to an adjustment, and the sign each allows. */
export const ADJUSTMENT_REASONS = {
  received: 'positive',
  dispensed: 'negative',
  damaged: 'negative',
  expired: 'negative',
  count_correction: 'either',
} as const;
export type AdjustmentReason = keyof typeof ADJUSTMENT_REASONS;
export const StockAdjustmentReason = enumOf(
  Object.keys(ADJUSTMENT_REASONS) as AdjustmentReason[],
  'StockAdjustmentReason',
  'Why a person adjusts stock: received (adds), dispensed, damaged or expired (remove), count_correction (either way)',
);

/**
 * What one facility holds of one product. `onHand` and `reserved` are never written except together with a ledger
 * row (StockMovement) carrying the change, so each is always the sum of its column in the ledger; the database
 * refuses a negative count or more reserved than on hand.
 */
@ObjectType('InventoryItem', { description: 'The stock of one product at one facility' })
@Entity({ tableName: 'inventory_items' })
@Unique({ properties: ['facilityId', 'productId'] })
@Check({ name: 'inventory_items_reserved_within_on_hand', expression: 'reserved <= on_hand' })
export class InventoryItem extends BaseRecord {
  @Field(() => ID, { description: 'The facility (an organization) holding it' })
  @Index()
  @Property({ type: 'uuid' })
  facilityId!: string;

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  productId!: string;

  @Field(() => Int, { description: 'Units physically held: the sum of the ledger' })
  @Property({ type: 'integer', check: 'on_hand >= 0' })
  onHand: Opt<number> = 0;

  @Field(() => Int, { description: 'Units held for open orders' })
  @Property({ type: 'integer', check: 'reserved >= 0' })
  reserved: Opt<number> = 0;

  @Field(() => Int, { nullable: true, description: 'At or below this many available units the item is low on stock and is reordered' })
  @Property({ type: 'integer', nullable: true, check: 'reorder_level >= 0' })
  reorderLevel?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Units a reorder asks for; when unset, enough to bring available stock to twice the reorder level',
  })
  @Property({ type: 'integer', nullable: true, check: 'reorder_quantity > 0' })
  reorderQuantity?: number | null;

  @Field(() => ID, { nullable: true, description: "Whom reorders go to; the product's own supplier when unset" })
  @Property({ type: 'uuid', nullable: true })
  preferredSupplierId?: string | null;

  @Field(() => String, { nullable: true, description: 'Batch (lot) number of the stock, where given' })
  @Property({ type: 'text', nullable: true })
  batchNumber?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'Expiry date of the batch, where given' })
  @Property({ type: 'date', nullable: true })
  expiryDate?: string | null;

  @Field(() => Date, { nullable: true, description: 'Since when available stock has been at or below the reorder level (null: not low)' })
  @Property({ type: 'timestamptz', nullable: true })
  lowStockSince?: Date | null;

  @Field(() => Int, { description: 'On hand less reserved: what a new order may take' })
  get available(): Opt<number> {
    return this.onHand - this.reserved;
  }
}

/** One row of the stock ledger: a change of on hand and/or reserved units of an item, with why and by whom. */
@ObjectType('StockMovement', { description: 'A row of the stock ledger' })
@Entity({ tableName: 'stock_movements' })
@Index({ properties: ['inventoryItemId', 'createdAt'] })
export class StockMovement extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  inventoryItemId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  facilityId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  productId!: string;

  @Field(() => StockMovementReason)
  @Enum({ items: () => StockMovementReason })
  reason!: StockMovementReason;

  @Field(() => Int, { description: 'Change of on hand units (signed)' })
  @Property({ type: 'integer' })
  onHandChange!: number;

  @Field(() => Int, { description: 'Change of reserved units (signed)' })
  @Property({ type: 'integer' })
  reservedChange!: number;

  @Field(() => Int, { description: 'On hand after this row' })
  @Property({ type: 'integer' })
  onHandAfter!: number;

  @Field(() => Int, { description: 'Reserved after this row' })
  @Property({ type: 'integer' })
  reservedAfter!: number;

  @Field(() => ID, { nullable: true, description: 'The supply order that reserved, released or took the units' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The purchase order whose receipt added the units' })
  @Property({ type: 'uuid', nullable: true })
  purchaseOrderId?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  note?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who made the change; null for the platform (a scheduled job, a payment)' })
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null;
}
