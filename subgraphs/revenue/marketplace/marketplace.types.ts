import { ArrayMaxSize, ArrayMinSize, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { PageArgs, PageOf } from '../../../shared/model';
import { Money } from '../../../shared/money';
import { IsInRange, IsPhone, IsText } from '../../../shared/validation';
import { SupplyOrder, SupplyOrderStatus } from './order.entity';

/* ---------- orders ---------- */

@InputType({ description: 'A product and how many units' })
export class SupplyOrderItemInput {
  @Field(() => ID)
  productId!: string;

  @Field(() => Int, { description: '1 to 10000 units' })
  @Min(1, { message: 'must be at least 1' })
  @Max(10_000, { message: 'must be at most 10000' })
  quantity!: number;
}

@InputType({ description: 'An order from one facility' })
export class CreateSupplyOrderInput {
  @Field(() => ID, { description: 'The facility (an active organization) selling' })
  facilityId!: string;

  @Field(() => [SupplyOrderItemInput], { description: 'Up to 100 lines, priced in one currency' })
  @ArrayMinSize(1, { message: 'must have at least one item' })
  @ArrayMaxSize(100, { message: 'must have at most 100 items' })
  @ValidateNested()
  items!: SupplyOrderItemInput[];

  @Field(() => ID, {
    nullable: true,
    description: "The patient it is for (one the caller may see); the caller's own patient profile when omitted",
  })
  patientId?: string;

  @Field({ nullable: true })
  @IsText(500)
  deliveryAddress?: string;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

@InputType({ description: 'A mobile money payment to start for the order' })
export class CheckoutPaymentInput {
  @Field({ description: 'The mobile money provider, as the payments module names it (such as mobile-money-a)' })
  @Matches(/^[a-z0-9][a-z0-9_-]{1,39}$/, { message: 'must be a provider name such as mobile-money-a' })
  provider!: string;

  @Field({ description: 'The payer, E.164 such as +254712345678' })
  @IsPhone()
  phone!: string;
}

@InputType({ description: 'A cart to turn into an order, with a mobile money payment when asked' })
export class CheckoutInput extends CreateSupplyOrderInput {
  @Field(() => CheckoutPaymentInput, {
    nullable: true,
    description: 'Start a mobile money payment for the order (omit to pay at the counter)',
  })
  @ValidateNested()
  payment?: CheckoutPaymentInput;
}

export const CheckoutPaymentState = enumOf(
  ['requested'],
  'CheckoutPaymentState',
  'Where the payment a checkout started is: requested (the payments module starts it)',
);

@ObjectType({ description: 'The payment a checkout started' })
export class CheckoutPayment {
  @Field(() => CheckoutPaymentState, {
    description: '"requested": the payments module starts it; follow it at /api/payments/mobile-money/status/:order_id',
  })
  state!: 'requested';

  @Field()
  provider!: string;

  @Field(() => ID, { description: "The supply order id, which is the payment's order id" })
  orderId!: string;

  @Field(() => Money)
  amount!: Money;
}

@ObjectType({ description: 'What a checkout did' })
export class CheckoutResult {
  @Field(() => SupplyOrder)
  order!: SupplyOrder;

  @Field(() => CheckoutPayment, { nullable: true, description: 'The payment requested, when one was asked for' })
  payment!: CheckoutPayment | null;
}

@ArgsType()
export class SupplyOrderListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "A facility's orders (its staff); without it, the caller's own orders" })
  facilityId?: string;

  @Field(() => ID, { nullable: true, description: "Only this patient's" })
  patientId?: string;

  @Field(() => SupplyOrderStatus, { nullable: true, description: 'Only orders in this status; every status when omitted' })
  status?: SupplyOrderStatus;
}

@ObjectType()
export class SupplyOrderPage extends PageOf(SupplyOrder) {}

@InputType({ description: 'The e-prescription a pharmacist checked a prescription-only item against' })
export class PrescriptionCoverInput {
  @Field(() => ID, { description: 'A prescription-only product of the order' })
  productId!: string;

  @Field(() => ID, { description: 'An e-prescription of the patient, transmitted to this facility' })
  eprescriptionId!: string;
}

@InputType({ description: "A pharmacist's check of an order" })
export class VerifySupplyOrderInput {
  @Field(() => [PrescriptionCoverInput], { nullable: true, description: 'One per prescription-only item (none when there are none)' })
  @ArrayMaxSize(100, { message: 'must have at most 100 items' })
  @ValidateNested()
  eprescriptions?: PrescriptionCoverInput[];

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

@ArgsType()
export class CancelSupplyOrderArgs {
  @Field(() => ID, { description: 'The order id' })
  id!: string;

  @Field({ nullable: true, description: 'Why it is cancelled' })
  @IsText(500)
  reason?: string;
}

/* ---------- emergency routing ---------- */

@InputType({ description: 'Stock wanted urgently near a place' })
export class EmergencyRoutingInput {
  @Field(() => ID, { description: 'The product; the same GTIN in other catalogues counts too' })
  productId!: string;

  @Field(() => Int, { description: 'Units needed, 1 to 100000' })
  @Min(1, { message: 'must be at least 1' })
  @Max(100_000, { message: 'must be at most 100000' })
  quantity!: number;

  @Field(() => Float, { description: 'WGS 84 latitude in degrees, -90 to 90' })
  @IsInRange(-90, 90, 'degrees')
  latitude!: number;

  @Field(() => Float, { description: 'WGS 84 longitude in degrees, -180 to 180' })
  @IsInRange(-180, 180, 'degrees')
  longitude!: number;

  @Field(() => Float, { nullable: true, description: 'Only sources within this many kilometres, up to 20000' })
  @IsInRange(0.1, 20_000, 'km')
  radiusKm?: number;

  @Field(() => ID, { nullable: true, description: "The caller's facility (left out, as every facility the caller belongs to is)" })
  facilityId?: string;

  @Field(() => Int, { nullable: true, description: 'At most this many sources, 1 to 100 (20)' })
  @Min(1, { message: 'must be at least 1' })
  @Max(100, { message: 'must be at most 100' })
  limit?: number;
}

export enum StockSourceKind {
  facility = 'facility',
  supplier = 'supplier',
}
registerEnumType(StockSourceKind, {
  name: 'StockSourceKind',
  description: 'A facility (its available stock) or a supplier (its catalogue stock)',
});

@ObjectType({ description: 'A place holding enough stock, and how far it is' })
export class StockSource {
  @Field(() => StockSourceKind)
  kind!: StockSourceKind;

  @Field(() => ID, { description: 'The facility (organization) or supplier id' })
  id!: string;

  @Field()
  name!: string;

  @Field(() => Float, { description: 'Great-circle distance from the place asked about, in kilometres' })
  distanceKm!: number;

  @Field(() => Int, { description: 'Units it holds available' })
  availableQuantity!: number;

  @Field(() => ID, { description: 'The product it holds (the one asked for, or one with the same GTIN)' })
  productId!: string;

  @Field(() => Float)
  latitude!: number;

  @Field(() => Float)
  longitude!: number;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { nullable: true })
  country!: string | null;
}

@ObjectType({ description: 'Where urgently needed stock can be found, nearest first' })
export class EmergencyRoutingResult {
  @Field(() => ID)
  productId!: string;

  @Field(() => Int)
  quantity!: number;

  @Field(() => Float)
  latitude!: number;

  @Field(() => Float)
  longitude!: number;

  @Field(() => [StockSource], { description: 'Facilities and suppliers holding at least the quantity, nearest first (at most `limit`)' })
  sources!: StockSource[];
}
