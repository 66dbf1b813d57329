import { ArrayMaxSize, ArrayMinSize, Matches, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal, Money } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsCalendarDate, IsCurrency, IsMoney, IsText } from '../../../shared/validation';
import { BenefitCategory } from '../insurance/insurance.entity';
import { Payer } from '../insurance/insurance.entity';
import { Claim, ClaimStatus, ClaimType, FraudFlag, FraudRule } from './claim.entity';

/** ICD-10 (WHO) and ICD-10-CM codes: a letter, two characters, then up to four after the dot ("J06.9", "S72.001A"). */
export const ICD10 = /^([A-Z][0-9][0-9A-Z])\.?([0-9A-Z]{1,4})?$/;

/** The code as stored: upper case, with its dot ("j069" → "J06.9"). */
export function normalizeIcd10(code: string): string {
  const m = ICD10.exec(code.trim().toUpperCase())!;
  return m[2] ? `${m[1]}.${m[2]}` : m[1];
}

function IsIcd10(): PropertyDecorator {
  return ValidateBy({
    name: 'isIcd10',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && ICD10.test(value.trim().toUpperCase()),
      defaultMessage: () => 'must be an ICD-10 code such as J06.9',
    },
  });
}

@InputType({ description: 'A diagnosis of a claim' })
export class ClaimDiagnosisInput {
  @Field({ description: 'ICD-10 code ("J06.9"; the dot may be left out)' })
  @IsIcd10()
  code!: string;

  @Field({ nullable: true, description: 'The diagnosis in words' })
  @IsText(300)
  display?: string;
}

@InputType({ description: 'A line of a claim: a service or product supplied on a date' })
export class ClaimItemInput {
  @Field({ description: 'Service or product code (CPT, HCPCS, a local tariff code): letters, digits, dots and dashes' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/, { message: 'must be 1 to 40 letters, digits, dots or dashes' })
  code!: string;

  @Field({ nullable: true, description: 'The code system, such as CPT or a tariff name' })
  @IsText(60)
  codeSystem?: string;

  @Field(() => BenefitCategory, { description: 'The benefit category the line bills' })
  category!: BenefitCategory;

  @Field({ description: 'What was supplied' })
  @IsText(300)
  description!: string;

  @Field(() => Int, { defaultValue: 1, description: 'How many, 1 to 10000' })
  @Min(1, { message: 'must be at least 1' })
  @Max(10000, { message: 'must be at most 10000' })
  quantity: number = 1;

  @Field(() => Decimal, { description: "Price of one, in the plan's currency" })
  @IsMoney()
  unitPrice!: string;

  @Field({ description: 'YYYY-MM-DD: when it was supplied (not in the future)' })
  @IsCalendarDate({ notFuture: true })
  servicedDate!: string;
}

@InputType({ description: 'A new claim (a draft until submitted)' })
export class CreateClaimInput {
  @Field(() => ID, { description: 'A patient of the organization' })
  patientId!: string;

  @Field(() => ID, { description: "The patient's insurance policy; the claim is in its plan's currency" })
  policyId!: string;

  @Field(() => ID, { nullable: true, description: 'The treating practitioner: a user who is a member of the organization' })
  practitionerId?: string;

  @Field(() => ClaimType, { nullable: true, description: 'FHIR claim-type (default professional)' })
  type?: ClaimType;

  @Field({ nullable: true, description: "ISO 4217 currency; when given, it must be the plan's" })
  @IsCurrency()
  currency?: string;

  @Field(() => [ClaimDiagnosisInput], { description: 'Diagnoses, principal first (1 to 12)' })
  @ArrayMinSize(1, { message: 'must have at least one diagnosis' })
  @ArrayMaxSize(12, { message: 'must have at most 12 diagnoses' })
  @ValidateNested()
  diagnoses!: ClaimDiagnosisInput[];

  @Field(() => [ClaimItemInput], { description: 'The lines (1 to 50)' })
  @ArrayMinSize(1, { message: 'must have at least one item' })
  @ArrayMaxSize(50, { message: 'must have at most 50 items' })
  @ValidateNested()
  items!: ClaimItemInput[];

  @Field({ nullable: true, description: 'Notes for the payer' })
  @IsText(2000)
  notes?: string;
}

@InputType({ description: 'Changes to a draft claim; absent fields stay, lists are replaced whole' })
export class UpdateClaimInput {
  @Field(() => ID, { nullable: true, description: "Another of the patient's policies" })
  policyId?: string;

  @Field(() => ID, { nullable: true, description: 'The treating practitioner; null clears it' })
  practitionerId?: string | null;

  @Field(() => ClaimType, { nullable: true, description: 'FHIR claim-type' })
  type?: ClaimType;

  @Field(() => [ClaimDiagnosisInput], { nullable: true, description: 'Diagnoses, principal first (1 to 12)' })
  @ArrayMinSize(1, { message: 'must have at least one diagnosis' })
  @ArrayMaxSize(12, { message: 'must have at most 12 diagnoses' })
  @ValidateNested()
  diagnoses?: ClaimDiagnosisInput[];

