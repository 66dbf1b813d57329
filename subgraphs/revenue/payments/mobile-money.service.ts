import { LockMode } from '@mikro-orm/core';
import { z } from 'zod';
import { callbackUrl } from '../../../shared/adapters/mobile-money';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { AppError, errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { isUuid } from '../../../shared/model';
import { normalizeAmount, toMinor } from '../../../shared/money';
import { emitEvent } from '../../../shared/outbox';
import { can, canSeeOrganization, requireViewer } from '../../../shared/permissions';
import { ownPatientId } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { InsurancePolicy, PolicyStatus } from '../insurance/insurance.entity';
import { activatePolicy } from '../insurance/insurance.service';
import { Invoice } from '../invoices/invoice.entity';
import { applyInvoicePayment, invoicePaymentProblem } from '../invoices/invoice.service';
import { isThePatient, patientFacts } from '../invoices/patient-lookup';
import {
  MOBILE_MONEY,
  MobileMoneyPayment,
  MobileMoneyProvider,
  MobileMoneyState,
  PaymentMethod,
  PaymentPurpose,
  PROVIDER_NAMES,
  providerName,
  providerOf,
} from './payment.entity';
import { PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_INITIATED } from './payment.events';
import { recordPayment } from './payment.ledger';
import type { InitiateMobileMoneyPaymentInput } from './payment.types';
import { checkRequest, PROVIDERS, type ProviderStatus } from './providers/provider';
import { mobileMoneyAdapter } from './providers/sandbox';

interface Purpose {
  orderKey: string;
  purposeType: PaymentPurpose | null;
  purposeId: string | null;
  organizationId: string | null;
  patientId: string | null;
}

const orgMemberOrAdmin = (viewer: Viewer, organizationId: string | null | undefined) =>
  isPlatformAdmin(viewer) || (!!organizationId && can(viewer, 'payments:write', organizationId));

const refuse = (viewer: Viewer, organizationId: string | null | undefined, what: string): never => {
  throw organizationId && canSeeOrganization(viewer, organizationId) ? errors.forbidden() : errors.notFound(what);
};

/** What an `order_id` pays, and whether the caller may pay it. */
async function purposeOf(ctx: SubgraphContext, viewer: Viewer, input: InitiateMobileMoneyPaymentInput, amount: bigint): Promise<Purpose> {
  const { orderId, currency } = input;
  if (isUuid(orderId)) {
    const invoice = await ctx.em.findOne(Invoice, { id: orderId });
    if (invoice) {
      const patient = invoice.patientId ? await patientFacts(ctx, invoice.patientId) : null;
      if (!orgMemberOrAdmin(viewer, invoice.organizationId) && !isThePatient(ctx, patient))
        refuse(viewer, invoice.organizationId, 'Invoice');
      const problem = invoicePaymentProblem(invoice, amount, currency);
      if (problem) throw problem.field ? errors.invalidField(problem.field, problem.message) : errors.conflict(problem.message);
      return {
        orderKey: `invoice:${invoice.id}`,
        purposeType: PaymentPurpose.invoice,
        purposeId: invoice.id,
        organizationId: invoice.organizationId,
        patientId: invoice.patientId ?? null,
      };
    }
    const policy = await ctx.em.findOne(InsurancePolicy, { id: orderId });
    if (policy) {
      const self = !viewer.apiKey && (await ownPatientId(ctx)) === policy.patientId;
      const staff =
        isPlatformAdmin(viewer) ||
        (!!policy.organizationId &&
          (can(viewer, 'insurance:write', policy.organizationId) || can(viewer, 'payments:write', policy.organizationId)));
      if (!self && !staff) refuse(viewer, policy.organizationId, 'Insurance policy');
      if (policy.status !== PolicyStatus.pending_payment)
        throw errors.conflict(`Policy ${policy.policyNumber} is ${policy.status.replace('_', ' ')}: its premium is not due`);
      if (currency !== policy.currency) throw errors.invalidField('currency', `must be the policy's currency (${policy.currency})`);
      if (amount !== toMinor(policy.premiumAmount, policy.currency))
        throw errors.invalidField('amount', `must be the premium (${policy.premiumAmount} ${policy.currency})`);
      return {
        orderKey: `policy:${policy.id}`,
        purposeType: PaymentPurpose.premium,
        purposeId: policy.id,
        organizationId: policy.organizationId ?? null,
        patientId: policy.patientId,
      };
    }
  }
  if (viewer.apiKey) {
    const org = viewer.apiKey.organizationId;
    if (!can(viewer, 'payments:write', org)) throw errors.forbidden();
    return { orderKey: `org:${org}:${orderId}`, purposeType: null, purposeId: null, organizationId: org, patientId: null };
  }
  return { orderKey: `user:${viewer.userId}:${orderId}`, purposeType: null, purposeId: null, organizationId: null, patientId: null };
}

const sameRequest = (p: MobileMoneyPayment, input: { provider: string; phone: string; amount: string; currency: string }) =>
  p.provider === input.provider &&
  p.phone === input.phone &&
  p.currency === input.currency &&
  toMinor(p.amount, p.currency) === toMinor(input.amount, input.currency);

const payload = (p: MobileMoneyPayment) => ({
  payment_id: p.id,
  order_id: p.orderId,
  provider: providerName(p.provider),
  amount: p.amount,
  currency: p.currency,
  purpose_type: p.purposeType ?? null,
  purpose_id: p.purposeId ?? null,
  organization_id: p.organizationId ?? null,
});

/**
 * The payment already in flight for an order: a pending one, or, for what is paid once (a premium, a supply
 * order, a client's order), a completed one. An invoice may take several payments while something is due.
 */
async function inFlight(em: EntityManager, orderKey: string, purposeType: PaymentPurpose | null): Promise<MobileMoneyPayment | null> {
  const states =
    purposeType === PaymentPurpose.invoice ? [MobileMoneyState.pending] : [MobileMoneyState.pending, MobileMoneyState.completed];
  return em.findOne(MobileMoneyPayment, { orderKey, state: { $in: states } }, { orderBy: { createdAt: 'desc' } });
}

export class MobileMoneyService {
  /**
   * Starts a mobile money payment (pending) and sends its request to the provider, in the transaction that records
   * it (a request the provider refuses is recorded failed); when the provider cannot be reached, the bus sends it
   * again. One payment per order is in flight: initiating again answers the first (409 if the second asks
   * something else).
   */
  async initiate(ctx: SubgraphContext, input: InitiateMobileMoneyPaymentInput): Promise<MobileMoneyPayment> {
    const viewer = requireViewer(ctx.viewer);
    const { country } = checkRequest(input.provider, input.phone, input.amount, input.currency);
    const amount = normalizeAmount(input.amount, input.currency);
    const purpose = await purposeOf(ctx, viewer, input, toMinor(amount, input.currency));
    const existing = await inFlight(ctx.em, purpose.orderKey, purpose.purposeType);
    const answerExisting = (found: MobileMoneyPayment) => {
      if (sameRequest(found, { ...input, amount })) return found;
      throw errors.conflict(
        found.state === MobileMoneyState.completed
          ? `Order ${input.orderId} is already paid`
          : `A payment for order ${input.orderId} is pending (${providerName(found.provider)}, ${found.amount} ${found.currency}, ${found.phone})`,
      );
    };
    if (existing) return answerExisting(existing);
    try {
      return await ctx.em.transactional(async (em) => {
        const payment = em.create(MobileMoneyPayment, {
          orderId: input.orderId,
          ...purpose,
          provider: input.provider,
          phone: input.phone,
          country,
          amount,
          currency: input.currency,
          description: input.description?.trim() ?? null,
          initiatedBy: viewer.apiKey ? null : viewer.userId,
        });
        emitEvent(em, 'revenue', PAYMENT_INITIATED, payload(payment));
        await em.flush();
        // The request goes to the provider now, so the answer carries its reference; if the provider cannot be
        // reached, the payment stays pending and the bus (payment_initiated) sends it again.
        await sendToProvider(em, payment.id).catch((err) =>
          logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'mobile money request not sent; the bus will retry'),
        );
        return payment;
      });
    } catch (err) {
      // Two initiates of one order at the same moment: the unique index let one through; answer it.
      if ((err as { name?: string }).name !== 'UniqueConstraintViolationException') throw err;
      const winner = await inFlight(ctx.em.fork(), purpose.orderKey, purpose.purposeType);
      if (!winner) throw err;
      return answerExisting(winner);
    }
  }

  /**
   * The newest payment of an order that the caller may see: they initiated it, they hold payments:read in its
   * organization, they are its patient, or a platform administrator.
   */
  async status(ctx: SubgraphContext, orderId: string): Promise<MobileMoneyPayment> {
    const viewer = requireViewer(ctx.viewer);
    if (!orderId || orderId.length > 100) throw errors.notFound('Payment');
    const candidates = await ctx.em.find(MobileMoneyPayment, { orderId }, { orderBy: { createdAt: 'desc' }, limit: 50 });
    let own: string | null | undefined;
    for (const p of candidates) {
      if (isPlatformAdmin(viewer)) return p;
      if (!viewer.apiKey && p.initiatedBy === viewer.userId) return p;
      if (p.organizationId && can(viewer, 'payments:read', p.organizationId)) return p;
      if (p.patientId) {
        own = own === undefined ? await ownPatientId(ctx) : own;
        if (own === p.patientId) return p;
      }
    }
    throw errors.notFound('Payment');
  }
}

