import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { fromMinor, moneyField } from '../../../shared/money';
import { ref } from '../../../shared/refs';
import { RevenueOrganization } from '../organization';
import { BilledPatient } from './patient-invoices.resolver';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Invoice, InvoiceLine } from './invoice.entity';
import { amountDue, InvoiceService } from './invoice.service';
import { CreateInvoiceInput, InvoiceListArgs, InvoicePage, RcmInvoiceListArgs } from './invoice.types';

moneyField(Invoice, 'amountDue', {
  description: 'Total less what was paid',
  currency: 'currency',
  amount: (invoice) => fromMinor(amountDue(invoice), invoice.currency),
});

@Resolver(() => Invoice)
export class InvoiceResolver {
  private readonly service = new InvoiceService();

  @RequiresOrgPermission('invoices:write')
  @Mutation(() => Invoice, {
    description: 'Create a draft invoice for an organization (invoices:write): lines with discounts and tax, totals computed exactly',
  })
  createOrganizationInvoice(
    @Arg('organizationId', () => ID, { description: 'The organization issuing the invoice' }) organizationId: string,
    @Arg('input', { description: 'The invoice' }) input: CreateInvoiceInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, organizationId, input);
  }

  @RequiresOrgPermission('invoices:read')
  @Query(() => InvoicePage, { description: "An organization's invoices, newest first (invoices:read)" })
  organizationInvoices(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: InvoiceListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @Query(() => InvoicePage, {
    description: 'Invoices of the organizations where you hold invoices:read (all for platform administrators), newest first',
  })
  invoices(@Args() args: RcmInvoiceListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Invoice, { nullable: true, description: 'An invoice: for invoices:read members of its organization and the billed patient' })
  invoice(@Arg('id', () => ID, { description: 'The invoice id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Invoice, { description: 'Issue a draft invoice (invoices:write)' })
  issueInvoice(@Arg('id', () => ID, { description: 'The invoice id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.issue(ctx, id);
  }

  @Mutation(() => Invoice, { description: 'Void a draft or issued invoice without payments (invoices:write)' })
  voidInvoice(@Arg('id', () => ID, { description: 'The invoice id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.void(ctx, id);
  }

  @FieldResolver(() => [InvoiceLine], { description: 'The lines (1 to 200)' })
  items(@Root() invoice: Invoice): InvoiceLine[] {
    return invoice.items.map((line) => ({ ...line, currency: invoice.currency }));
  }

  @FieldResolver(() => RevenueOrganization, { nullable: true, description: 'The organization issuing the invoice' })
  organization(@Root() invoice: Invoice) {
    return ref(invoice.organizationId);
  }

  @FieldResolver(() => BilledPatient, { nullable: true, description: 'The patient billed (from the clinical subgraph)' })
  patient(@Root() invoice: Invoice) {
    return ref(invoice.patientId);
  }
}

/** `organization { invoices }`: the rule of `organizationInvoices` (invoices:read there), one organization per call. */
@Resolver(() => RevenueOrganization)
export class OrganizationInvoicesResolver {
  private readonly service = new InvoiceService();

  @FieldResolver(() => InvoicePage, {
    nullable: true,
    description: "The organization's invoices, newest first (invoices:read); as organizationInvoices",
  })
  invoices(@Root() org: RevenueOrganization, @Args() args: InvoiceListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listForOrganization(ctx, org.id, args);
  }
}
