import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds } from '../../../shared/model';
import { Money } from '../../../shared/money';
import { can } from '../../../shared/permissions';
import { ref } from '../../../shared/refs';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Claim } from '../claims/claim.entity';
import { readableClaim } from '../claims/claim.resolver';
import { InsurancePolicy } from '../insurance/insurance.entity';
import { Invoice } from '../invoices/invoice.entity';
import { BilledPatient } from '../invoices/patient-invoices.resolver';
import { RevenueOrganization } from '../organization';
import { MobileMoneyService } from './mobile-money.service';
import { MobileMoneyPayment, Payment, providerName } from './payment.entity';
import { PaymentService } from './payment.service';
import { InitiateMobileMoneyPaymentInput, PaymentListArgs, PaymentPage, RecordPaymentInput } from './payment.types';

@Resolver(() => Payment)
export class PaymentResolver {
  private readonly service = new PaymentService();

  @RequiresOrgPermission('payments:read')
  @Query(() => PaymentPage, { description: "An organization's payments received, newest first (payments:read)" })
  organizationPayments(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: PaymentListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.list(ctx, organizationId, args);
  }

  @RequiresOrgPermission('payments:write')
  @Mutation(() => Payment, {
    description: 'Record a payment the organization received, against an invoice or an approved claim (payments:write)',
  })
  recordOrganizationPayment(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'The payment' }) input: RecordPaymentInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.record(ctx, organizationId, input);
  }

  @FieldResolver(() => Money, { description: 'How much' })
  amount(@Root() payment: Payment): Money {
    return { amount: payment.amount, currencyCode: payment.currency };
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The organization that received it' })
  organization(@Root() payment: Payment) {
    return ref(payment.organizationId);
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: 'The patient (from the clinical subgraph)' })
  patient(@Root() payment: Payment) {
    return ref(payment.patientId);
  }

  @FieldResolver(() => Invoice, { nullable: true, description: 'The invoice it paid, for invoices:read members' })
  async invoice(@Root() payment: Payment, @Ctx() ctx: SubgraphContext) {
    if (!payment.invoiceId || !can(ctx.viewer, 'invoices:read', payment.organizationId)) return null;
    return ctx.loader<string, Invoice>('invoice', byIds(ctx.em, Invoice)).load(payment.invoiceId);
  }

  @FieldResolver(() => Claim, { nullable: true, description: 'The claim it paid, for claims:read members' })
  claim(@Root() payment: Payment, @Ctx() ctx: SubgraphContext) {
    return readableClaim(ctx, payment.claimId);
  }

  @FieldResolver(() => MobileMoneyPayment, { nullable: true, description: 'The mobile money payment it came from' })
  mobileMoneyPayment(@Root() payment: Payment, @Ctx() ctx: SubgraphContext) {
    return payment.mobileMoneyPaymentId ? mobileMoneyLoader(ctx).load(payment.mobileMoneyPaymentId) : null;
  }
}

export const mobileMoneyLoader = (ctx: SubgraphContext) =>
  ctx.loader<string, MobileMoneyPayment>('mobile-money-payment', byIds(ctx.em, MobileMoneyPayment));

@Resolver(() => MobileMoneyPayment)
export class MobileMoneyPaymentResolver {
  private readonly service = new MobileMoneyService();

  @Mutation(() => MobileMoneyPayment, {
    description:
      'Start a mobile money payment (pending until the provider answers); initiating again for an order in flight answers the first',
  })
  initiateMobileMoneyPayment(
    @Arg('input', { description: 'The payment' }) input: InitiateMobileMoneyPaymentInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.initiate(ctx, input);
  }

  @Query(() => MobileMoneyPayment, {
    nullable: true,
    description: 'The newest mobile money payment of an order that you may see (its `state`)',
  })
  mobileMoneyPaymentStatus(
    @Arg('orderId', { description: 'The order id the payment was initiated with' }) orderId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.status(ctx, orderId);
  }

  @FieldResolver(() => String, {
    description:
      'The provider as the REST API and the events name it: mobile-money-a, mobile-money-b or mobile-money-c (`provider` in the words of the enum)',
  })
  providerName(@Root() payment: MobileMoneyPayment): string {
    return providerName(payment.provider);
  }

  @FieldResolver(() => Money, { description: 'How much' })
  amount(@Root() payment: MobileMoneyPayment): Money {
    return { amount: payment.amount, currencyCode: payment.currency };
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The organization paid' })
  organization(@Root() payment: MobileMoneyPayment) {
    return ref(payment.organizationId);
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: 'The patient paying or paid for (from the clinical subgraph)' })
  patient(@Root() payment: MobileMoneyPayment) {
    return ref(payment.patientId);
  }
}

@Resolver(() => InsurancePolicy)
export class PolicyPremiumResolver {
  @FieldResolver(() => MobileMoneyPayment, { nullable: true, description: 'The payment of the first premium' })
  premiumPayment(@Root() policy: InsurancePolicy, @Ctx() ctx: SubgraphContext) {
    return policy.premiumPaymentId ? mobileMoneyLoader(ctx).load(policy.premiumPaymentId) : null;
  }
}

@Resolver(() => Invoice)
export class InvoicePaymentsResolver {
  @FieldResolver(() => [Payment], {
    description: 'Payments of the invoice, oldest first (at most 100; payments:read in its organization, else empty)',
  })
  async payments(@Root() invoice: Invoice, @Ctx() ctx: SubgraphContext): Promise<Payment[]> {
    if (!can(ctx.viewer, 'payments:read', invoice.organizationId)) return [];
    return ctx.em.find(Payment, { invoiceId: invoice.id }, { orderBy: { receivedAt: 'asc' }, limit: 100 });
  }
}
