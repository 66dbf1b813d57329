import { ArrayMaxSize, ArrayMinSize, Max, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsCalendarDate, IsCurrency, IsMoney, IsText } from '../../../shared/validation';
import { Invoice, InvoiceStatus } from './invoice.entity';

@InputType()
export class InvoiceLineInput {
  @Field()
  @IsText(300)
  description!: string;

  @Field(() => Int, { defaultValue: 1 })
  @Min(1, { message: 'must be at least 1' })
  @Max(100000, { message: 'must be at most 100000' })
  quantity: number = 1;

  @Field(() => Decimal)
  @IsMoney()
  unitPrice!: string;
}

@InputType()
export class CreateInvoiceInput {
  @Field(() => ID, { nullable: true })
  patientId?: string;

  @Field({ description: 'ISO 4217 code such as KES' })
  @IsCurrency()
  currency!: string;

  @Field(() => [InvoiceLineInput])
  @ArrayMinSize(1, { message: 'must have at least one line' })
  @ArrayMaxSize(200, { message: 'must have at most 200 lines' })
  @ValidateNested()
  items!: InvoiceLineInput[];

  @Field({ nullable: true, description: 'YYYY-MM-DD' })
  @IsCalendarDate()
  dueDate?: string;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

@ArgsType()
export class InvoiceListArgs extends PageArgs {
  @Field(() => InvoiceStatus, { nullable: true })
  status?: InvoiceStatus;
}

@ObjectType()
export class InvoicePage extends PageOf(Invoice) {}