/** A provider that turned a request down (not a network failure, which is retried). */
export class ProviderRefused extends Error {}

/**
 * Sends a pending payment's request to its provider, once: under the payment's row lock, and only while it has not
 * been sent (initiate sends at once; the bus consumer sends what initiate could not, and supply orders).
 */
export async function sendToProvider(em: EntityManager, paymentId: string): Promise<void> {
  const payment = await em.findOne(MobileMoneyPayment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payment || payment.state !== MobileMoneyState.pending || payment.requestedAt) return;
  const adapter = mobileMoneyAdapter(payment.provider);
  try {
    const { providerReference } = await adapter.requestPayment({
      paymentId: payment.id,
      phone: payment.phone,
      amount: payment.amount,
      currency: payment.currency,
      description: payment.description ?? `Order ${payment.orderId}`,
      orderId: payment.orderId,
      callbackUrl: await callbackUrl(PROVIDERS[payment.provider].channel, payment.id, { sandbox: adapter.sandbox }),
    });
    payment.providerReference = providerReference;
    payment.requestedAt = clock.now();
  } catch (err) {
    if (!(err instanceof ProviderRefused)) throw err;
    await settle(
      em,
      payment.id,
      { state: MobileMoneyState.failed, reason: `the provider refused the request: ${err.message}` },
      clock.now(),
    );
  }
}

