import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { stateMachine } from '../../../shared/state-machine';
import { BenefitCategory } from '../insurance/insurance.entity';

export enum ClaimStatus {
  draft = 'draft',
  submitted = 'submitted',
  in_review = 'in_review',
  approved = 'approved',
  partially_approved = 'partially_approved',
  denied = 'denied',
  paid = 'paid',
}
registerEnumType(ClaimStatus, {
  name: 'ClaimStatus',
  description: 'draft → submitted → in_review → approved | partially_approved | denied; approved and partially approved claims → paid',
});

/**
 * edit: only drafts change. submit: the claim goes to the payer (once: a second submit is a 409). start_review: the
 * payer acknowledged it. approve / partially_approve / deny: the payer's adjudication. mark_paid: the payer's
 * remittance (or a payment the organization recorded) arrived.
 */
export const CLAIM = stateMachine<
  ClaimStatus,
  'edit' | 'submit' | 'start_review' | 'approve' | 'partially_approve' | 'deny' | 'mark_paid' | 'request_preauthorization'
>('claim', {
  edit: { from: [ClaimStatus.draft], to: ClaimStatus.draft },
  request_preauthorization: { from: [ClaimStatus.draft], to: ClaimStatus.draft },
  submit: { from: [ClaimStatus.draft], to: ClaimStatus.submitted },
  start_review: { from: [ClaimStatus.submitted], to: ClaimStatus.in_review },
  approve: { from: [ClaimStatus.in_review], to: ClaimStatus.approved },
  partially_approve: { from: [ClaimStatus.in_review], to: ClaimStatus.partially_approved },
  deny: { from: [ClaimStatus.in_review], to: ClaimStatus.denied },
  mark_paid: { from: [ClaimStatus.approved, ClaimStatus.partially_approved], to: ClaimStatus.paid },
});

/** The states in which the payer has decided (adjudicated claims). */
export const ADJUDICATED = [ClaimStatus.approved, ClaimStatus.partially_approved, ClaimStatus.denied, ClaimStatus.paid];

export enum ClaimOutcome {
  approved = 'approved',
  partially_approved = 'partially_approved',
  denied = 'denied',
}
registerEnumType(ClaimOutcome, { name: 'ClaimOutcome', description: "The payer's decision on a claim" });

export enum ClaimType {
  institutional = 'institutional',
  professional = 'professional',
  pharmacy = 'pharmacy',
  oral = 'oral',
  vision = 'vision',
}
registerEnumType(ClaimType, {
  name: 'ClaimType',
  description: 'FHIR claim-type: institutional (hospital), professional (clinician), pharmacy, oral (dental), vision',
});

export enum PreauthorizationStatus {
  approved = 'approved',
  denied = 'denied',
  pending = 'pending',
}
registerEnumType(PreauthorizationStatus, {
  name: 'PreauthorizationStatus',
  description: "The payer's answer to a pre-authorization request",
});

/** A diagnosis of a claim (FHIR Claim.diagnosis). */
@ObjectType('ClaimDiagnosis', { description: 'A diagnosis of a claim, coded in ICD-10' })
export class ClaimDiagnosis {
  @Field(() => Int, { description: 'Order of importance, from 1 (the principal diagnosis)' })
  sequence!: number;

  @Field({ description: 'ICD-10 code, written with its dot ("J06.9")' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'The diagnosis in words' })
  display?: string | null;
}

/** A line of a claim as stored (FHIR Claim.item with its adjudication); amounts are decimal strings in the claim's currency. */
export interface ClaimItemRecord {
  sequence: number;
  code: string;
  codeSystem: string | null;
  category: BenefitCategory;
  description: string;
  quantity: number;
  unitPrice: string;
  net: string;
  servicedDate: string;
  /** Set by adjudication: what the payer accepts to pay for the line. */
  approvedAmount?: string | null;
  /** Why the line was reduced or refused. */
  adjudicationReason?: string | null;
}

