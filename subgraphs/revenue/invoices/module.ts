import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { Invoice } from './invoice.entity';
import { INVOICE_CREATED, INVOICE_PAID } from './invoice.events';
import { InvoiceResolver, OrganizationInvoicesResolver } from './invoice.resolver';
import { PatientInvoicesResolver } from './patient-invoices.resolver';

export default defineModule({
  name: 'invoices',
  description:
    "An organization's invoices (also the revenue cycle's): lines with discounts and tax in exact decimal amounts, totals that are the sum of their lines, paid in part or in full by payments",
  entities: [Invoice],
  resolvers: [
    referenceFields(Invoice, { createdByUser: { id: 'createdBy', type: 'User' } }),
    InvoiceResolver,
    PatientInvoicesResolver,
    OrganizationInvoicesResolver,
  ],
  references: { Patient: PatientInvoicesResolver.resolveReference },
  topics: [INVOICE_CREATED, INVOICE_PAID],
});
