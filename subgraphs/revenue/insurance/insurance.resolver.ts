import { Arg, Args, Ctx, Directive, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { clock } from '../../../shared/clock';
import { byIds } from '../../../shared/model';
import { Decimal, Money } from '../../../shared/money';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { BilledPatient } from '../invoices/patient-invoices.resolver';
import { RevenueOrganization } from '../organization';
import { BenefitCategory, inForceOn, InsurancePlan, InsurancePolicy, isoDate, Payer } from './insurance.entity';
import { InsuranceService } from './insurance.service';
import {
  CreateInsurancePlanInput,
  CreatePayerInput,
  CreatePayerPayload,
  EnrollInPlanInput,
  EnrollInPlanPayload,
  InsurancePlanListArgs,
  InsurancePlanPage,
  InsurancePolicyListArgs,
  InsurancePolicyPage,
  PayerListArgs,
  PayerPage,
} from './insurance.types';

/** A benefit of a plan as GraphQL answers it. */
@ObjectType('PlanBenefit', { description: 'A benefit of a plan: what a category covers per policy term' })
export class PlanBenefitView {
  @Field(() => BenefitCategory, { description: 'The category of services covered' })
  category!: BenefitCategory;

  @Field(() => Money, { description: 'Limit per policy term' })
  limit!: Money;

  @Field(() => Decimal, { description: "The limit's amount alone, for the REST adapter (GraphQL clients read `limit`)" })
  @Directive('@inaccessible')
  limitAmount!: string;

  @Field(() => Int, { description: 'Days after the policy starts before this benefit may be used' })
  waitingPeriodDays!: number;
}

export const payerLoader = (ctx: SubgraphContext) => ctx.loader<string, Payer>('payer', byIds(ctx.em, Payer));
export const planLoader = (ctx: SubgraphContext) => ctx.loader<string, InsurancePlan>('insurance-plan', byIds(ctx.em, InsurancePlan));

@Resolver(() => Payer)
export class PayerResolver {
  private readonly service = new InsuranceService();

  @Query(() => PayerPage, { description: 'The payers (insurers) of the marketplace, by name; anyone signed in' })
  payers(@Args() args: PayerListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.payers(ctx, args);
  }

  @RequiresPlatformPermission('admin:insurance')
  @PayloadMutation(CreatePayerPayload, {
    description: 'Add a payer (insurer) to the marketplace; platform administrators; a bad field or a code taken is a user error',
  })
  createPayer(@Arg('input', { description: 'The payer' }) input: CreatePayerInput, @Ctx() ctx: SubgraphContext) {
    return this.service.createPayer(ctx, input);
  }
}

@Resolver(() => InsurancePlan)
export class InsurancePlanResolver {
  private readonly service = new InsuranceService();

  @Query(() => InsurancePlanPage, { description: 'Plans on sale in the insurance marketplace, by name; anyone signed in' })
  insurancePlans(@Args() args: InsurancePlanListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.plans(ctx, args);
  }

  @Query(() => InsurancePlan, { nullable: true, description: 'A plan, by id' })
  insurancePlan(@Arg('id', () => ID, { description: 'The plan id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.plan(ctx, id);
  }

  @RequiresPlatformPermission('admin:insurance')
  @Mutation(() => InsurancePlan, { description: 'Put a plan on sale; platform administrators' })
  createInsurancePlan(@Arg('input', { description: 'The plan' }) input: CreateInsurancePlanInput, @Ctx() ctx: SubgraphContext) {
    return this.service.createPlan(ctx, input);
  }

  @FieldResolver(() => Payer, { description: 'The insurer selling the plan' })
  payer(@Root() plan: InsurancePlan, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(plan.payerId);
  }

  @FieldResolver(() => Money, { description: 'Premium for one term' })
  premium(@Root() plan: InsurancePlan): Money {
    return { amount: plan.premiumAmount, currencyCode: plan.currency };
  }

  @FieldResolver(() => Money, { description: 'Overall limit per policy term' })
  coverLimit(@Root() plan: InsurancePlan): Money {
    return { amount: plan.coverLimit, currencyCode: plan.currency };
  }

  @FieldResolver(() => Money, { nullable: true, description: 'Claims above this total need an approved pre-authorization; null: never' })
  preauthorizationThreshold(@Root() plan: InsurancePlan): Money | null {
    return plan.preauthThreshold ? { amount: plan.preauthThreshold, currencyCode: plan.currency } : null;
  }

  @FieldResolver(() => [PlanBenefitView], { description: 'Benefit categories covered (at most 8); a category not listed is not covered' })
  benefits(@Root() plan: InsurancePlan): PlanBenefitView[] {
    return plan.benefits.map((b) => ({
      category: b.category,
      waitingPeriodDays: b.waitingPeriodDays,
      limit: { amount: b.limit, currencyCode: plan.currency },
      limitAmount: b.limit,
    }));
  }
}

@Resolver(() => InsurancePolicy)
export class InsurancePolicyResolver {
  private readonly service = new InsuranceService();

  @Query(() => InsurancePolicyPage, {
    description:
      "Insurance policies, `active` unless `status` says otherwise: an organization's (insurance:read), or those of your organizations and your own",
  })
  insurancePolicies(@Args() args: InsurancePolicyListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.policies(ctx, args);
  }

  @Query(() => InsurancePolicy, { nullable: true, description: 'A policy, by id' })
  insurancePolicy(@Arg('id', () => ID, { description: 'The policy id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.readablePolicy(ctx, id);
  }

  @PayloadMutation(EnrollInPlanPayload, {
    description:
      'Enroll a patient in a plan: a policy that becomes active when its first premium is paid; a bad field or a policy of the plan already open is a user error',
  })
  enrollInPlan(@Arg('input', { description: 'The plan and the patient' }) input: EnrollInPlanInput, @Ctx() ctx: SubgraphContext) {
    return this.service.enroll(ctx, input);
  }

  @Mutation(() => InsurancePolicy, {
    description: 'Cancel a policy (pending or active); the patient, or insurance:write in its organization',
  })
  cancelInsurancePolicy(@Arg('id', () => ID, { description: 'The policy id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, id);
  }

  @FieldResolver(() => InsurancePlan, { description: 'The plan' })
  plan(@Root() policy: InsurancePolicy, @Ctx() ctx: SubgraphContext) {
    return planLoader(ctx).load(policy.planId);
  }

  @FieldResolver(() => Payer, { description: "The plan's insurer" })
  payer(@Root() policy: InsurancePolicy, @Ctx() ctx: SubgraphContext) {
    return payerLoader(ctx).load(policy.payerId);
  }

  @FieldResolver(() => Money, { description: 'The premium for the term' })
  premium(@Root() policy: InsurancePolicy): Money {
    return { amount: policy.premiumAmount, currencyCode: policy.currency };
  }

  @FieldResolver(() => Boolean, { description: 'Whether the policy covers today: active, and today within its term' })
  inForce(@Root() policy: InsurancePolicy): boolean {
    return inForceOn(policy, isoDate(clock.now()));
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: 'The insured patient (from the clinical subgraph)' })
  patient(@Root() policy: InsurancePolicy) {
    return ref(policy.patientId);
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The organization that enrolled the patient' })
  organization(@Root() policy: InsurancePolicy) {
    return ref(policy.organizationId);
  }
}
