import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { OrganizationRef, ref } from '../../../shared/refs';
import { BilledPatient } from './patient-invoices.resolver';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Invoice } from './invoice.entity';
import { InvoiceService } from './invoice.service';
import { CreateInvoiceInput, InvoiceListArgs, InvoicePage } from './invoice.types';

@Resolver(() => Invoice)
export class InvoiceResolver {
  private readonly service = new InvoiceService();

  @Mutation(() => Invoice, { description: 'Create a draft invoice for an organization' })
  createOrganizationInvoice(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input') input: CreateInvoiceInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, organizationId, input);
  }

  @Query(() => InvoicePage)
  organizationInvoices(
    @Arg('organizationId', () => ID) organizationId: string,
    @Args() args: InvoiceListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @FieldResolver(() => OrganizationRef)
  organization(@Root() invoice: Invoice) {
    return ref(invoice.organizationId);
  }

  @FieldResolver(() => BilledPatient, { nullable: true })
  patient(@Root() invoice: Invoice) {
    return ref(invoice.patientId);
  }
}
