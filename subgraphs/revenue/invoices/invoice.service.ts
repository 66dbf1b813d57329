import type { FilterQuery } from '@mikro-orm/core';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import { errors } from '../../../shared/errors';
import { fromMinor, toMinor } from '../../../shared/money';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { recordEvent } from '../../../shared/outbox';
import { requireOrgPermission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Invoice } from './invoice.entity';
import type { CreateInvoiceInput, InvoiceListArgs } from './invoice.types';

export class InvoiceService {
  /** Creates a draft invoice numbered INV-000001 onwards per organization; totals are computed exactly. */
  async create(ctx: SubgraphContext, organizationId: string, input: CreateInvoiceInput): Promise<Invoice> {
    const viewer = requireOrgPermission(ctx.viewer, organizationId, 'invoices:write');
    if (input.patientId !== undefined && input.patientId !== null && !isUuid(input.patientId)) {
      throw errors.invalidField('patientId', 'must be a patient id');
    }
    const items = input.items.map((line) => {
      const amount = fromMinor(toMinor(line.unitPrice) * BigInt(line.quantity));
      return { description: line.description.trim(), quantity: line.quantity, unitPrice: fromMinor(toMinor(line.unitPrice)), amount };
    });
    const total = items.reduce((sum, line) => sum + toMinor(line.amount), 0n);
    return ctx.em.transactional(async (em) => {
      const number = formatNumber('INV', await nextCounterValue(em, 'invoice', organizationId));
      const invoice = em.create(Invoice, {
        organizationId,
        patientId: input.patientId ?? null,
        number,
        currency: input.currency,
        items,
        totalAmount: fromMinor(total),
        dueDate: input.dueDate ?? null,
        notes: input.notes ?? null,
        createdBy: viewer.userId,
      });
      recordEvent(em, 'revenue', 'svc.billing.invoice_created', {
        invoice_id: invoice.id,
        organization_id: organizationId,
        patient_id: invoice.patientId ?? null,
        total_amount: invoice.totalAmount,
        currency: invoice.currency,
      });
      return invoice;
    });
  }

  async listForOrganization(ctx: SubgraphContext, organizationId: string, args: InvoiceListArgs): Promise<PageResult<Invoice>> {
    requireOrgPermission(ctx.viewer, organizationId, 'invoices:read');
    const where: FilterQuery<Invoice> = { organizationId };
    if (args.status) where.status = args.status;
    return paginate(ctx.em, Invoice, where, args);
  }
}