  @Field(() => [ClaimItemInput], { nullable: true, description: 'The lines (1 to 50)' })
  @ArrayMinSize(1, { message: 'must have at least one item' })
  @ArrayMaxSize(50, { message: 'must have at most 50 items' })
  @ValidateNested()
  items?: ClaimItemInput[];

  @Field(() => String, { nullable: true, description: 'Notes for the payer; null clears them' })
  @IsText(2000)
  notes?: string | null;
}

@ArgsType()
export class ClaimListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's claims (claims:read there)" })
  organizationId?: string;

  @Field(() => ClaimStatus, { nullable: true, description: 'Only claims in this state' })
  status?: ClaimStatus;

  @Field(() => ID, { nullable: true, description: "Only this patient's claims" })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: "Only this payer's claims" })
  payerId?: string;
}

@ArgsType()
export class OrganizationClaimListArgs extends PageArgs {
  @Field(() => ClaimStatus, { nullable: true, description: 'Only claims in this state' })
  status?: ClaimStatus;
}

@ArgsType()
export class ClaimAnalyticsArgs {
  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD: claims submitted on or after this day (UTC)' })
  @IsCalendarDate()
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD: claims submitted on or before this day (UTC)' })
  @IsCalendarDate()
  to?: string;

  @Field(() => ID, { nullable: true, description: "Only this organization's claims (claims:read there)" })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: "Only this payer's claims" })
  payerId?: string;

  @Field({ nullable: true, description: 'Only claims in this ISO 4217 currency' })
  @IsCurrency()
  currency?: string;
}

@ArgsType()
export class FraudFlagListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's claims' flags (claims:read there)" })
  organizationId?: string;

  @Field(() => FraudRule, { nullable: true, description: 'Only flags of this rule' })
  rule?: FraudRule;

  @Field(() => ID, { nullable: true, description: "Only this claim's flags" })
  claimId?: string;
}

export enum ReconciliationStatus {
  paid = 'paid',
  short_paid = 'short_paid',
  unpaid = 'unpaid',
  overdue = 'overdue',
}
registerEnumType(ReconciliationStatus, {
  name: 'ReconciliationStatus',
  description:
    "paid: in full; short_paid: less than approved (see `difference`); unpaid: nothing yet, within the payer's terms; overdue: nothing yet, past them",
});

@ArgsType()
export class ReconciliationArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this organization's claims (claims:read there)" })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: "Only this payer's claims" })
  payerId?: string;

  @Field(() => ReconciliationStatus, { nullable: true, description: 'Only lines in this state' })
  status?: ReconciliationStatus;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD: claims submitted on or after this day (UTC)' })
  @IsCalendarDate()
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD: claims submitted on or before this day (UTC)' })
  @IsCalendarDate()
  to?: string;
}

@ObjectType('ClaimItem', { description: "A line of a claim with the payer's adjudication" })
export class ClaimItemView {
  @Field(() => Int, { description: 'Line number, from 1' })
  sequence!: number;

  @Field({ description: 'Service or product code' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'The code system' })
  codeSystem!: string | null;

  @Field(() => BenefitCategory, { description: 'The benefit category billed' })
  category!: BenefitCategory;

  @Field({ description: 'What was supplied' })
  description!: string;

  @Field(() => Int, { description: 'How many' })
  quantity!: number;

  @Field(() => Money, { description: 'Price of one' })
  unitPrice!: Money;

  @Field(() => Money, { description: 'quantity × unit price' })
  net!: Money;

  @Field(() => LocalDate, { description: 'When it was supplied' })
  servicedDate!: string;

  @Field(() => Money, { nullable: true, description: 'What the payer accepts to pay for the line, once adjudicated' })
  approvedAmount!: Money | null;

  @Field(() => String, { nullable: true, description: 'Why the line was reduced or refused' })
  adjudicationReason!: string | null;
}

@ObjectType('EligibilityBenefit', { description: 'A benefit as an eligibility check found it' })
export class EligibilityBenefitView {
  @Field(() => BenefitCategory, { description: 'The category' })
  category!: BenefitCategory;

  @Field({ description: 'Whether the plan covers it' })
  covered!: boolean;

  @Field(() => Money, { description: 'Allowed per term' })
  allowed!: Money;

  @Field(() => Money, { description: 'Used this term (approved on earlier claims)' })
  used!: Money;

  @Field(() => Money, { description: 'Left this term' })
  remaining!: Money;

  @Field(() => LocalDate, { nullable: true, description: 'First day the benefit may be used' })
  waitingPeriodEndsOn!: string | null;

  @Field({ description: 'Whether the checked date falls in the waiting period' })
  inWaitingPeriod!: boolean;
}

@ObjectType({ description: 'Claims counts and amounts of one group (a payer or a provider) in one currency' })
export abstract class ClaimAnalyticsRow {
  @Field({ description: 'ISO 4217 currency of the amounts' })
  currency!: string;

