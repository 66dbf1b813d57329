import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ClinicalField } from '../../../shared/clinical';
import { BaseRecord } from '../../../shared/model';
import { Money, MoneyField } from '../../../shared/money';
import { stateMachine } from '../../../shared/state-machine';

export enum SupplyOrderStatus {
  pending = 'pending',
  verified = 'verified',
  paid = 'paid',
  packed = 'packed',
  dispatched = 'dispatched',
  delivered = 'delivered',
  cancelled = 'cancelled',
}
registerEnumType(SupplyOrderStatus, {
  name: 'SupplyOrderStatus',
  description: 'pending → verified → paid → packed → dispatched → delivered; cancelled from pending or verified',
});

export type SupplyOrderAction = 'verify' | 'pay' | 'pack' | 'dispatch' | 'deliver' | 'cancel';

/**
 * The life of a supply order, written once. verify: a pharmacist of the facility checks the order (prescription-only
 * items against a valid e-prescription of the patient). pay: the payment completed (mobile money) or was taken at
 * the counter. pack, dispatch: the facility prepares and sends it. deliver: the patient has it, from dispatch or
 * collected at the counter once packed; its units leave the stock. cancel: before payment only; the units it held
 * are released.
 */
export const SUPPLY_ORDER = stateMachine<SupplyOrderStatus, SupplyOrderAction>('supply order', {
  verify: { from: [SupplyOrderStatus.pending], to: SupplyOrderStatus.verified },
  pay: { from: [SupplyOrderStatus.verified], to: SupplyOrderStatus.paid },
  pack: { from: [SupplyOrderStatus.paid], to: SupplyOrderStatus.packed },
  dispatch: { from: [SupplyOrderStatus.packed], to: SupplyOrderStatus.dispatched },
  deliver: { from: [SupplyOrderStatus.packed, SupplyOrderStatus.dispatched], to: SupplyOrderStatus.delivered },
  cancel: { from: [SupplyOrderStatus.pending, SupplyOrderStatus.verified], to: SupplyOrderStatus.cancelled },
});

/** States in which an order holds stock (reserved units): from creation until it is delivered or cancelled. */
export const HOLDING_STOCK: readonly SupplyOrderStatus[] = [
  SupplyOrderStatus.pending,
  SupplyOrderStatus.verified,
  SupplyOrderStatus.paid,
  SupplyOrderStatus.packed,
  SupplyOrderStatus.dispatched,
];

export enum SupplyOrderPaymentState {
  none = 'none',
  requested = 'requested',
  completed = 'completed',
}
registerEnumType(SupplyOrderPaymentState, {
  name: 'SupplyOrderPaymentState',
  description: 'none: not asked for; requested: a mobile money payment was started at checkout; completed: paid',
});

/** A line of a supply order, as it was when ordered (the catalogue may change later); amounts in the order's currency, as invoice lines. */
@ObjectType('SupplyOrderItem', { description: 'A product, quantity and price of a supply order' })
export class SupplyOrderItem {
  @Field(() => ID)
  productId!: string;

  @Field({ description: 'The SKU when ordered' })
  sku!: string;

  @Field({ description: 'The name when ordered' })
  name!: string;

  @Field({ description: 'Sold only against a valid e-prescription of the patient' })
  prescriptionOnly!: boolean;

  @Field(() => Int)
  quantity!: number;

  @MoneyField<SupplyOrderItem>({ currency: 'currency', description: "The price of one unit when ordered, in the order's currency" })
  unitPrice!: string;

  @MoneyField<SupplyOrderItem>({ currency: 'currency', description: "quantity × unit price, in the order's currency" })
  amount!: string;

  /** The order's currency, kept on each line too. */
  currency!: string;

  @Field(() => ID, { nullable: true, description: 'The e-prescription the pharmacist checked it against (prescription-only items)' })
  eprescriptionId?: string | null;
}

/** An order a patient (or someone for them) places with one facility. */
@ObjectType('SupplyOrder', { description: 'An order of medicines and supplies from one facility' })
@Entity({ tableName: 'supply_orders' })
@Unique({ properties: ['facilityId', 'number'] })
@Index({ properties: ['facilityId', 'createdAt'] })
export class SupplyOrder extends BaseRecord {
  @Field({ description: 'ORD-000001 onwards, per facility' })
  @Property({ type: 'text' })
  number!: string;

  @Field(() => ID, { description: 'The facility (an organization) selling' })
  @Property({ type: 'uuid' })
  facilityId!: string;

  @Field(() => ID, { description: 'Who placed it' })
  @Index()
  @Property({ type: 'uuid' })
  customerId!: string;

  @Field(() => ID, { nullable: true, description: 'The patient it is for (required for prescription-only items)' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => SupplyOrderStatus)
  @Enum({ items: () => SupplyOrderStatus })
  status: Opt<SupplyOrderStatus> = SupplyOrderStatus.pending;

  @Field(() => [SupplyOrderItem])
  @Property({ type: 'jsonb' })
  items!: SupplyOrderItem[];

  @Field({ description: 'ISO 4217 currency of every line' })
  @Property({ type: 'text' })
  currency!: string;

  /** The sum of the lines; GraphQL answers `total`. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  totalAmount!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  deliveryAddress?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { nullable: true, description: 'The pharmacist who verified it' })
  @Property({ type: 'uuid', nullable: true })
  verifiedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  verifiedAt?: Date | null;

  @ClinicalField(
    () => String,
    { description: "The pharmacist's notes on checking the order against the patient's prescriptions" },
    (o: SupplyOrder) => ({ organizationId: o.facilityId, patientId: o.patientId, readers: [o.customerId] }),
  )
  @Property({ type: 'text', nullable: true })
  verificationNotes?: string | null;

  @Field(() => SupplyOrderPaymentState)
  @Enum({ items: () => SupplyOrderPaymentState })
  paymentState: Opt<SupplyOrderPaymentState> = SupplyOrderPaymentState.none;

  @Field(() => String, {
    nullable: true,
    description: 'The mobile money provider asked at checkout, or "counter" for a payment taken in person',
  })
  @Property({ type: 'text', nullable: true })
  paymentProvider?: string | null;

  @Field(() => String, { nullable: true, description: "The payments module's id of the completed payment" })
  @Property({ type: 'text', nullable: true })
  paymentId?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  paidAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  packedAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  dispatchedAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  cancellationReason?: string | null;

  @Field(() => Money, { description: 'The sum of the lines' })
  get total(): Opt<Money> {
    return { amount: this.totalAmount, currencyCode: this.currency };
  }
}