/**
 * The final answer about a payment, applied once under its row lock: the first terminal answer wins and later
 * ones change nothing. A completed payment marks what it paid, in this transaction: the invoice (and the
 * organization's payments), or the policy's first premium; a supply order is the marketplace's to mark (by the
 * event), and its selling facility's payments list it.
 */
export async function settle(em: EntityManager, paymentId: string, answer: ProviderStatus, at: Date): Promise<boolean> {
  const payment = await em.findOne(MobileMoneyPayment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payment || payment.state !== MobileMoneyState.pending) return false;
  if (answer.state === 'unknown' || answer.state === MobileMoneyState.pending) return false;
  const action = answer.state === MobileMoneyState.completed ? 'complete' : answer.state === MobileMoneyState.timeout ? 'time_out' : 'fail';
  payment.state = MOBILE_MONEY.next(payment.state, action);
  payment.completedAt = at;
  if (payment.state !== MobileMoneyState.completed) {
    payment.failureReason = answer.reason ?? (payment.state === MobileMoneyState.timeout ? 'timed out' : 'failed');
    emitEvent(em, 'revenue', PAYMENT_FAILED, {
      ...payload(payment),
      state: payment.state as 'failed' | 'timeout',
      reason: payment.failureReason,
      completed_at: at.toISOString(),
    });
    return true;
  }
  payment.receipt = answer.receipt ?? null;
  const amount = toMinor(payment.amount, payment.currency);
  if (payment.purposeType === PaymentPurpose.invoice && payment.purposeId) {
    let notes: string | null = null;
    try {
      await applyInvoicePayment(em, payment.purposeId, amount, payment.currency, at);
    } catch (err) {
      // Paid meanwhile another way: the money is still received, kept as a payment not applied to the invoice.
      if (!(err instanceof AppError)) throw err;
      notes = `not applied to the invoice: ${err.message}`;
      logger.warn(
        { paymentId, invoiceId: payment.purposeId, reason: err.message },
        'mobile money payment could not be applied to its invoice',
      );
    }
    recordPayment(em, {
      organizationId: payment.organizationId!,
      method: PaymentMethod.mobile_money,
      amount: payment.amount,
      currency: payment.currency,
      patientId: payment.patientId ?? null,
      invoiceId: notes ? null : payment.purposeId,
      mobileMoneyPaymentId: payment.id,
      reference: payment.receipt ?? null,
      payerName: payment.phone,
      receivedAt: at,
      notes,
    });
  } else if (payment.purposeType === PaymentPurpose.premium && payment.purposeId) {
    await activatePolicy(em, payment.purposeId, at, payment.id);
  } else if (payment.organizationId && (payment.purposeType === PaymentPurpose.supply_order || !payment.purposeType)) {
    // The selling facility of a supply order (the marketplace marks the order paid on the event), or an
    // organization's own order: money the organization received.
    recordPayment(em, {
      organizationId: payment.organizationId,
      method: PaymentMethod.mobile_money,
      amount: payment.amount,
      currency: payment.currency,
      mobileMoneyPaymentId: payment.id,
      reference: payment.receipt ?? null,
      payerName: payment.phone,
      patientId: payment.patientId ?? null,
      receivedAt: at,
      notes: payment.purposeType === PaymentPurpose.supply_order ? `supply order ${payment.orderId}` : `order ${payment.orderId}`,
    });
  }
  emitEvent(em, 'revenue', PAYMENT_COMPLETED, { ...payload(payment), completed_at: at.toISOString() });
  return true;
}

