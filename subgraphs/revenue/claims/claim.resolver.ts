import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds } from '../../../shared/model';
import { Money } from '../../../shared/money';
import { can } from '../../../shared/permissions';
import { ref } from '../../../shared/refs';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { InsurancePlan, InsurancePolicy, Payer } from '../insurance/insurance.entity';
import { payerLoader, planLoader } from '../insurance/insurance.resolver';
import { Invoice } from '../invoices/invoice.entity';
import { BilledPatient } from '../invoices/patient-invoices.resolver';
import { RevenueOrganization } from '../organization';
import { Claim, EligibilityCheck, FraudFlag } from './claim.entity';
import { ClaimService } from './claim.service';
import {
  ClaimAnalyticsArgs,
  ClaimItemView,
  ClaimListArgs,
  ClaimPage,
  CreateClaimInput,
  EligibilityBenefitView,
  FraudFlagListArgs,
  FraudFlagPage,
  InsurerClaimAnalytics,
  OrganizationClaimListArgs,
  ProviderClaimAnalytics,
  ReconciliationArgs,
  ReconciliationLine,
  ReconciliationReport,
  UpdateClaimInput,
} from './claim.types';

const m = (amount: string | null | undefined, currencyCode: string): Money | null =>
  amount === null || amount === undefined ? null : { amount, currencyCode };
const claimLoader = (ctx: SubgraphContext) => ctx.loader<string, Claim>('claim', byIds(ctx.em, Claim));
const policyLoader = (ctx: SubgraphContext) => ctx.loader<string, InsurancePolicy>('insurance-policy', byIds(ctx.em, InsurancePolicy));

@Resolver(() => Claim)
export class ClaimResolver {
  private readonly service = new ClaimService();

