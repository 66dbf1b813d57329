import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { normalizeAmount, toMinor } from '../../../shared/money';
import { requireOrgPermission } from '../../../shared/permissions';
import { requirePatientOf } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Claim } from '../claims/claim.entity';
import { applyClaimPayment, claimPaymentProblem } from '../claims/claim.service';
import { Invoice } from '../invoices/invoice.entity';
import { applyInvoicePayment, invoicePaymentProblem } from '../invoices/invoice.service';
import type { Payment } from './payment.entity';
import { Payment as PaymentEntity } from './payment.entity';
import { recordPayment } from './payment.ledger';
import type { PaymentListArgs, RecordPaymentInput } from './payment.types';

export class PaymentService {
  /**
   * Records a payment the organization received (payments:write). Against an invoice: in its currency, not more than
   * its amount due; the invoice becomes partially paid or paid. Against an approved claim: in its currency; the
   * claim becomes paid (reconciliation shows a short payment). One of the two at most.
   */
  async record(ctx: SubgraphContext, organizationId: string, input: RecordPaymentInput): Promise<Payment> {
    if (!isUuid(organizationId)) throw errors.notFound('Organization');
    const viewer = requireOrgPermission(ctx.viewer, organizationId, 'payments:write');
    const amount = toMinor(input.amount, input.currency);
    if (amount <= 0n) throw errors.invalidField('amount', 'must be above zero');
    if (input.invoiceId && input.claimId)
      throw errors.invalidField('claimId', 'must not be given with invoiceId: a payment pays one of them');
    let patientId: string | null = null;
    let invoice: Invoice | null = null;
    let claim: Claim | null = null;
    if (input.invoiceId !== undefined && input.invoiceId !== null) {
      invoice = isUuid(input.invoiceId) ? await ctx.em.findOne(Invoice, { id: input.invoiceId, organizationId }) : null;
      if (!invoice) throw errors.invalidField('invoiceId', 'must be an invoice of this organization');
      const problem = invoicePaymentProblem(invoice, amount, input.currency);
      if (problem) throw problem.field ? errors.invalidField(problem.field, problem.message) : errors.conflict(problem.message);
      patientId = invoice.patientId ?? null;
    }
    if (input.claimId !== undefined && input.claimId !== null) {
      claim = isUuid(input.claimId) ? await ctx.em.findOne(Claim, { id: input.claimId, organizationId }) : null;
      if (!claim) throw errors.invalidField('claimId', 'must be a claim of this organization');
      const problem = claimPaymentProblem(claim, input.currency);
      if (problem) throw problem.field ? errors.invalidField(problem.field, problem.message) : errors.conflict(problem.message);
      patientId = claim.patientId;
    }
    if (input.patientId !== undefined && input.patientId !== null) {
      if (patientId && input.patientId !== patientId) throw errors.invalidField('patientId', 'must be the patient of the invoice or claim');
      await requirePatientOf(ctx, input.patientId, organizationId);
      patientId = input.patientId;
    }
    const receivedAt = input.receivedAt ?? clock.now();
    return ctx.em.transactional(async (em) => {
      if (invoice) await applyInvoicePayment(em, invoice.id, amount, input.currency, receivedAt);
      if (claim) {
        const locked = await em.findOneOrFail(Claim, { id: claim.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        await applyClaimPayment(em, locked, amount, receivedAt, input.reference ?? null);
      }
      return recordPayment(em, {
        organizationId,
        method: input.method,
        amount: normalizeAmount(input.amount, input.currency),
        currency: input.currency,
        patientId,
        invoiceId: invoice?.id ?? null,
        claimId: claim?.id ?? null,
        reference: input.reference?.trim() ?? null,
        payerName: input.payerName?.trim() ?? null,
        receivedAt,
        recordedBy: viewer.userId,
        notes: input.notes?.trim() ?? null,
      });
    });
  }

  /** The organization's payments, newest first (payments:read). */
  async list(ctx: SubgraphContext, organizationId: string, args: PaymentListArgs): Promise<PageResult<Payment>> {
    if (!isUuid(organizationId)) throw errors.notFound('Organization');
    requireOrgPermission(ctx.viewer, organizationId, 'payments:read');
    const where: FilterQuery<Payment> = { organizationId };
    if (args.method) where.method = args.method;
    for (const key of ['invoiceId', 'claimId'] as const) {
      const value = args[key];
      if (value === undefined || value === null) continue;
      if (!isUuid(value)) throw errors.invalidField(key, `must be ${key === 'invoiceId' ? 'an invoice' : 'a claim'} id`);
      where[key] = value;
    }
    return paginate(ctx.em, PaymentEntity, where, args, { receivedAt: 'desc', id: 'asc' });
  }
}