/** At most this many pending payments are asked about per run of the status job. */
const BATCH = 50;
const RECHECK_MS = 30_000;

/**
 * Payments pending too long are asked of their provider, as real integrations must (a callback can be lost): a
 * final answer settles them; one still pending past the provider's expiry times out.
 */
export async function checkPendingPayments(em: EntityManager, now: Date): Promise<number> {
  const soonest = Math.min(...Object.values(PROVIDERS).map((p) => p.statusQueryAfterSeconds));
  const stale = await em.find(
    MobileMoneyPayment,
    {
      state: MobileMoneyState.pending,
      createdAt: { $lt: new Date(now.getTime() - soonest * 1000) },
      $or: [{ lastCheckedAt: null }, { lastCheckedAt: { $lt: new Date(now.getTime() - RECHECK_MS) } }],
    },
    { orderBy: { createdAt: 'asc' }, limit: BATCH },
  );
  let settled = 0;
  for (const payment of stale) {
    const rules = PROVIDERS[payment.provider];
    const age = (now.getTime() - payment.createdAt.getTime()) / 1000;
    if (age < rules.statusQueryAfterSeconds) continue;
    let answer: ProviderStatus;
    try {
      answer = await mobileMoneyAdapter(payment.provider).queryStatus(payment);
    } catch (err) {
      logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'mobile money status query failed; asking again later');
      answer = { state: MobileMoneyState.pending };
    }
    if (answer.state !== MobileMoneyState.pending && answer.state !== 'unknown') {
      if (await settle(em, payment.id, answer, now)) settled++;
    } else if (age > rules.expirySeconds) {
      const reason = `no final answer from the provider within ${rules.expirySeconds} s`;
      if (await settle(em, payment.id, { state: MobileMoneyState.timeout, reason }, now)) settled++;
    } else {
      payment.lastCheckedAt = now;
    }
  }
  return settled;
}

/** `svc.marketplace.payment_requested`, as the supply marketplace emits it when a checkout asks for mobile money. */
export const PAYMENT_REQUESTED_TOPIC = 'svc.marketplace.payment_requested';
export const paymentRequested = z.object({
  order_id: z.uuid(),
  organization_id: z.uuid(),
  patient_id: z.uuid().nullable(),
  amount: z.string(),
  currency: z.string(),
  provider: z.string(),
  phone: z.string(),
  description: z.string(),
});

/**
 * Starts a supply order's payment exactly as `initiate` would (order_id = the supply order, purpose supply_order),
 * as the platform. A request the provider rules refuse becomes a failed payment with the reason, announced by
 * `payment_failed`, so the marketplace learns of it; a second request for an order in flight changes nothing.
 */
export async function initiateForSupplyOrder(em: EntityManager, request: z.infer<typeof paymentRequested>): Promise<MobileMoneyPayment> {
  const orderKey = `supply_order:${request.order_id}`;
  const existing = await inFlight(em, orderKey, PaymentPurpose.supply_order);
  if (existing) return existing;
  const base = {
    orderId: request.order_id,
    orderKey,
    purposeType: PaymentPurpose.supply_order,
    purposeId: request.order_id,
    organizationId: request.organization_id,
    patientId: request.patient_id,
    phone: request.phone.slice(0, 32),
    currency: request.currency.slice(0, 3),
    description: request.description.trim().slice(0, 200) || null,
    initiatedBy: null,
  };
  try {
    const provider = providerOf(request.provider);
    if (!provider) throw errors.invalidField('provider', `must be one of: ${PROVIDER_NAMES.join(', ')}`);
    const { country } = checkRequest(provider, request.phone, request.amount, request.currency);
    const payment = em.create(MobileMoneyPayment, {
      ...base,
      provider,
      country,
      amount: normalizeAmount(request.amount, request.currency),
    });
    emitEvent(em, 'revenue', PAYMENT_INITIATED, payload(payment));
    return payment;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const provider = providerOf(request.provider) ?? MobileMoneyProvider.mobile_money_a;
    const now = clock.now();
    const payment = em.create(MobileMoneyPayment, {
      ...base,
      provider,
      country: null,
      amount: /^\d{1,12}(\.\d{1,4})?$/.test(request.amount) ? request.amount : '0',
      state: MobileMoneyState.failed,
      failureReason: err.message,
      completedAt: now,
    });
    emitEvent(em, 'revenue', PAYMENT_FAILED, {
      ...payload(payment),
      // The provider as asked, when it names none.
      provider: providerOf(request.provider) ? providerName(provider) : request.provider,
      state: 'failed',
      reason: err.message,
      completed_at: now.toISOString(),
    });
    return payment;
  }
}