  @Field(() => Int, { description: 'Claims submitted' })
  claims!: number;

  @Field(() => Money, { description: 'Billed: the totals of the claims submitted' })
  billed!: Money;

  @Field(() => Money, { description: 'Approved by the payer' })
  approved!: Money;

  @Field(() => Money, { description: 'Paid' })
  paid!: Money;

  @Field(() => Int, { description: 'Claims approved in full' })
  approvedCount!: number;

  @Field(() => Int, { description: 'Claims partially approved' })
  partiallyApprovedCount!: number;

  @Field(() => Int, { description: 'Claims denied' })
  deniedCount!: number;

  @Field(() => Int, { description: 'Claims paid' })
  paidCount!: number;

  @Field(() => Int, { description: 'Claims still waiting for the payer (submitted or in review)' })
  pendingCount!: number;

  @Field(() => Float, { nullable: true, description: 'Denied ÷ adjudicated (0 to 1, 4 decimals); null when none is adjudicated' })
  denialRate!: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Average days from submission to payment over paid claims (2 decimals); null when none is paid',
  })
  averageDaysToPayment!: number | null;
}

@ObjectType({ description: 'Claims analytics of one payer (insurer) in one currency' })
export class InsurerClaimAnalytics extends ClaimAnalyticsRow {
  @Field(() => ID, { description: 'The payer' })
  payerId!: string;

  @Field(() => Payer, { nullable: true, description: 'The payer' })
  payer?: Payer | null;
}

@ObjectType({ description: 'Claims analytics of one provider organization in one currency' })
export class ProviderClaimAnalytics extends ClaimAnalyticsRow {
  @Field(() => ID, { description: 'The provider organization' })
  organizationId!: string;
}

@ObjectType({ description: 'A claim in the reconciliation report: what was approved against what was paid' })
export class ReconciliationLine {
  @Field(() => ID, { description: 'The claim' })
  claimId!: string;

  @Field({ description: 'The claim number' })
  number!: string;

  @Field(() => ID, { description: 'The provider organization' })
  organizationId!: string;

  @Field(() => ID, { description: 'The payer' })
  payerId!: string;

  @Field(() => ClaimStatus, { description: "The claim's state" })
  claimStatus!: ClaimStatus;

  @Field(() => ReconciliationStatus, { description: 'paid, short_paid, unpaid or overdue' })
  status!: ReconciliationStatus;

  @Field(() => Money, { description: 'Billed' })
  billed!: Money;

  @Field(() => Money, { description: 'Expected: the approved amount once adjudicated, the billed amount before' })
  expected!: Money;

  @Field(() => Money, { description: 'Paid so far' })
  paid!: Money;

  @Field(() => Money, { description: 'Expected − paid (the shortfall of a short-paid claim)' })
  difference!: Money;

  @Field(() => Date, { nullable: true, description: 'When it was submitted' })
  submittedAt!: Date | null;

  @Field(() => LocalDate, { nullable: true, description: "When the payer's terms say it is due (submission + payment terms)" })
  dueOn!: string | null;

  @Field(() => Int, { nullable: true, description: 'Days past due, for overdue claims' })
  daysOverdue!: number | null;
}

@ObjectType({ description: 'Reconciliation totals in one currency' })
export class ReconciliationTotals {
  @Field({ description: 'ISO 4217 currency' })
  currency!: string;

  @Field(() => Int, { description: 'Claims' })
  claims!: number;

  @Field(() => Money, { description: 'Expected in total' })
  expected!: Money;

  @Field(() => Money, { description: 'Paid in total' })
  paid!: Money;

  @Field(() => Money, { description: 'Outstanding: expected − paid' })
  outstanding!: Money;

  @Field(() => Int, { description: 'Claims paid in full' })
  paidCount!: number;

  @Field(() => Int, { description: 'Claims short-paid' })
  shortPaidCount!: number;

  @Field(() => Int, { description: 'Claims unpaid within terms' })
  unpaidCount!: number;

  @Field(() => Int, { description: 'Claims unpaid past terms' })
  overdueCount!: number;
}

@ObjectType({ description: 'Reconciliation of payments against claims: totals per currency and a page of lines' })
export class ReconciliationReport {
  @Field(() => Date, { description: 'When the report was made' })
  asOf!: Date;

  @Field(() => [ReconciliationTotals], { description: 'Totals per currency over every matching claim' })
  summary!: ReconciliationTotals[];

  @Field(() => [ReconciliationLine], { description: 'One page of the lines, oldest submission first' })
  lines!: ReconciliationLine[];

  @Field(() => Int, { description: 'Lines across all pages' })
  total!: number;

  @Field(() => Int, { description: 'Page number, from 1' })
  page!: number;

  @Field(() => Int, { description: 'Lines per page' })
  limit!: number;
}

@ObjectType({ description: 'A page of claims' })
export class ClaimPage extends PageOf(Claim) {}

@ObjectType({ description: 'A page of fraud flags' })
export class FraudFlagPage extends PageOf(FraudFlag) {}