/** An insurance claim, shaped after FHIR Claim (use `claim`) with the payer's ClaimResponse folded in. */
@ObjectType('Claim', {
  description: "An insurance claim (FHIR Claim): patient, payer, provider, diagnoses, items, total, and the payer's answer",
})
@Entity({ tableName: 'claims' })
@Unique({ properties: ['organizationId', 'number'] })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['payerId', 'status'] })
export class Claim extends BaseRecord {
  @Field(() => ID, { description: 'The provider organization billing the payer' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Claim number, unique within the organization (CLM-000001)' })
  @Property({ type: 'text' })
  number!: string;

  @Field(() => ID, { description: 'The patient' })
  @Index()
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, { nullable: true, description: 'The treating practitioner (a user of the organization)' })
  @Property({ type: 'uuid', nullable: true })
  practitionerId?: string | null;

  @Field(() => ID, { description: "The patient's insurance policy (FHIR Coverage)" })
  @Index()
  @Property({ type: 'uuid' })
  policyId!: string;

  @Field(() => ID, { description: 'The payer (insurer) of the policy' })
  @Property({ type: 'uuid' })
  payerId!: string;

  @Field(() => ID, { description: "The policy's plan" })
  @Property({ type: 'uuid' })
  planId!: string;

  @Field(() => ClaimStatus, { description: 'draft, submitted, in_review, approved, partially_approved, denied or paid' })
  @Enum({ items: () => ClaimStatus })
  status: Opt<ClaimStatus> = ClaimStatus.draft;

  @Field(() => ClaimType, { description: 'FHIR claim-type' })
  @Enum({ items: () => ClaimType })
  type: Opt<ClaimType> = ClaimType.professional;

  @Field({ description: "ISO 4217 currency (the plan's)" })
  @Property({ type: 'text' })
  currency!: string;

  @Field(() => [ClaimDiagnosis], { description: 'Diagnoses, principal first (1 to 12)' })
  @Property({ type: 'jsonb' })
  diagnoses!: ClaimDiagnosis[];

  /** The lines (GraphQL `items`, with their adjudication). */
  @Property({ type: 'jsonb' })
  items!: ClaimItemRecord[];

  /** Sum of the lines' net amounts. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  totalAmount!: string;

  /** What the payer accepted to pay (sum of the lines' approved amounts), once adjudicated. */
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  approvedAmount?: string | null;

  /** What was paid against the claim so far. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  paidAmount!: string;

  @Field(() => String, { nullable: true, description: 'Notes for the payer' })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { description: 'Who created it' })
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => Date, { nullable: true, description: 'When it was submitted to the payer' })
  @Property({ type: 'timestamptz', nullable: true })
  submittedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who submitted it' })
  @Property({ type: 'uuid', nullable: true })
  submittedBy?: string | null;

  @Field(() => String, { nullable: true, description: "The payer's reference for the claim" })
  @Property({ type: 'text', nullable: true })
  payerClaimId?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the payer acknowledged it and started its review' })
  @Property({ type: 'timestamptz', nullable: true })
  reviewStartedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the payer decided' })
  @Property({ type: 'timestamptz', nullable: true })
  adjudicatedAt?: Date | null;

  @Field(() => ClaimOutcome, { nullable: true, description: "The payer's decision, kept once the claim is paid" })
  @Enum({ items: () => ClaimOutcome, nullable: true })
  adjudicationOutcome?: ClaimOutcome | null;

  @Field(() => String, { nullable: true, description: "The payer's reason: for a denial, or for reduced lines" })
  @Property({ type: 'text', nullable: true })
  adjudicationReason?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was paid' })
  @Property({ type: 'timestamptz', nullable: true })
  paidAt?: Date | null;

  @Field(() => String, { nullable: true, description: "The payer's payment (remittance) reference" })
  @Property({ type: 'text', nullable: true })
  paymentReference?: string | null;

  @Field(() => PreauthorizationStatus, { nullable: true, description: 'The latest pre-authorization answer, if one was asked for' })
  @Enum({ items: () => PreauthorizationStatus, nullable: true })
  preauthStatus?: PreauthorizationStatus | null;

  @Field(() => String, { nullable: true, description: 'The authorization number of an approved pre-authorization' })
  @Property({ type: 'text', nullable: true })
  preauthNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'Why a pre-authorization was denied or reduced' })
  @Property({ type: 'text', nullable: true })
  preauthReason?: string | null;

  /** Amount the pre-authorization covers. */
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  preauthAmount?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the pre-authorization was answered' })
  @Property({ type: 'timestamptz', nullable: true })
  preauthAt?: Date | null;
}

export enum FraudRule {
  duplicate_claim = 'duplicate_claim',
  amount_outlier = 'amount_outlier',
  service_after_policy_end = 'service_after_policy_end',
  unbundled_codes = 'unbundled_codes',
}
registerEnumType(FraudRule, {
  name: 'FraudRule',
  description:
    "duplicate_claim: the same patient, code and date on another claim; amount_outlier: a unit price far beyond other providers' for the code; service_after_policy_end: a service dated after the policy ended; unbundled_codes: a panel's components billed separately",
});

/** A fraud flag raised when a claim is submitted: the rule that fired and its evidence. */
@ObjectType('FraudFlag', { description: 'A claim flagged by a fraud rule, with the evidence' })
@Entity({ tableName: 'claim_fraud_flags' })
@Unique({ properties: ['claimId', 'rule', 'fingerprint'] })
@Index({ properties: ['organizationId', 'createdAt'] })
export class FraudFlag extends BaseRecord {
  @Field(() => ID, { description: 'The flagged claim' })
  @Index()
  @Property({ type: 'uuid' })
  claimId!: string;

