import { ArrayMaxSize, ArrayMinSize, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { PayloadOf } from '../../../shared/user-errors';
import { IsCalendarDate, IsCountryCode, IsCurrency, IsMoney, IsText } from '../../../shared/validation';
import { BenefitCategory, InsurancePlan, InsurancePolicy, Payer, PayerAdapterKind, PolicyStatus } from './insurance.entity';

@InputType({ description: 'A payer (insurer) to add to the marketplace' })
export class CreatePayerInput {
  @Field({ description: "The insurer's name" })
  @IsText(200)
  name!: string;

  @Field({ description: 'A short code, unique across payers: capitals, digits and dashes' })
  @Matches(/^[A-Z0-9][A-Z0-9-]{1,31}$/, { message: 'must be 2 to 32 capitals, digits or dashes' })
  code!: string;

  @Field(() => PayerAdapterKind, { nullable: true, description: 'How claims reach the payer (default `sandbox`)' })
  adapter?: PayerAdapterKind;

  @Field(() => Int, { nullable: true, description: 'Days within which the payer pays an approved claim, 1 to 365 (default 30)' })
  @Min(1, { message: 'must be at least 1' })
  @Max(365, { message: 'must be at most 365' })
  paymentTermsDays?: number;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 country where the payer operates' })
  @IsCountryCode()
  countryCode?: string;
}

@InputType({ description: 'A benefit of a new plan' })
export class PlanBenefitInput {
  @Field(() => BenefitCategory, { description: 'The category covered' })
  category!: BenefitCategory;

  @Field(() => Decimal, { description: "Yearly limit for the category, in the plan's currency" })
  @IsMoney()
  limit!: string;

  @Field(() => Int, { defaultValue: 0, description: 'Days after the policy starts before the benefit may be used, 0 to 730' })
  @Min(0, { message: 'must be at least 0' })
  @Max(730, { message: 'must be at most 730' })
  waitingPeriodDays: number = 0;
}

@InputType({ description: 'A plan to sell in the marketplace' })
export class CreateInsurancePlanInput {
  @Field(() => ID, { description: 'The insurer selling the plan' })
  payerId!: string;

  @Field({ description: "The plan's name" })
  @IsText(200)
  name!: string;

  @Field({ nullable: true, description: 'What the plan is for' })
  @IsText(2000)
  description?: string;

  @Field({ description: 'ISO 4217 currency of the premium, limits and claims' })
  @IsCurrency()
  currency!: string;

  @Field(() => Decimal, { description: 'Premium for one term, above zero' })
  @IsMoney({ currencyField: 'currency' })
  premium!: string;

  @Field(() => Int, { defaultValue: 12, description: 'Months one premium covers, 1 to 36' })
  @Min(1, { message: 'must be at least 1' })
  @Max(36, { message: 'must be at most 36' })
  termMonths: number = 12;

  @Field(() => Decimal, { description: 'Overall limit per term, above zero' })
  @IsMoney({ currencyField: 'currency' })
  coverLimit!: string;

  @Field(() => Int, { defaultValue: 100, description: "The insurer's share of covered amounts, 1 to 100 percent" })
  @Min(1, { message: 'must be at least 1' })
  @Max(100, { message: 'must be at most 100' })
  coinsurancePercent: number = 100;

  @Field(() => Int, { defaultValue: 0, description: 'Days after the policy starts before any benefit may be used, 0 to 730' })
  @Min(0, { message: 'must be at least 0' })
  @Max(730, { message: 'must be at most 730' })
  waitingPeriodDays: number = 0;

  @Field(() => Decimal, { nullable: true, description: 'Claims above this total need an approved pre-authorization' })
  @IsMoney({ currencyField: 'currency' })
  preauthorizationThreshold?: string;

  @Field(() => [PlanBenefitInput], { description: 'The categories covered, each once (1 to 8)' })
  @ArrayMinSize(1, { message: 'must have at least one benefit' })
  @ArrayMaxSize(8, { message: 'must have at most 8 benefits' })
  @ValidateNested()
  benefits!: PlanBenefitInput[];
}

@InputType({ description: 'Enroll a patient in a plan' })
export class EnrollInPlanInput {
  @Field(() => ID, { description: 'The plan' })
  planId!: string;

  @Field(() => ID, { description: 'The patient to insure: yourself, or a patient of an organization where you hold insurance:write' })
  patientId!: string;

  @Field(() => LocalDate, {
    nullable: true,
    description: 'YYYY-MM-DD: the first day the cover may start (default: the day the first premium is paid)',
  })
  @IsCalendarDate()
  startDate?: string;
}

@ArgsType()
export class InsurancePlanListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Only plans in this ISO 4217 currency' })
  @IsCurrency()
  currency?: string;

  @Field(() => ID, { nullable: true, description: "Only this payer's plans" })
  payerId?: string;

  @Field(() => BenefitCategory, { nullable: true, description: 'Only plans covering this category' })
  category?: BenefitCategory;
}

@ArgsType()
export class InsurancePolicyListArgs extends PageArgs {
  @Field(() => PolicyStatus, {
    nullable: true,
    defaultValue: PolicyStatus.active,
    description: 'Policies in this state (default `active`)',
  })
  status?: PolicyStatus;

  @Field(() => ID, { nullable: true, description: "Only this organization's patients' policies" })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: "Only this patient's policies" })
  patientId?: string;
}

@ArgsType()
export class PayerListArgs extends PageArgs {}

@ObjectType({ description: 'A page of payers' })
export class PayerPage extends PageOf(Payer) {}

@ObjectType({ description: 'What createPayer answers: the new payer, or what the user must fix (a bad field, a code taken)' })
export class CreatePayerPayload extends PayloadOf(Payer, 'payer') {}

@ObjectType({ description: 'A page of insurance plans' })
export class InsurancePlanPage extends PageOf(InsurancePlan) {}

@ObjectType({ description: 'A page of insurance policies' })
export class InsurancePolicyPage extends PageOf(InsurancePolicy) {}

@ObjectType({
  description: 'What enrollInPlan answers: the new policy, or what the user must fix (a bad field, a policy of the plan already open)',
})
export class EnrollInPlanPayload extends PayloadOf(InsurancePolicy, 'insurancePolicy') {}
