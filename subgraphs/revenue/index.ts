import { Counter } from '../../shared/counters';
import { OutboxEvent } from '../../shared/outbox';
import type { SubgraphDefinition } from '../../shared/subgraph';
import { Invoice } from './invoices/invoice.entity';
import { InvoiceResolver } from './invoices/invoice.resolver';
import { PatientInvoicesResolver } from './invoices/patient-invoices.resolver';
import { migrations } from './migrations';

/** Revenue cycle: invoices, payments, claims. */
export const revenueSubgraph: SubgraphDefinition = {
  name: 'revenue',
  entities: [Invoice, Counter, OutboxEvent],
  migrations,
  resolvers: [InvoiceResolver, PatientInvoicesResolver],
  references: {
    Patient: PatientInvoicesResolver.resolveReference,
  },
};