  @Query(() => ClaimPage, {
    description: 'Claims of the organizations where you hold claims:read (all for platform administrators), newest first',
  })
  claims(@Args() args: ClaimListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Claim, { nullable: true, description: 'A claim (claims:read in its organization)' })
  claim(@Arg('id', () => ID, { description: 'The claim id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @RequiresOrgPermission('claims:read')
  @Query(() => ClaimPage, { description: "An organization's insurance claims, newest first (claims:read)" })
  organizationClaims(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: OrganizationClaimListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @Mutation(() => Claim, { description: 'Create a draft claim for an organization (claims:write)' })
  createClaim(
    @Arg('organizationId', () => ID, { description: 'The provider organization billing the payer' }) organizationId: string,
    @Arg('input', { description: 'The claim' }) input: CreateClaimInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, organizationId, input);
  }

  @RequiresOrgPermission('claims:write')
  @Mutation(() => Claim, { description: 'File a claim for an organization in one step: created and submitted to the payer (claims:write)' })
  fileOrganizationClaim(
    @Arg('organizationId', () => ID, { description: 'The provider organization billing the payer' }) organizationId: string,
    @Arg('input', { description: 'The claim' }) input: CreateClaimInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.file(ctx, organizationId, input);
  }

  @Mutation(() => Claim, { description: 'Change a draft claim (claims:write); a submitted claim is a 409' })
  updateClaim(
    @Arg('id', () => ID, { description: 'The claim id' }) id: string,
    @Arg('input', { description: 'The changes' }) input: UpdateClaimInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Claim, { description: 'Submit a draft claim to its payer (claims:write); submitting again is a 409' })
  submitClaim(@Arg('id', () => ID, { description: 'The claim id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.submit(ctx, id);
  }

  @Mutation(() => EligibilityCheck, {
    description: "Ask the payer whether the claim's policy covers its first service date (claims:write)",
  })
  checkClaimEligibility(@Arg('id', () => ID, { description: 'The claim id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.checkEligibility(ctx, id);
  }

  @Mutation(() => Claim, {
    description:
      'Ask the payer to pre-authorize a draft claim (claims:write): approved with an authorization number, or denied with the reason',
  })
  requestClaimPreauthorization(@Arg('id', () => ID, { description: 'The claim id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.requestPreauthorization(ctx, id);
  }

  @Query(() => [InsurerClaimAnalytics], {
    description: 'Claims analytics per payer and currency over the period (claims:read; one row per payer and currency)',
  })
  claimAnalyticsByInsurer(@Args() args: ClaimAnalyticsArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.analyticsByInsurer(ctx, args);
  }

  @Query(() => [ProviderClaimAnalytics], {
    description: 'Claims analytics per provider organization and currency over the period (claims:read)',
  })
  claimAnalyticsByProvider(@Args() args: ClaimAnalyticsArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.analyticsByProvider(ctx, args);
  }

  @Query(() => FraudFlagPage, { description: 'Fraud flags of the claims you may read, newest first' })
  claimFraudFlags(@Args() args: FraudFlagListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.fraudFlags(ctx, args);
  }

  @Query(() => ReconciliationReport, {
    description: 'Reconciliation of payments against the claims you may read: paid, short-paid, unpaid, overdue',
  })
  claimReconciliation(@Args() args: ReconciliationArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.reconciliation(ctx, args);
  }

  @FieldResolver(() => [ClaimItemView], { description: "The lines (at most 50), with the payer's adjudication" })
  items(@Root() claim: Claim): ClaimItemView[] {
    return claim.items.map((i) => ({
      ...i,
      unitPrice: m(i.unitPrice, claim.currency)!,
      net: m(i.net, claim.currency)!,
      approvedAmount: m(i.approvedAmount, claim.currency),
      adjudicationReason: i.adjudicationReason ?? null,
    }));
  }

  @FieldResolver(() => Money, { description: "Sum of the lines' net amounts" })
  total(@Root() claim: Claim): Money {
    return m(claim.totalAmount, claim.currency)!;
  }

  @FieldResolver(() => Money, { nullable: true, description: 'What the payer accepted to pay, once adjudicated' })
  approvedAmount(@Root() claim: Claim): Money | null {
    return m(claim.approvedAmount, claim.currency);
  }

  @FieldResolver(() => Money, { description: 'Paid against the claim so far' })
  paidAmount(@Root() claim: Claim): Money {
    return m(claim.paidAmount, claim.currency)!;
  }

  @FieldResolver(() => Money, { nullable: true, description: 'What an approved pre-authorization covers' })
  preauthAmount(@Root() claim: Claim): Money | null {
    return m(claim.preauthAmount, claim.currency);
  }

  @FieldResolver(() => Payer, { description: 'The payer' })
  payer(@Root() claim: Claim, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(claim.payerId);
  }

  @FieldResolver(() => InsurancePlan, { description: "The policy's plan" })
  plan(@Root() claim: Claim, @Ctx() ctx: SubgraphContext) {
    return planLoader(ctx).load(claim.planId);
  }

  @FieldResolver(() => InsurancePolicy, { description: 'The policy' })
  policy(@Root() claim: Claim, @Ctx() ctx: SubgraphContext) {
    return policyLoader(ctx).load(claim.policyId);
  }

  @FieldResolver(() => [Invoice], { description: "Invoices of this claim (the patient's share), at most 100" })
  invoices(@Root() claim: Claim, @Ctx() ctx: SubgraphContext) {
    return ctx.em.find(Invoice, { claimId: claim.id }, { orderBy: { createdAt: 'asc' }, limit: 100 });
  }

  @FieldResolver(() => [FraudFlag], { description: 'Fraud flags raised on the claim (at most 100)' })
  fraudFlags(@Root() claim: Claim, @Ctx() ctx: SubgraphContext) {
    return ctx.em.find(FraudFlag, { claimId: claim.id }, { orderBy: { createdAt: 'asc' }, limit: 100 });
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: 'The patient (from the clinical subgraph)' })
  patient(@Root() claim: Claim) {
    return ref(claim.patientId);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The provider organization' })
  organization(@Root() claim: Claim) {
    return ref(claim.organizationId);
  }
}

/** A claim the viewer may read (claims:read in its organization), for links from other records; null otherwise. */
export async function readableClaim(ctx: SubgraphContext, id: string | null | undefined): Promise<Claim | null> {
  if (!id) return null;
  const claim = await claimLoader(ctx).load(id);
  return claim && can(ctx.viewer, 'claims:read', claim.organizationId) ? claim : null;
}

@Resolver(() => FraudFlag)
export class FraudFlagResolver {
  @FieldResolver(() => Claim, { nullable: true, description: 'The flagged claim' })
  claim(@Root() flag: FraudFlag, @Ctx() ctx: SubgraphContext) {
    return readableClaim(ctx, flag.claimId);
  }

  @FieldResolver(() => Payer, { description: "The claim's payer" })
  payer(@Root() flag: FraudFlag, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(flag.payerId);
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: "The claim's patient (from the clinical subgraph)" })
  patient(@Root() flag: FraudFlag) {
    return ref(flag.patientId);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: "The claim's provider organization" })
  organization(@Root() flag: FraudFlag) {
    return ref(flag.organizationId);
  }
}

@Resolver(() => ReconciliationLine)
export class ReconciliationLineResolver {
  @FieldResolver(() => Claim, { nullable: true, description: 'The claim' })
  claim(@Root() line: ReconciliationLine, @Ctx() ctx: SubgraphContext) {
    return readableClaim(ctx, line.claimId);
  }

  @FieldResolver(() => Payer, { description: 'The payer' })
  payer(@Root() line: ReconciliationLine, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(line.payerId);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The provider organization' })
  organization(@Root() line: ReconciliationLine) {
    return ref(line.organizationId);
  }
}

@Resolver(() => Invoice)
export class InvoiceClaimResolver {
  @FieldResolver(() => Claim, { nullable: true, description: 'The claim this invoice belongs to, for claims:read members' })
  claim(@Root() invoice: Invoice, @Ctx() ctx: SubgraphContext) {
    return readableClaim(ctx, invoice.claimId);
  }
}

@Resolver(() => EligibilityCheck)
export class EligibilityCheckResolver {
  @FieldResolver(() => Money, { description: 'Overall cover for the term' })
  coverAllowed(@Root() check: EligibilityCheck): Money {
    return m(check.coverAllowed, check.currency)!;
  }

  @FieldResolver(() => Money, { description: 'Cover used this term (approved on earlier claims)' })
  coverUsed(@Root() check: EligibilityCheck): Money {
    return m(check.coverUsed, check.currency)!;
  }

  @FieldResolver(() => Money, { description: 'Cover left this term' })
  coverRemaining(@Root() check: EligibilityCheck): Money {
    return m(check.coverRemaining, check.currency)!;
  }

  @FieldResolver(() => [EligibilityBenefitView], {
    description: "Each of the plan's benefits (at most 8): allowed, used, left, waiting period",
  })
  benefits(@Root() check: EligibilityCheck): EligibilityBenefitView[] {
    return check.benefits.map((b) => ({
      ...b,
      allowed: m(b.allowed, check.currency)!,
      used: m(b.used, check.currency)!,
      remaining: m(b.remaining, check.currency)!,
    }));
  }

  @FieldResolver(() => InsurancePlan, { description: 'The plan' })
  plan(@Root() check: EligibilityCheck, @Ctx() ctx: SubgraphContext) {
    return planLoader(ctx).load(check.planId);
  }

  @FieldResolver(() => Payer, { description: 'The payer that answered' })
  payer(@Root() check: EligibilityCheck, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(check.payerId);
  }

  @FieldResolver(() => Claim, { nullable: true, description: 'The claim checked' })
  claim(@Root() check: EligibilityCheck, @Ctx() ctx: SubgraphContext) {
    return readableClaim(ctx, check.claimId);
  }

  @FieldResolver(() => InsurancePolicy, { description: 'The policy checked' })
  policy(@Root() check: EligibilityCheck, @Ctx() ctx: SubgraphContext) {
    return policyLoader(ctx).load(check.policyId);
  }
}

@Resolver(() => InsurerClaimAnalytics)
export class InsurerClaimAnalyticsResolver {
  @FieldResolver(() => Payer, { nullable: true, description: 'The payer' })
  payer(@Root() row: InsurerClaimAnalytics, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(row.payerId);
  }
}

@Resolver(() => ProviderClaimAnalytics)
export class ProviderClaimAnalyticsResolver {
  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The provider organization' })
  organization(@Root() row: ProviderClaimAnalytics) {
    return ref(row.organizationId);
  }
}
