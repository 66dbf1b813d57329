import { ArrayMaxSize, ArrayMinSize, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import {
  IsCalendarDate,
  IsCountryCode,
  IsCurrency,
  IsEmailAddress,
  IsInRange,
  IsMoney,
  IsOneOf,
  IsPhone,
  IsText,
} from '../../../shared/validation';
import { MAX_CATALOG_ROWS } from './catalog';
import { Product } from './product.entity';
import { PurchaseOrder, PurchaseOrderStatus } from './purchase-order.entity';
import { ADJUSTMENT_REASONS, InventoryItem, StockAdjustmentReason, StockMovement } from './stock.entity';
import { Supplier } from './supplier.entity';

/* ---------- products and the catalogue ---------- */

@ArgsType()
export class ProductListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Case-insensitive match on the name, SKU, GTIN or active ingredient' })
  @IsText(100)
  search?: string;

  @Field({ nullable: true, description: 'Exact category, case-insensitive' })
  @IsText(100)
  category?: string;

  @Field({ nullable: true, description: 'Exact SKU' })
  @IsText(64)
  sku?: string;

  @Field({ nullable: true, description: 'Exact GTIN' })
  @IsText(14)
  gtin?: string;

  @Field({ nullable: true, description: 'Only prescription-only products (true) or only the others (false)' })
  prescriptionOnly?: boolean;

  @Field(() => ID, { nullable: true, description: "Only this supplier's catalogue" })
  supplierId?: string;

  @Field({ nullable: true, description: 'Only products that can be ordered (true, the default) or withdrawn ones (false)' })
  active?: boolean;
}

@ObjectType()
export class ProductPage extends PageOf(Product) {}

export enum CatalogFormat {
  json = 'json',
  csv = 'csv',
}
registerEnumType(CatalogFormat, { name: 'CatalogFormat', description: 'How a catalogue upload is written' });

@InputType({ description: "A supplier's catalogue: JSON rows in `products`, or CSV text (with a header line) in `csv`" })
export class SyncCatalogInput {
  @Field(() => ID, { description: 'The supplier whose catalogue this is' })
  supplierId!: string;

  @Field(() => CatalogFormat, { nullable: true, description: 'json when `products` is given, csv when `csv` is' })
  format?: CatalogFormat;

  @Field(() => [GraphQLJSON], {
    nullable: 'itemsAndList',
    description: `Up to ${MAX_CATALOG_ROWS} objects: sku, name, price, currency (required); category, gtin, unit, prescription_only, active_ingredient, description, supplier_quantity, active`,
  })
  products?: unknown[];

  @Field({ nullable: true, description: `CSV text with a header line naming the same columns; up to ${MAX_CATALOG_ROWS} rows` })
  csv?: string;
}

export enum CatalogRowOutcome {
  created = 'created',
  updated = 'updated',
  unchanged = 'unchanged',
  rejected = 'rejected',
}
registerEnumType(CatalogRowOutcome, { name: 'CatalogRowOutcome', description: 'What a catalogue row did' });

@ObjectType({ description: 'What one row of a catalogue upload did' })
export class CatalogRowResult {
  @Field(() => Int, { description: 'The CSV line, or the 1-based place in the JSON list' })
  row!: number;

  @Field(() => String, { nullable: true })
  sku!: string | null;

  @Field(() => CatalogRowOutcome)
  outcome!: CatalogRowOutcome;

  @Field(() => ID, { nullable: true, description: 'The product created, updated or unchanged' })
  productId!: string | null;

  @Field(() => [String], { description: 'Why the row was rejected, or which fields an update changed' })
  reasons!: string[];
}

@ObjectType({ description: 'What a catalogue sync did, in counts and row by row' })
export class CatalogSyncResult {
  @Field(() => ID)
  supplierId!: string;

  @Field(() => Int)
  created!: number;

  @Field(() => Int)
  updated!: number;

  @Field(() => Int)
  unchanged!: number;

  @Field(() => Int)
  rejected!: number;

  @Field(() => [CatalogRowResult], { description: 'Every row, in the order of the upload' })
  rows!: CatalogRowResult[];
}

