import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';

/** What a plan covers and a claim line bills: the benefit categories of the marketplace's plans. */
export enum BenefitCategory {
  outpatient = 'outpatient',
  inpatient = 'inpatient',
  maternity = 'maternity',
  dental = 'dental',
  optical = 'optical',
  pharmacy = 'pharmacy',
  laboratory = 'laboratory',
  imaging = 'imaging',
}
registerEnumType(BenefitCategory, { name: 'BenefitCategory', description: 'A benefit category of a plan, billed by a claim line' });

/** How the platform reaches a payer: the payer adapter it goes through. */
export enum PayerAdapterKind {
  sandbox = 'sandbox',
}
registerEnumType(PayerAdapterKind, {
  name: 'PayerAdapterKind',
  description:
    'The payer adapter claims, eligibility checks and pre-authorizations go through (`sandbox`: adjudicates by the plan rules on the event bus)',
});

/** An insurer (payer) that sells plans in the marketplace and adjudicates claims. */
@ObjectType('Payer', { description: 'An insurer (payer): sells plans in the marketplace and adjudicates claims' })
@Entity({ tableName: 'payers' })
export class Payer extends BaseRecord {
  @Field({ description: "The insurer's name" })
  @Property({ type: 'text' })
  name!: string;

  @Field({ description: 'A short code, unique across payers (`SANDBOX-HM`)' })
  @Property({ type: 'text', unique: true })
  code!: string;

  @Field(() => PayerAdapterKind, { description: 'How claims reach this payer' })
  @Enum({ items: () => PayerAdapterKind })
  adapter: Opt<PayerAdapterKind> = PayerAdapterKind.sandbox;

  @Field(() => Int, {
    description: 'Days within which the payer promises to pay an approved claim (reconciliation flags later ones as overdue)',
  })
  @Property({ type: 'integer' })
  paymentTermsDays: Opt<number> = 30;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country where the payer operates' })
  @Property({ type: 'text', nullable: true })
  countryCode?: string | null;

  @Field(() => Boolean, { description: 'Whether the payer sells plans and takes claims' })
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;
}

/** One benefit of a plan as stored: a category with its limit per term (decimal string) and waiting period. */
export interface PlanBenefit {
  category: BenefitCategory;
  limit: string;
  waitingPeriodDays: number;
}

/** A plan of the insurance marketplace. */
@ObjectType('InsurancePlan', { description: 'A plan of the insurance marketplace: premium, cover limits, waiting period, currency' })
@Entity({ tableName: 'insurance_plans' })
export class InsurancePlan extends BaseRecord {
  @Field(() => ID, { description: 'The insurer selling the plan' })
  @Index()
  @Property({ type: 'uuid' })
  payerId!: string;

  @Field({ description: "The plan's name" })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'What the plan is for' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field({ description: 'ISO 4217 currency of the premium, the limits and the claims against it' })
  @Property({ type: 'text' })
  currency!: string;

  /** The premium for one term, a decimal string in `currency`. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  premiumAmount!: string;

  @Field(() => Int, { description: 'Months one premium covers (the policy term)' })
  @Property({ type: 'integer' })
  termMonths: Opt<number> = 12;

  /** Overall limit per policy term, a decimal string in `currency`. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  coverLimit!: string;

  @Field(() => Int, { description: "The insurer's share of a covered amount, in percent (the rest is the patient's co-insurance)" })
  @Property({ type: 'integer' })
  coinsurancePercent: Opt<number> = 100;

  @Field(() => Int, { description: 'Days after the policy starts before any benefit may be used (benefits may add their own)' })
  @Property({ type: 'integer' })
  waitingPeriodDays: Opt<number> = 0;

  /** Claims whose total exceeds this need an approved pre-authorization; null: never. */
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  preauthThreshold?: string | null;

  /** Benefit categories covered (GraphQL `benefits`); a category not listed is not covered. */
  @Property({ type: 'jsonb' })
  benefits!: PlanBenefit[];

