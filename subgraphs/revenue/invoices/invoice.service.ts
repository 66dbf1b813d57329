import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { amountProblem, applyRate, fromMinor, toMinor } from '../../../shared/money';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { can, canSeeOrganization, organizationsWith, requireOrgPermission, requireViewer } from '../../../shared/permissions';
import { requirePatientOf } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { Claim } from '../claims/claim.entity';
import { INVOICE, Invoice, InvoiceStatus, type InvoiceLine } from './invoice.entity';
import { INVOICE_CREATED, INVOICE_PAID } from './invoice.events';
import type { CreateInvoiceInput, InvoiceListArgs, RcmInvoiceListArgs } from './invoice.types';
import { isThePatient, patientFacts } from './patient-lookup';

/** "16" percent as the rate 0.16 ("7.25" → "0.0725"), exactly: the decimal point moves two places. */
export function percentToRate(percent: string): string {
  const [whole, fraction = ''] = percent.split('.');
  const padded = whole.padStart(3, '0');
  return `${padded.slice(0, -2).replace(/^0+(?=\d)/, '')}.${padded.slice(-2)}${fraction}`;
}

/**
 * The lines of an invoice with their amounts computed exactly in minor units: amount = quantity × unit price, less
 * the discount, plus tax at the line's rate (half-even to the minor unit). Every total is the sum of the lines.
 */
export function priceLines(input: CreateInvoiceInput): {
  items: InvoiceLine[];
  subtotal: string;
  discountTotal: string;
  taxTotal: string;
  totalAmount: string;
} {
  const { currency } = input;
  const issues: FieldIssue[] = [];
  input.items.forEach((line, i) => {
    const price = amountProblem(line.unitPrice, currency);
    if (price) issues.push({ field: `items.${i}.unitPrice`, message: price });
    const discount = line.discount === undefined || line.discount === null ? null : amountProblem(line.discount, currency);
    if (discount) issues.push({ field: `items.${i}.discount`, message: discount });
  });
  if (issues.length) throw errors.validation(issues);
  let subtotal = 0n;
  let discounts = 0n;
  let taxes = 0n;
  const items = input.items.map((line, i) => {
    const unitPrice = toMinor(line.unitPrice, currency, `items.${i}.unitPrice`);
    const amount = unitPrice * BigInt(line.quantity);
    const discount = line.discount ? toMinor(line.discount, currency, `items.${i}.discount`) : 0n;
    if (discount > amount) throw errors.invalidField(`items.${i}.discount`, 'must not exceed quantity × unit price');
    const taxRate = line.taxRate ?? '0';
    const tax = applyRate(amount - discount, percentToRate(taxRate), currency);
    subtotal += amount;
    discounts += discount;
    taxes += tax;
    return {
      description: line.description.trim(),
      code: line.code?.trim() ?? null,
      quantity: line.quantity,
      unitPrice: fromMinor(unitPrice, currency),
      amount: fromMinor(amount, currency),
      discount: fromMinor(discount, currency),
      taxRate,
      taxAmount: fromMinor(tax, currency),
      total: fromMinor(amount - discount + tax, currency),
    };
  });
  return {
    items,
    subtotal: fromMinor(subtotal, currency),
    discountTotal: fromMinor(discounts, currency),
    taxTotal: fromMinor(taxes, currency),
    totalAmount: fromMinor(subtotal - discounts + taxes, currency),
  };
}

export const amountDue = (invoice: Invoice): bigint =>
  toMinor(invoice.totalAmount, invoice.currency) - toMinor(invoice.amountPaid, invoice.currency);