/* ---------- suppliers ---------- */

@InputType({ description: 'The fields of a new supplier' })
export class CreateSupplierInput {
  @Field()
  @IsText(200)
  name!: string;

  @Field({ nullable: true })
  @IsEmailAddress()
  email?: string;

  @Field({ nullable: true, description: 'E.164, such as +254712345678' })
  @IsPhone()
  phone?: string;

  @Field({ nullable: true })
  @IsText(500)
  address?: string;

  @Field({ nullable: true })
  @IsText(100)
  city?: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 country code' })
  @IsCountryCode()
  country?: string;

  @Field(() => Float, { nullable: true, description: 'WGS 84 latitude in degrees, -90 to 90; given together with longitude' })
  @IsInRange(-90, 90, 'degrees')
  latitude?: number;

  @Field(() => Float, { nullable: true, description: 'WGS 84 longitude in degrees, -180 to 180; given together with latitude' })
  @IsInRange(-180, 180, 'degrees')
  longitude?: number;
}

@ArgsType()
export class SupplierListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Case-insensitive match on the name' })
  @IsText(100)
  search?: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 country code' })
  @IsCountryCode()
  country?: string;
}

@ObjectType()
export class SupplierPage extends PageOf(Supplier) {}

/* ---------- stock ---------- */

@ArgsType()
export class InventoryListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'One facility; without it, every facility where the caller reads inventory' })
  facilityId?: string;

  @Field(() => ID, { nullable: true, description: "Only this product's items; every product when omitted" })
  productId?: string;
}

@ObjectType()
export class InventoryItemPage extends PageOf(InventoryItem) {}

/** What an adjustment or a stock count may also set on the item. */
@InputType()
abstract class ItemSettings {
  @Field(() => Int, { nullable: true, description: 'At or below this many available units the item is low on stock and reordered' })
  @Min(0, { message: 'must not be negative' })
  @Max(10_000_000, { message: 'must be at most 10000000' })
  reorderLevel?: number;

  @Field(() => Int, { nullable: true, description: 'Units a reorder asks for' })
  @Min(1, { message: 'must be at least 1' })
  @Max(10_000_000, { message: 'must be at most 10000000' })
  reorderQuantity?: number;

  @Field(() => ID, { nullable: true, description: 'Whom reorders go to' })
  preferredSupplierId?: string;

  @Field({ nullable: true, description: 'Batch (lot) number' })
  @IsText(64)
  batchNumber?: string;

  @Field(() => LocalDate, {
    nullable: true,
    description: 'Expiry date of the batch, YYYY-MM-DD (a 400 naming the field when it is not a date)',
  })
  @IsCalendarDate()
  expiryDate?: string;
}

@InputType({ description: 'A signed change of the units on hand, with its reason' })
export class AdjustStockInput extends ItemSettings {
  @Field(() => ID)
  facilityId!: string;

  @Field(() => ID)
  productId!: string;

  @Field(() => Int, { description: 'Signed units: positive adds (received), negative removes (dispensed, damaged, expired); not 0' })
  @IsInRange(-10_000_000, 10_000_000)
  quantity!: number;

  @Field(() => StockAdjustmentReason, { description: `One of: ${Object.keys(ADJUSTMENT_REASONS).join(', ')}` })
  @IsOneOf(Object.keys(ADJUSTMENT_REASONS))
  reason!: string;

  @Field({ nullable: true })
  @IsText(500)
  note?: string;
}

@InputType({ description: 'A counted quantity of one product' })
export class StockCountInput extends ItemSettings {
  @Field(() => ID)
  productId!: string;

  @Field(() => Int, { description: 'Units counted on the shelf; replaces on hand' })
  @Min(0, { message: 'must not be negative' })
  @Max(10_000_000, { message: 'must be at most 10000000' })
  quantity!: number;

  @Field({ nullable: true })
  @IsText(500)
  note?: string;
}

@InputType({ description: 'A stock count of a facility: each counted quantity replaces on hand; the difference goes to the ledger' })
export class SyncInventoryInput {
  @Field(() => ID)
  facilityId!: string;

