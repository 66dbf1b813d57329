import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum PaymentMethod {
  cash = 'cash',
  card = 'card',
  bank_transfer = 'bank_transfer',
  mobile_money = 'mobile_money',
  insurance = 'insurance',
  cheque = 'cheque',
  other = 'other',
}
registerEnumType(PaymentMethod, {
  name: 'PaymentMethod',
  description: "How a payment was made; `insurance` is a payer's remittance for a claim",
});

/** A payment an organization received: recorded at the desk, a completed mobile money payment, a payer's remittance. */
@ObjectType('Payment', { description: 'A payment an organization received, against an invoice, a claim, or neither' })
@Entity({ tableName: 'payments' })
@Index({ properties: ['organizationId', 'receivedAt'] })
export class Payment extends BaseRecord {
  @Field(() => ID, { description: 'The organization that received it' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => PaymentMethod, { description: 'How it was paid' })
  @Enum({ items: () => PaymentMethod })
  method!: PaymentMethod;

  /** Decimal string in `currency`, above zero. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  amount!: string;

  @Field({ description: 'ISO 4217 currency' })
  @Property({ type: 'text' })
  currency!: string;

  @Field(() => ID, { nullable: true, description: 'The patient who paid or was paid for' })
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The invoice it paid' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  invoiceId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The claim it paid' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  claimId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The mobile money payment it came from' })
  @Property({ type: 'uuid', nullable: true })
  mobileMoneyPaymentId?: string | null;

  @Field(() => String, { nullable: true, description: 'Receipt, transaction or remittance reference' })
  @Property({ type: 'text', nullable: true })
  reference?: string | null;

  @Field(() => String, { nullable: true, description: 'Who paid (a person, an insurer)' })
  @Property({ type: 'text', nullable: true })
  payerName?: string | null;

  @Field(() => Date, { description: 'When the money was received' })
  @Property({ type: 'timestamptz' })
  receivedAt!: Date;

  @Field(() => ID, { nullable: true, description: 'Who recorded it; null when the platform did (mobile money, remittances)' })
  @Property({ type: 'uuid', nullable: true })
  recordedBy?: string | null;

  @Field(() => String, { nullable: true, description: 'Notes' })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;
}

export enum MobileMoneyProvider {
  mobile_money_a = 'mobile_money_a',
  mobile_money_b = 'mobile_money_b',
  mobile_money_c = 'mobile_money_c',
}
registerEnumType(MobileMoneyProvider, {
  name: 'MobileMoneyProvider',
  description:
    'mobile_money_a: shaped after M-Pesa Daraja STK push (Kenya); mobile_money_b: after MTN MoMo Collections request-to-pay; ' +
    'mobile_money_c: after Airtel Money collections. GraphQL enum values cannot hold a hyphen: the REST API, the events and ' +
    '`MobileMoneyPayment.providerName` write them mobile-money-a, mobile-money-b and mobile-money-c',
});

/**
 * A provider as the REST API, the events and the mail name it: `mobile-money-a` (GraphQL enum values cannot hold a
 * hyphen, so the graph's enum writes `mobile_money_a`).
 */
export function providerName(provider: MobileMoneyProvider): string {
  return provider.replace(/_/g, '-');
}

/** The provider a name stands for, in either spelling (`mobile-money-a` or `mobile_money_a`); null for none. */
export function providerOf(name: string): MobileMoneyProvider | null {
  const id = name.trim().toLowerCase().replace(/-/g, '_');
  return Object.values(MobileMoneyProvider).find((p) => p === id) ?? null;
}

/** Every provider by its REST name, for messages. */
export const PROVIDER_NAMES = Object.values(MobileMoneyProvider).map(providerName);

export enum MobileMoneyState {
  pending = 'pending',
  completed = 'completed',
  failed = 'failed',
  timeout = 'timeout',
}
registerEnumType(MobileMoneyState, {
  name: 'MobileMoneyState',
  description: 'pending → completed | failed | timeout; the first final answer wins',
});

/** complete / fail / time_out: the provider's (or the status job's) final answer; each only from pending, once. */
export const MOBILE_MONEY = stateMachine<MobileMoneyState, 'complete' | 'fail' | 'time_out'>('mobile money payment', {
  complete: { from: [MobileMoneyState.pending], to: MobileMoneyState.completed },
  fail: { from: [MobileMoneyState.pending], to: MobileMoneyState.failed },
  time_out: { from: [MobileMoneyState.pending], to: MobileMoneyState.timeout },
});

export enum PaymentPurpose {
  invoice = 'invoice',
  premium = 'premium',
  supply_order = 'supply_order',
}
registerEnumType(PaymentPurpose, {
  name: 'PaymentPurpose',
  description: 'What a mobile money payment pays: an invoice, an insurance premium (the policy), a supply order',
});

/** A mobile money collection: the customer approves it on their phone; the provider reports the outcome. */
@ObjectType('MobileMoneyPayment', {
  description: "A mobile money payment: requested to the customer's phone, then completed, failed or timed out",
})
@Entity({ tableName: 'mobile_money_payments' })
@Index({
  name: 'mobile_money_payments_one_pending_per_order',
  expression:
    'create unique index "mobile_money_payments_one_pending_per_order" on "revenue"."mobile_money_payments" ("order_key") where "state" = \'pending\'',
})
@Index({ properties: ['provider', 'providerReference'] })
@Index({ properties: ['state', 'createdAt'] })
export class MobileMoneyPayment extends BaseRecord {
  @Field({ description: "The order's reference as the client gave it (SPEC `order_id`)" })
  @Index()
  @Property({ type: 'text' })
  orderId!: string;

  /** What "one payment in flight per order" counts: the paid record (`invoice:<id>`), or the client's order per caller. */
  @Property({ type: 'text' })
  orderKey!: string;

  @Field(() => MobileMoneyProvider, { description: 'The provider' })
  @Enum({ items: () => MobileMoneyProvider })
  provider!: MobileMoneyProvider;

  @Field({ description: "The customer's phone, E.164" })
  @Property({ type: 'text' })
  phone!: string;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country of the phone number' })
  @Property({ type: 'text', nullable: true })
  country?: string | null;

  /** Decimal string in `currency`. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  amount!: string;

  @Field({ description: 'ISO 4217 currency' })
  @Property({ type: 'text' })
  currency!: string;

  @Field(() => String, { nullable: true, description: 'What the customer sees on the phone' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => MobileMoneyState, { description: 'pending, completed, failed or timeout' })
  @Enum({ items: () => MobileMoneyState })
  state: Opt<MobileMoneyState> = MobileMoneyState.pending;

  @Field(() => PaymentPurpose, { nullable: true, description: 'What it pays, when it pays a record of the platform' })
  @Enum({ items: () => PaymentPurpose, nullable: true })
  purposeType?: PaymentPurpose | null;

  @Field(() => ID, { nullable: true, description: 'The invoice, policy or supply order paid' })
  @Property({ type: 'uuid', nullable: true })
  purposeId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The organization paid, if any' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The patient paying or paid for, if known' })
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who initiated it; null when the platform did (a supply order checkout)' })
  @Property({ type: 'uuid', nullable: true })
  initiatedBy?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The provider's reference for the request (CheckoutRequestID, X-Reference-Id, transaction id)",
  })
  @Property({ type: 'text', nullable: true })
  providerReference?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the request reached the provider' })
  @Property({ type: 'timestamptz', nullable: true })
  requestedAt?: Date | null;

  @Field(() => String, { nullable: true, description: "The provider's receipt of a completed payment" })
  @Property({ type: 'text', nullable: true })
  receipt?: string | null;

  @Field(() => String, { nullable: true, description: 'Why it failed or timed out' })
  @Property({ type: 'text', nullable: true })
  failureReason?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it reached its final state' })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  /** The last time the status job asked the provider about it. */
  @Property({ type: 'timestamptz', nullable: true })
  lastCheckedAt?: Date | null;
}
