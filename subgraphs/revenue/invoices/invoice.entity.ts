import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../../shared/money';
import { BaseRecord } from '../../../shared/model';

export enum InvoiceStatus {
  draft = 'draft',
  issued = 'issued',
  paid = 'paid',
  void = 'void',
}
registerEnumType(InvoiceStatus, { name: 'InvoiceStatus' });

@ObjectType('InvoiceLine')
export class InvoiceLine {
  @Field()
  description!: string;

  @Field(() => Int)
  quantity!: number;

  @Field(() => Decimal)
  unitPrice!: string;

  @Field(() => Decimal, { description: 'quantity × unit price' })
  amount!: string;
}

/** An invoice an organization issues to a patient or payer. */
@ObjectType('Invoice')
@Directive('@key(fields: "id")')
@Entity({ tableName: 'invoices' })
@Unique({ properties: ['organizationId', 'number'] })
export class Invoice extends BaseRecord {
  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { nullable: true })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  patientId?: string | null;

  @Field({ description: 'Invoice number, unique within the organization' })
  @Property({ type: 'text' })
  number!: string;

  @Field(() => InvoiceStatus)
  @Enum({ items: () => InvoiceStatus })
  status: Opt<InvoiceStatus> = InvoiceStatus.draft;

  @Field({ description: 'ISO 4217 currency code' })
  @Property({ type: 'text' })
  currency!: string;

  @Field(() => [InvoiceLine])
  @Property({ type: 'jsonb' })
  items: Opt<InvoiceLine[]> = [];

  @Field(() => Decimal)
  @Property({ type: 'decimal', precision: 14, scale: 2 })
  totalAmount!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  @Property({ type: 'date', nullable: true })
  dueDate?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  createdBy!: string;
}