  @Field(() => [StockCountInput], { description: 'Up to 1000 products, each once' })
  @ArrayMinSize(1, { message: 'must have at least one item' })
  @ArrayMaxSize(1000, { message: 'must have at most 1000 items' })
  @ValidateNested()
  items!: StockCountInput[];
}

export enum StockCountOutcome {
  adjusted = 'adjusted',
  unchanged = 'unchanged',
  rejected = 'rejected',
}
registerEnumType(StockCountOutcome, { name: 'StockCountOutcome', description: 'What a counted quantity did' });

@ObjectType({ description: 'What one counted quantity did' })
export class StockCountResult {
  @Field(() => ID)
  productId!: string;

  @Field(() => StockCountOutcome)
  outcome!: StockCountOutcome;

  @Field(() => Int, { nullable: true, description: 'The change of on hand written to the ledger' })
  difference!: number | null;

  @Field(() => String, { nullable: true, description: 'Why it was rejected' })
  reason!: string | null;

  @Field(() => InventoryItem, { nullable: true, description: 'The item after the count' })
  item!: InventoryItem | null;
}

@ObjectType({ description: 'What a stock count did' })
export class InventorySyncResult {
  @Field(() => ID)
  facilityId!: string;

  @Field(() => Int)
  adjusted!: number;

  @Field(() => Int)
  unchanged!: number;

  @Field(() => Int)
  rejected!: number;

  @Field(() => [StockCountResult])
  items!: StockCountResult[];
}

@ObjectType()
export class StockMovementPage extends PageOf(StockMovement) {}

/* ---------- purchase orders ---------- */

@InputType({ description: 'One line of a purchase order: the product and quantity' })
export class PurchaseOrderLineInput {
  @Field(() => ID)
  productId!: string;

  @Field(() => Int)
  @Min(1, { message: 'must be at least 1' })
  @Max(10_000_000, { message: 'must be at most 10000000' })
  quantity!: number;

  @Field(() => Decimal, { nullable: true, description: "Cost of one unit in the products' currency; the catalogue price when omitted" })
  @IsMoney()
  unitCost?: string;
}

@InputType({ description: 'The new purchase order: the supplier, facility and lines' })
export class CreatePurchaseOrderInput {
  @Field(() => ID, { description: 'The facility buying' })
  facilityId!: string;

  @Field(() => ID)
  supplierId!: string;

  @Field(() => [PurchaseOrderLineInput], { description: 'Up to 200 lines, each product once, all priced in one currency' })
  @ArrayMinSize(1, { message: 'must have at least one line' })
  @ArrayMaxSize(200, { message: 'must have at most 200 lines' })
  @ValidateNested()
  lines!: PurchaseOrderLineInput[];

  @Field({ nullable: true, description: "ISO 4217; the products' currency when omitted" })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

@ArgsType()
export class PurchaseOrderListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'One facility; without it, every facility where the caller reads inventory' })
  facilityId?: string;

  @Field(() => ID, { nullable: true, description: "Only this supplier's orders; every supplier when omitted" })
  supplierId?: string;

  @Field(() => PurchaseOrderStatus, { nullable: true, description: 'Only orders in this status; every status when omitted' })
  status?: PurchaseOrderStatus;
}

@ObjectType()
export class PurchaseOrderPage extends PageOf(PurchaseOrder) {}

@InputType({ description: 'The facility whose low-stock items to reorder' })
export class ReorderInput {
  @Field(() => ID, { nullable: true, description: 'One facility; without it, every facility where the caller writes inventory' })
  facilityId?: string;
}

@ObjectType({ description: 'What a reorder run did' })
export class ReorderResult {
  @Field(() => [PurchaseOrder], { description: 'Purchase orders drafted, one per facility, supplier and currency' })
  purchaseOrders!: PurchaseOrder[];

  @Field(() => Int, { description: 'Items at or below their reorder level' })
  lowItems!: number;

  @Field(() => Int, { description: 'Of those, items an open purchase order already asks for' })
  alreadyOnOrder!: number;

  @Field(() => Int, { description: 'Of those, items with no active supplier or no active product to order' })
  skipped!: number;
}