  @Field(() => Boolean, { description: 'Whether the plan is sold (policies of a withdrawn plan stay in force)' })
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;
}

export enum PolicyStatus {
  pending_payment = 'pending_payment',
  active = 'active',
  cancelled = 'cancelled',
}
registerEnumType(PolicyStatus, {
  name: 'PolicyStatus',
  description: 'pending_payment until the first premium is paid, then active; cancelled ends it',
});

/**
 * activate: the first premium is paid (the cover starts that day, or on the requested start date if later).
 * cancel: before or after activation.
 */
export const POLICY = stateMachine<PolicyStatus, 'activate' | 'cancel'>('policy', {
  activate: { from: [PolicyStatus.pending_payment], to: PolicyStatus.active },
  cancel: { from: [PolicyStatus.pending_payment, PolicyStatus.active], to: PolicyStatus.cancelled },
});

/** A patient's enrollment in a plan. */
@ObjectType('InsurancePolicy', {
  description: "A patient's enrollment in a plan: pending until the first premium is paid, then active for its term",
})
@Entity({ tableName: 'insurance_policies' })
@Unique({ properties: ['policyNumber'] })
@Index({
  name: 'insurance_policies_one_open_per_plan',
  expression:
    'create unique index "insurance_policies_one_open_per_plan" on "revenue"."insurance_policies" ("patient_id", "plan_id") where "status" in (\'pending_payment\', \'active\')',
})
export class InsurancePolicy extends BaseRecord {
  @Field({ description: 'The policy (member) number the payer knows the patient by' })
  @Property({ type: 'text' })
  policyNumber!: string;

  @Field(() => ID, { description: 'The plan' })
  @Index()
  @Property({ type: 'uuid' })
  planId!: string;

  @Field(() => ID, { description: "The plan's insurer" })
  @Property({ type: 'uuid' })
  payerId!: string;

  @Field(() => ID, { description: 'The insured patient' })
  @Index()
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, {
    nullable: true,
    description: "The organization that enrolled the patient (the patient's); null for a patient who enrolled themselves",
  })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => PolicyStatus, { description: 'pending_payment, active or cancelled' })
  @Enum({ items: () => PolicyStatus })
  status: Opt<PolicyStatus> = PolicyStatus.pending_payment;

  @Field({ description: "ISO 4217 currency (the plan's)" })
  @Property({ type: 'text' })
  currency!: string;

  /** The premium owed for the term, fixed at enrollment. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  premiumAmount!: string;

  @Field(() => LocalDate, { nullable: true, description: 'The first day the cover may start (asked at enrollment)' })
  @Property({ type: 'date', nullable: true })
  requestedStartDate?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'First day of cover, set when the first premium is paid' })
  @Property({ type: 'date', nullable: true })
  startDate?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'Last day of cover (start plus the plan term)' })
  @Property({ type: 'date', nullable: true })
  endDate?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the first premium was paid' })
  @Property({ type: 'timestamptz', nullable: true })
  activatedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'The payment that paid the first premium' })
  @Property({ type: 'uuid', nullable: true })
  premiumPaymentId?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the policy was cancelled' })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => ID, { description: 'Who enrolled the patient' })
  @Property({ type: 'uuid' })
  enrolledBy!: string;
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** `date` plus whole months, minus one day: the last day of a term that starts on `date`. */
export function termEnd(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  d.setUTCDate(d.getUTCDate() - 1);
  return isoDate(d);
}

/** Whether a policy covers `date`: active, and the date within its term. */
export function inForceOn(policy: Pick<InsurancePolicy, 'status' | 'startDate' | 'endDate'>, date: string): boolean {
  return (
    policy.status === PolicyStatus.active && !!policy.startDate && !!policy.endDate && date >= policy.startDate && date <= policy.endDate
  );
}

/** The day `days` after `date`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}
