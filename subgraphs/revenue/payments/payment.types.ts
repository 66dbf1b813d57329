import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { Decimal } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsCurrency, IsMoney, IsNotFuture, IsPhone, IsText } from '../../../shared/validation';
import { MobileMoneyProvider, Payment, PaymentMethod } from './payment.entity';

@InputType({ description: 'A mobile money payment to start (SPEC: provider, phone, amount, currency, order_id, description)' })
export class InitiateMobileMoneyPaymentInput {
  @Field(() => MobileMoneyProvider, { description: 'One of the three providers' })
  provider!: MobileMoneyProvider;

  @Field({ description: "The customer's phone, E.164 (+254712345678), a number of one of the provider's countries" })
  @IsPhone()
  phone!: string;

  @Field(() => Decimal, { description: "Above zero, within the provider's limits, in the currency of the phone's country" })
  @IsMoney({ currencyField: 'currency' })
  amount!: string;

  @Field({ description: "ISO 4217 currency: the one the provider takes in the phone's country" })
  @IsCurrency()
  currency!: string;

  @Field({
    description:
      "What is paid: an invoice id or an insurance policy id (its premium) pays that record; any other reference is the client's own order",
  })
  @IsText(100)
  orderId!: string;

  @Field({ nullable: true, description: 'What the customer sees on the phone (up to 200 characters)' })
  @IsText(200)
  description?: string;
}

@InputType({ description: 'A payment the organization received, recorded by its staff' })
export class RecordPaymentInput {
  @Field(() => Decimal, { description: 'Above zero' })
  @IsMoney({ currencyField: 'currency' })
  amount!: string;

  @Field({ description: "ISO 4217 currency (the invoice's or claim's, when one is paid)" })
  @IsCurrency()
  currency!: string;

  @Field(() => PaymentMethod, { description: 'How it was paid' })
  method!: PaymentMethod;

  @Field(() => ID, { nullable: true, description: 'The invoice it pays (not more than its amount due)' })
  invoiceId?: string;

  @Field(() => ID, { nullable: true, description: 'The approved claim it pays (a payer paying by bank transfer, say)' })
  claimId?: string;

  @Field(() => ID, { nullable: true, description: 'The patient who paid, when no invoice names one' })
  patientId?: string;

  @Field({ nullable: true, description: 'Receipt or transaction reference' })
  @IsText(100)
  reference?: string;

  @Field({ nullable: true, description: 'Who paid' })
  @IsText(200)
  payerName?: string;

  @Field(() => Date, { nullable: true, description: 'When it was received (default now; not in the future)' })
  @IsNotFuture()
  receivedAt?: Date;

  @Field({ nullable: true, description: 'Notes' })
  @IsText(2000)
  notes?: string;
}

@ArgsType()
export class PaymentListArgs extends PageArgs {
  @Field(() => PaymentMethod, { nullable: true, description: 'Only payments made this way' })
  method?: PaymentMethod;

  @Field(() => ID, { nullable: true, description: 'Only payments of this invoice' })
  invoiceId?: string;

  @Field(() => ID, { nullable: true, description: 'Only payments of this claim' })
  claimId?: string;
}

@ObjectType({ description: 'A page of payments' })
export class PaymentPage extends PageOf(Payment) {}