  @Field(() => ID, { description: "The claim's provider organization" })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: "The claim's patient" })
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, { description: "The claim's payer" })
  @Property({ type: 'uuid' })
  payerId!: string;

  @Field(() => FraudRule, { description: 'The rule that fired' })
  @Enum({ items: () => FraudRule })
  rule!: FraudRule;

  /** What makes this flag distinct among the claim's flags of one rule (a code and date). */
  @Property({ type: 'text' })
  fingerprint!: string;

  @Field({ description: 'The finding in words' })
  @Property({ type: 'text' })
  summary!: string;

  @Field(() => GraphQLJSONObject, { description: 'The evidence: codes, dates, amounts, the other claims (snake_case keys)' })
  @Property({ type: 'jsonb' })
  evidence!: Record<string, unknown>;
}

/** A benefit as an eligibility check found it. */
export interface EligibilityBenefitRecord {
  category: BenefitCategory;
  covered: boolean;
  allowed: string;
  used: string;
  remaining: string;
  waitingPeriodEndsOn: string | null;
  inWaitingPeriod: boolean;
}

/** An eligibility check of a claim's coverage, shaped after FHIR CoverageEligibilityResponse. */
@ObjectType('EligibilityCheck', {
  description: "A check of a claim's coverage (FHIR CoverageEligibilityResponse): in force, plan, benefits used and left, waiting periods",
})
@Entity({ tableName: 'claim_eligibility_checks' })
export class EligibilityCheck extends BaseRecord {
  @Field(() => ID, { description: 'The claim checked' })
  @Index()
  @Property({ type: 'uuid' })
  claimId!: string;

  @Field(() => ID, { description: 'The policy checked' })
  @Property({ type: 'uuid' })
  policyId!: string;

  @Field(() => ID, { description: 'The payer that answered' })
  @Property({ type: 'uuid' })
  payerId!: string;

  @Field(() => ID, { description: "The policy's plan" })
  @Property({ type: 'uuid' })
  planId!: string;

  @Field(() => LocalDate, { description: "The date checked: the claim's first service date" })
  @Property({ type: 'date' })
  servicedDate!: string;

  @Field({ description: 'Whether the policy covers the date (FHIR `inforce`)' })
  @Property({ type: 'boolean' })
  inforce!: boolean;

  @Field(() => LocalDate, { nullable: true, description: "First day of the policy's term" })
  @Property({ type: 'date', nullable: true })
  benefitPeriodStart?: string | null;

  @Field(() => LocalDate, { nullable: true, description: "Last day of the policy's term" })
  @Property({ type: 'date', nullable: true })
  benefitPeriodEnd?: string | null;

  @Field({ description: 'ISO 4217 currency of the amounts' })
  @Property({ type: 'text' })
  currency!: string;

  /** Overall cover for the term, used, remaining. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  coverAllowed!: string;

  @Property({ type: 'decimal', columnType: 'numeric' })
  coverUsed!: string;

  @Property({ type: 'decimal', columnType: 'numeric' })
  coverRemaining!: string;

  /** Per benefit category (GraphQL `benefits`). */
  @Property({ type: 'jsonb' })
  benefits!: EligibilityBenefitRecord[];

  @Field(() => String, { nullable: true, description: 'Why the policy does not cover the date, when it does not' })
  @Property({ type: 'text', nullable: true })
  disposition?: string | null;

  @Field(() => ID, { description: 'Who asked' })
  @Property({ type: 'uuid' })
  checkedBy!: string;
}
