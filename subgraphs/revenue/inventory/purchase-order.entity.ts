import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { Money, MoneyField } from '../../../shared/money';
import { stateMachine } from '../../../shared/state-machine';

export enum PurchaseOrderStatus {
  draft = 'draft',
  approved = 'approved',
  received = 'received',
  cancelled = 'cancelled',
}
registerEnumType(PurchaseOrderStatus, {
  name: 'PurchaseOrderStatus',
  description: 'draft → approved → received; cancelled before receipt',
});

/**
 * approve: the facility's administrator approves a draft (once). receive: the goods of an approved order arrive and
 * their units enter the stock ledger. cancel: a draft or approved order is called off.
 */
export const PURCHASE_ORDER = stateMachine<PurchaseOrderStatus, 'approve' | 'receive' | 'cancel'>('purchase order', {
  approve: { from: [PurchaseOrderStatus.draft], to: PurchaseOrderStatus.approved },
  receive: { from: [PurchaseOrderStatus.approved], to: PurchaseOrderStatus.received },
  cancel: { from: [PurchaseOrderStatus.draft, PurchaseOrderStatus.approved], to: PurchaseOrderStatus.cancelled },
});

/** Orders still to arrive: a reorder drafts none for a product one of these already asks for. */
export const OPEN_PURCHASE_ORDER = [PurchaseOrderStatus.draft, PurchaseOrderStatus.approved] as const;

export enum PurchaseOrderSource {
  manual = 'manual',
  reorder = 'reorder',
}
registerEnumType(PurchaseOrderSource, {
  name: 'PurchaseOrderSource',
  description: 'Written by a person, or drafted by the reorder trigger',
});

/** An order a facility places with a supplier. */
@ObjectType('PurchaseOrder', { description: 'An order a facility places with a supplier' })
@Entity({ tableName: 'purchase_orders' })
@Unique({ properties: ['facilityId', 'number'] })
@Index({ properties: ['facilityId', 'status'] })
export class PurchaseOrder extends BaseRecord {
  @Field(() => ID, { description: 'The facility (an organization) buying' })
  @Property({ type: 'uuid' })
  facilityId!: string;

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  supplierId!: string;

  @Field({ description: 'PO-000001 onwards, per facility' })
  @Property({ type: 'text' })
  number!: string;

  @Field(() => PurchaseOrderStatus)
  @Enum({ items: () => PurchaseOrderStatus })
  status: Opt<PurchaseOrderStatus> = PurchaseOrderStatus.draft;

  @Field(() => PurchaseOrderSource)
  @Enum({ items: () => PurchaseOrderSource })
  source: Opt<PurchaseOrderSource> = PurchaseOrderSource.manual;

  @Field({ description: 'ISO 4217 currency of every line' })
  @Property({ type: 'text' })
  currency!: string;

  /** The sum of the lines; GraphQL answers `total`. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  totalAmount!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who wrote it; null when the reorder job drafted it' })
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  approvedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  approvedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  receivedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  receivedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => Money, { description: 'The sum of the lines' })
  get total(): Opt<Money> {
    return { amount: this.totalAmount, currencyCode: this.currency };
  }
}

/** A line of a purchase order: a product, how many, at what unit cost (decimals in the order's currency, as invoice lines). */
@ObjectType('PurchaseOrderLine', { description: 'A product, quantity and unit cost of a purchase order' })
@Entity({ tableName: 'purchase_order_lines' })
@Unique({ properties: ['purchaseOrderId', 'productId'] })
export class PurchaseOrderLine extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  purchaseOrderId!: string;

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  productId!: string;

  @Field(() => Int)
  @Property({ type: 'integer', check: 'quantity > 0' })
  quantity!: number;

  @MoneyField<PurchaseOrderLine>({ currency: 'currency', description: "Cost of one unit, in the purchase order's currency" })
  @Property({ type: 'decimal', columnType: 'numeric' })
  unitCost!: string;

  @MoneyField<PurchaseOrderLine>({ currency: 'currency', description: "quantity × unit cost, in the purchase order's currency" })
  @Property({ type: 'decimal', columnType: 'numeric' })
  amount!: string;

  @Field({ description: "ISO 4217 currency (the purchase order's)" })
  @Property({ type: 'text' })
  currency!: string;
}
