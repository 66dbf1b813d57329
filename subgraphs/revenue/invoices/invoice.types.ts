import { ArrayMaxSize, ArrayMinSize, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsCalendarDate, IsCurrency, IsMoney, IsText } from '../../../shared/validation';
import { Invoice, InvoiceStatus } from './invoice.entity';

/** A tax rate in percent: 0 to 100 with at most 4 decimals ("16", "7.5"). */
export const PERCENT = /^(100(\.0{1,4})?|\d{1,2}(\.\d{1,4})?)$/;

@InputType({ description: 'A line of a new invoice' })
export class InvoiceLineInput {
  @Field({ description: 'What was supplied' })
  @IsText(300)
  description!: string;

  @Field({ nullable: true, description: 'Service or product code (CPT, HCPCS, ATC, a local tariff code)' })
  @IsText(40)
  code?: string;

  @Field(() => Int, { defaultValue: 1, description: 'How many, 1 to 100000' })
  @Min(1, { message: 'must be at least 1' })
  @Max(100000, { message: 'must be at most 100000' })
  quantity: number = 1;

  @Field(() => Decimal, { description: 'At most the invoice currency\'s ISO 4217 decimals: "150.00" GHS, "5000" UGX' })
  @IsMoney()
  unitPrice!: string;

  @Field(() => Decimal, { nullable: true, description: 'Amount taken off the line (at most quantity × unit price); default 0' })
  @IsMoney()
  discount?: string;

  @Field(() => Decimal, { nullable: true, description: 'Tax rate in percent, 0 to 100 ("16" for 16% VAT); default 0' })
  @Matches(PERCENT, { message: 'must be a percentage from 0 to 100, such as "16"' })
  taxRate?: string;
}

@InputType({ description: 'A new invoice' })
export class CreateInvoiceInput {
  @Field(() => ID, { nullable: true, description: 'The patient billed (a patient of the organization)' })
  patientId?: string;

  @Field({ description: 'ISO 4217 code such as KES' })
  @IsCurrency()
  currency!: string;

  @Field(() => [InvoiceLineInput], { description: 'The lines, 1 to 200' })
  @ArrayMinSize(1, { message: 'must have at least one line' })
  @ArrayMaxSize(200, { message: 'must have at most 200 lines' })
  @ValidateNested()
  items!: InvoiceLineInput[];

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD' })
  @IsCalendarDate()
  dueDate?: string;

  @Field({ nullable: true, description: 'Free text for whoever pays' })
  @IsText(2000)
  notes?: string;

  @Field(() => ID, {
    nullable: true,
    description: "The insurance claim this invoice belongs to (the organization's, for the same patient)",
  })
  claimId?: string;
}

@ArgsType()
export class InvoiceListArgs extends PageArgs {
  @Field(() => InvoiceStatus, { nullable: true, description: 'Only invoices in this state' })
  status?: InvoiceStatus;
}

@ArgsType()
export class RcmInvoiceListArgs extends InvoiceListArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's invoices (invoices:read there)" })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: "Only this patient's invoices" })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'Only invoices of this claim' })
  claimId?: string;
}

@ObjectType({ description: 'A page of invoices' })
export class InvoicePage extends PageOf(Invoice) {}
