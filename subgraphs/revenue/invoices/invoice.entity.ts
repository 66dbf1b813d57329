import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal, MoneyField } from '../../../shared/money';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';

export enum InvoiceStatus {
  draft = 'draft',
  issued = 'issued',
  partially_paid = 'partially_paid',
  paid = 'paid',
  void = 'void',
}
registerEnumType(InvoiceStatus, {
  name: 'InvoiceStatus',
  description:
    'draft → issued → partially_paid → paid; a draft or issued invoice may be voided. A payment may settle a draft directly (paid at the desk).',
});

/**
 * issue: the invoice is sent to whoever pays it. pay_part: a payment leaves an amount due. settle: the amount due
 * reaches zero (written once: `paid` is final). void: cancelled before any payment.
 */
export const INVOICE = stateMachine<InvoiceStatus, 'issue' | 'pay_part' | 'settle' | 'void'>('invoice', {
  issue: { from: [InvoiceStatus.draft], to: InvoiceStatus.issued },
  pay_part: { from: [InvoiceStatus.draft, InvoiceStatus.issued, InvoiceStatus.partially_paid], to: InvoiceStatus.partially_paid },
  settle: { from: [InvoiceStatus.draft, InvoiceStatus.issued, InvoiceStatus.partially_paid], to: InvoiceStatus.paid },
  void: { from: [InvoiceStatus.draft, InvoiceStatus.issued], to: InvoiceStatus.void },
});

@ObjectType('InvoiceLine', { description: 'A line of an invoice: quantity × unit price, less its discount, plus its tax' })
export class InvoiceLine {
  @Field({ description: 'What was supplied' })
  description!: string;

  @Field(() => String, { nullable: true, description: 'Service or product code (CPT, HCPCS, ATC, a local tariff code)' })
  code?: string | null;

  @Field(() => Int, { description: 'How many' })
  quantity!: number;

  @MoneyField<InvoiceLine>({ currency: 'currency', description: 'Price of one, in the invoice currency' })
  unitPrice!: string;

  @MoneyField<InvoiceLine>({ currency: 'currency', description: 'quantity × unit price' })
  amount!: string;

  @MoneyField<InvoiceLine>({ currency: 'currency', description: 'Amount taken off the line' })
  discount!: string;

  @Field(() => Decimal, { description: 'Tax rate in percent ("16" for 16% VAT)' })
  taxRate!: string;

  @MoneyField<InvoiceLine>({
    currency: 'currency',
    description: "(amount − discount) × tax rate, rounded half-even to the currency's minor unit",
  })
  taxAmount!: string;

  @MoneyField<InvoiceLine>({ currency: 'currency', description: 'amount − discount + tax: what the line adds to the invoice total' })
  total!: string;

  /** The invoice's currency: not stored on the line, set when the invoice answers its lines. */
  currency?: string;
}

/** An invoice an organization issues to a patient or payer. */
@ObjectType('Invoice', { description: 'An invoice an organization issues to a patient or payer; every total is the sum of its lines' })
@Directive('@key(fields: "id")')
@Entity({ tableName: 'invoices' })
@Unique({ properties: ['organizationId', 'number'] })
export class Invoice extends BaseRecord {
  @Field(() => ID, { description: 'The organization issuing the invoice' })
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { nullable: true, description: 'The patient billed, if any' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field({ description: 'Invoice number, unique within the organization' })
  @Property({ type: 'text' })
  number!: string;

  @Field(() => InvoiceStatus, { description: 'draft, issued, partially_paid, paid or void' })
  @Enum({ items: () => InvoiceStatus })
  status: Opt<InvoiceStatus> = InvoiceStatus.draft;

  @Field({ description: 'ISO 4217 currency code' })
  @Property({ type: 'text' })
  currency!: string;

  @Field(() => [InvoiceLine], { description: 'The lines (1 to 200)' })
  @Property({ type: 'jsonb' })
  items: Opt<InvoiceLine[]> = [];

  @MoneyField<Invoice>({ currency: 'currency', description: "Sum of the lines' amounts (quantity × unit price)" })
  @Property({ type: 'decimal', columnType: 'numeric' })
  subtotal!: string;

  @MoneyField<Invoice>({ currency: 'currency', description: "Sum of the lines' discounts" })
  @Property({ type: 'decimal', columnType: 'numeric' })
  discountTotal!: string;

  @MoneyField<Invoice>({ currency: 'currency', description: "Sum of the lines' taxes" })
  @Property({ type: 'decimal', columnType: 'numeric' })
  taxTotal!: string;

  @MoneyField<Invoice>({ currency: 'currency', description: "Sum of the lines' totals: subtotal − discounts + taxes" })
  @Property({ type: 'decimal', columnType: 'numeric' })
  totalAmount!: string;

  @MoneyField<Invoice>({ currency: 'currency', description: 'Paid so far' })
  @Property({ type: 'decimal', columnType: 'numeric' })
  amountPaid!: string;

  @Field(() => ID, { nullable: true, description: 'The insurance claim this invoice belongs to (the insurer bills the rest)' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  claimId?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'Due date, YYYY-MM-DD' })
  @Property({ type: 'date', nullable: true })
  dueDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Free text for whoever pays' })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { description: 'Who created it' })
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => Date, { nullable: true, description: 'When it was issued' })
  @Property({ type: 'timestamptz', nullable: true })
  issuedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the amount due reached zero' })
  @Property({ type: 'timestamptz', nullable: true })
  paidAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was voided' })
  @Property({ type: 'timestamptz', nullable: true })
  voidedAt?: Date | null;
}
