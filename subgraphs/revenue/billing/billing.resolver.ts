import { Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { Money } from '../../../shared/money';
import { can } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { RevenueOrganization } from '../organization';
import { Subscription, SubscriptionInvoice } from './subscription.entity';

export const SubscriptionPaymentStatus = enumOf(
  ['succeeded', 'failed'],
  'SubscriptionPaymentStatus',
  'How the last payment of the platform subscription went: succeeded or failed',
);

/** Subscription and payment state, as the billing provider last reported it. */
@ObjectType({ description: "The organization's platform subscription and payment state, as the billing provider last reported it" })
export class OrganizationSubscription {
  @Field(() => String, { nullable: true, description: "active, past_due, canceled, ... (the provider's words)" })
  status?: string | null;

  @Field(() => String, { nullable: true, description: "The provider's price (plan) id" })
  plan?: string | null;

  @Field(() => Date, { nullable: true, description: 'End of the period paid for' })
  currentPeriodEnd?: Date | null;

  @Field(() => SubscriptionPaymentStatus, { nullable: true, description: 'succeeded or failed' })
  lastPaymentStatus?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the provider created the last payment event applied' })
  lastPaymentAt?: Date | null;
}

/** An invoice of the platform subscription, as the billing provider last reported it. */
@ObjectType({ description: "An invoice of the organization's platform subscription, as the billing provider last reported it" })
export class SubscriptionInvoiceView {
  @Field({ description: "The provider's invoice id" })
  providerInvoiceId!: string;

  @Field(() => String, { nullable: true, description: "The provider's invoice number" })
  number!: string | null;

  @Field({ description: "draft, open, paid, uncollectible or void (the provider's words)" })
  status!: string;

  @Field(() => Money, { nullable: true, description: 'Amount due' })
  amountDue!: Money | null;

  @Field(() => Money, { nullable: true, description: 'Amount paid' })
  amountPaid!: Money | null;

  @Field(() => Date, { nullable: true, description: 'Start of the billed period' })
  periodStart!: Date | null;

  @Field(() => Date, { nullable: true, description: 'End of the billed period' })
  periodEnd!: Date | null;

  @Field(() => String, { nullable: true, description: "The provider's page for the invoice" })
  hostedUrl!: string | null;

  @Field(() => Int, { nullable: true, description: 'Payment attempts so far' })
  attemptCount!: number | null;

  @Field(() => Date, { nullable: true, description: 'When it was paid' })
  paidAt!: Date | null;

  @Field(() => Date, { description: 'When the provider created the last event applied to it' })
  lastEventAt!: Date;
}

@Resolver(() => RevenueOrganization)
export class OrganizationSubscriptionResolver {
  @FieldResolver(() => OrganizationSubscription, {
    nullable: true,
    description: 'Billing state; only for organization administrators and platform administrators (batched)',
  })
  async subscription(@Root() org: RevenueOrganization, @Ctx() ctx: SubgraphContext): Promise<OrganizationSubscription | null> {
    if (!can(ctx.viewer, 'organizations:update', org.id)) return null;
    const sub = await ctx
      .loader<string, Subscription>('organization-subscription', async (ids) => {
        const rows = await ctx.em.find(Subscription, { organizationId: { $in: [...ids] } });
        return ids.map((id) => rows.find((r) => r.organizationId === id) ?? null);
      })
      .load(org.id);
    if (!sub) return { status: null, plan: null, currentPeriodEnd: null, lastPaymentStatus: null, lastPaymentAt: null };
    return sub;
  }

  @FieldResolver(() => [SubscriptionInvoiceView], {
    nullable: true,
    description:
      'Invoices of the platform subscription, newest first (at most 24); only for organization administrators and platform administrators',
  })
  async subscriptionInvoices(@Root() org: RevenueOrganization, @Ctx() ctx: SubgraphContext): Promise<SubscriptionInvoiceView[] | null> {
    if (!can(ctx.viewer, 'organizations:update', org.id)) return null;
    const rows = await ctx.em.find(SubscriptionInvoice, { organizationId: org.id }, { orderBy: { lastEventAt: 'desc' }, limit: 24 });
    const money = (amount: string | null | undefined, currency: string | null | undefined) =>
      amount && currency ? { amount, currencyCode: currency } : null;
    return rows.map((r) => ({
      providerInvoiceId: r.providerInvoiceId,
      number: r.number ?? null,
      status: r.status,
      amountDue: money(r.amountDue, r.currency),
      amountPaid: money(r.amountPaid, r.currency),
      periodStart: r.periodStart ?? null,
      periodEnd: r.periodEnd ?? null,
      hostedUrl: r.hostedUrl ?? null,
      attemptCount: r.attemptCount ?? null,
      paidAt: r.paidAt ?? null,
      lastEventAt: r.lastEventAt,
    }));
  }
}