export class InvoiceService {
  /** Creates a draft invoice numbered INV-000001 onwards per organization; totals are computed exactly. */
  async create(ctx: SubgraphContext, organizationId: string, input: CreateInvoiceInput): Promise<Invoice> {
    if (!isUuid(organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
    const viewer = requireOrgPermission(ctx.viewer, organizationId, 'invoices:write');
    if (input.patientId !== undefined && input.patientId !== null) await requirePatientOf(ctx, input.patientId, organizationId);
    const priced = priceLines(input);
    if (input.claimId !== undefined && input.claimId !== null) {
      if (!isUuid(input.claimId)) throw errors.invalidField('claimId', 'must be a claim id');
      const claim = await ctx.em.findOne(Claim, { id: input.claimId, organizationId });
      if (!claim) throw errors.invalidField('claimId', 'must be a claim of this organization');
      if (input.patientId && claim.patientId !== input.patientId)
        throw errors.invalidField('claimId', 'must be a claim of the same patient');
      if (claim.currency !== input.currency) throw errors.invalidField('currency', `must be the claim's currency (${claim.currency})`);
    }
    return ctx.em.transactional(async (em) => {
      const number = formatNumber('INV', await nextCounterValue(em, 'invoice', organizationId));
      const invoice = em.create(Invoice, {
        organizationId,
        patientId: input.patientId ?? null,
        number,
        currency: input.currency,
        ...priced,
        amountPaid: fromMinor(0n, input.currency),
        claimId: input.claimId ?? null,
        dueDate: input.dueDate ?? null,
        notes: input.notes?.trim() ?? null,
        createdBy: viewer.userId,
      });
      emitEvent(em, 'revenue', INVOICE_CREATED, {
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
    if (!isUuid(organizationId)) throw errors.notFound('Organization');
    requireOrgPermission(ctx.viewer, organizationId, 'invoices:read');
    const where: FilterQuery<Invoice> = { organizationId };
    if (args.status) where.status = args.status;
    return paginate(ctx.em, Invoice, where, args);
  }

  /**
   * Invoices the caller may read: one organization's (`organizationId`, invoices:read there) or those of every
   * organization where the caller holds invoices:read; platform administrators see all.
   */
  async list(ctx: SubgraphContext, args: RcmInvoiceListArgs): Promise<PageResult<Invoice>> {
    const viewer = requireViewer(ctx.viewer);
    const where: FilterQuery<Invoice>[] = [];
    if (args.organizationId !== undefined && args.organizationId !== null) {
      if (!isUuid(args.organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
      requireOrgPermission(viewer, args.organizationId, 'invoices:read');
      where.push({ organizationId: args.organizationId });
    } else {
      const orgs = organizationsWith(viewer, 'invoices:read');
      if (orgs && !orgs.length) return { items: [], total: 0, page: args.page, limit: args.limit };
      if (orgs) where.push({ organizationId: { $in: orgs } });
    }
    for (const key of ['patientId', 'claimId'] as const) {
      const value = args[key];
      if (value === undefined || value === null) continue;
      if (!isUuid(value)) throw errors.invalidField(key, `must be a ${key === 'patientId' ? 'patient' : 'claim'} id`);
      where.push({ [key]: value });
    }
    if (args.status) where.push({ status: args.status });
    return paginate(ctx.em, Invoice, where.length ? { $and: where } : {}, args);
  }

  /** Members with invoices:read in its organization, the billed patient, platform administrators. */
  async get(ctx: SubgraphContext, id: string): Promise<Invoice> {
    const viewer = requireViewer(ctx.viewer);
    const invoice = isUuid(id) ? await ctx.em.findOne(Invoice, { id }) : null;
    if (!invoice) throw errors.notFound('Invoice');
    if (isPlatformAdmin(viewer) || can(viewer, 'invoices:read', invoice.organizationId)) return invoice;
    if (invoice.patientId && isThePatient(ctx, await patientFacts(ctx, invoice.patientId))) return invoice;
    if (canSeeOrganization(viewer, invoice.organizationId)) throw errors.forbidden();
    throw errors.notFound('Invoice');
  }

  async issue(ctx: SubgraphContext, id: string): Promise<Invoice> {
    return this.transition(ctx, id, (invoice) => {
      invoice.status = INVOICE.next(invoice.status, 'issue');
      invoice.issuedAt = clock.now();
    });
  }

  async void(ctx: SubgraphContext, id: string): Promise<Invoice> {
    return this.transition(ctx, id, (invoice) => {
      if (toMinor(invoice.amountPaid, invoice.currency) > 0n) throw errors.conflict('Cannot void an invoice that has payments');
      invoice.status = INVOICE.next(invoice.status, 'void');
      invoice.voidedAt = clock.now();
    });
  }

  private async transition(ctx: SubgraphContext, id: string, change: (invoice: Invoice) => void): Promise<Invoice> {
    const found = await this.get(ctx, id);
    requireOrgPermission(ctx.viewer, found.organizationId, 'invoices:write');
    return ctx.em.transactional(async (em) => {
      const invoice = await em.findOneOrFail(Invoice, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      change(invoice);
      return invoice;
    });
  }
}

/**
 * Why an invoice cannot take a payment of `amount` minor units in `currency`, or null when it can: void and paid
 * invoices take none, the currency is the invoice's, and a payment never exceeds the amount due.
 */
export function invoicePaymentProblem(
  invoice: Invoice,
  amount: bigint,
  currency: string,
): { field: 'amount' | 'currency' | null; message: string } | null {
  if (invoice.status === InvoiceStatus.void) return { field: null, message: `Invoice ${invoice.number} is void` };
  if (invoice.status === InvoiceStatus.paid) return { field: null, message: `Invoice ${invoice.number} is already paid` };
  if (currency !== invoice.currency) return { field: 'currency', message: `must be the invoice's currency (${invoice.currency})` };
  const due = amountDue(invoice);
  if (amount > due)
    return { field: 'amount', message: `must not exceed the amount due (${fromMinor(due, invoice.currency)} ${invoice.currency})` };
  return null;
}

/**
 * Applies a payment to an invoice, in the caller's transaction and under the invoice's row lock: the amount paid
 * grows, and the invoice becomes `partially_paid`, or `paid` (once, with `invoice_paid`) when nothing is due.
 * A payment the invoice can no longer take (paid meanwhile by another payment) is refused with CONFLICT.
 */
export async function applyInvoicePayment(
  em: EntityManager,
  invoiceId: string,
  amount: bigint,
  currency: string,
  at: Date,
): Promise<Invoice> {
  const invoice = await em.findOneOrFail(Invoice, { id: invoiceId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const problem = invoicePaymentProblem(invoice, amount, currency);
  if (problem) throw errors.conflict(problem.field ? `Payment ${problem.field} ${problem.message}` : problem.message);
  const paid = toMinor(invoice.amountPaid, invoice.currency) + amount;
  invoice.amountPaid = fromMinor(paid, invoice.currency);
  if (paid >= toMinor(invoice.totalAmount, invoice.currency)) {
    invoice.status = INVOICE.next(invoice.status, 'settle');
    invoice.paidAt = at;
    emitEvent(em, 'revenue', INVOICE_PAID, {
      invoice_id: invoice.id,
      organization_id: invoice.organizationId,
      patient_id: invoice.patientId ?? null,
      total_amount: invoice.totalAmount,
      currency: invoice.currency,
      paid_at: at.toISOString(),
    });
  } else {
    invoice.status = INVOICE.next(invoice.status, 'pay_part');
  }
  return invoice;
}
