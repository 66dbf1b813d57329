import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';
import { PermanentEventError, webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { isUuid } from '../../../shared/model';
import { fromMinor, isCurrencyCode } from '../../../shared/money';
import { organizationStatus } from '../../../shared/refs';
import { timeOf, webhookBody } from '../../../shared/webhook-body';
import { Subscription, SubscriptionInvoice } from './subscription.entity';

/** Whether an event created at `at` is not older than what `since` recorded (ties apply in arrival order). */
const current = (since: Date | null | undefined, at: Date) => !since || at.getTime() >= since.getTime();

const FINAL_INVOICE = ['paid', 'void'];

/** Stripe amounts are integers in the currency's minor units. */
function amountOf(value: unknown, currency: string | null): string | null {
  if (!currency || typeof value !== 'number' || !Number.isInteger(value) || value < 0) return null;
  return fromMinor(BigInt(value), currency);
}

/**
 * Mirrors the provider's invoice of the organization's subscription, in the order the provider created its events:
 * an event older than the last one applied changes nothing, and a paid or void invoice stays so.
 */
async function keepInvoice(em: EntityManager, sub: Subscription, type: string, object: Record<string, any>, at: Date): Promise<void> {
  if (typeof object.id !== 'string' || !object.id.startsWith('in_')) return;
  const status =
    type === 'invoice.payment_succeeded' || type === 'invoice.paid'
      ? 'paid'
      : type === 'invoice.payment_failed'
        ? 'open'
        : String(object.status ?? 'open');
  const found = await em.findOne(SubscriptionInvoice, { providerInvoiceId: object.id });
  if (found && (!current(found.lastEventAt, at) || FINAL_INVOICE.includes(found.status))) return;
  const currency =
    typeof object.currency === 'string' && isCurrencyCode(object.currency.toUpperCase()) ? object.currency.toUpperCase() : null;
  const invoice =
    found ?? em.create(SubscriptionInvoice, { organizationId: sub.organizationId, providerInvoiceId: object.id, status, lastEventAt: at });
  Object.assign(invoice, {
    status,
    number: object.number ?? invoice.number ?? null,
    currency: currency ?? invoice.currency ?? null,
    amountDue: amountOf(object.amount_due, currency) ?? invoice.amountDue ?? null,
    amountPaid: amountOf(object.amount_paid, currency) ?? invoice.amountPaid ?? null,
    periodStart: object.period_start ? timeOf(object.period_start) : (invoice.periodStart ?? null),
    periodEnd: object.period_end ? timeOf(object.period_end) : (invoice.periodEnd ?? null),
    hostedUrl: typeof object.hosted_invoice_url === 'string' ? object.hosted_invoice_url : (invoice.hostedUrl ?? null),
    attemptCount: typeof object.attempt_count === 'number' ? object.attempt_count : (invoice.attemptCount ?? null),
    paidAt: status === 'paid' ? (invoice.paidAt ?? at) : null,
    lastEventAt: at,
  });
}

/**
 * Billing provider events (Stripe's shapes) keep an organization's subscription, its payment state and its
 * invoices. Checkout names the organization (`client_reference_id` or `metadata.organization_id`), which the org
 * subgraph must know; later events find the subscription by the customer and subscription ids checkout recorded. An
 * event for an organization or a subscription not known yet is retried, then dead-lettered for an administrator to
 * look at. The provider does not promise delivery order: each change applies only when its event is not older
 * (the event's `created`) than the one that last set the same state, so a late delivery cannot undo a newer one,
 * and a cancellation is not undone by an update of the same second.
 */
export const billingWebhooks: ConsumerDefinition = {
  name: 'billing-webhooks',
  description: "keeps organizations' subscription, payment state and subscription invoices, in the provider's order",
  topics: [webhookTopic('billing')],
  async handle(event, ctx) {
    const { em } = ctx;
    const { body } = webhookBody(event);
    const object = (body.data?.object ?? {}) as Record<string, any>;
    const at = timeOf(body.created);
    const type = String(body.type ?? '');
    const byBillingIds = async () => {
      const or: FilterQuery<Subscription>[] = [
        ...(object.customer ? [{ billingCustomerId: String(object.customer) }] : []),
        ...(object.subscription ? [{ subscriptionId: String(object.subscription) }] : []),
        ...(type.startsWith('customer.subscription') && object.id ? [{ subscriptionId: String(object.id) }] : []),
      ];
      const found = or.length ? await em.findOne(Subscription, { $or: or }) : null;
      if (!found)
        throw new Error(
          `no organization has billing customer ${object.customer ?? '?'} / subscription ${object.subscription ?? object.id ?? '?'}`,
        );
      return found;
    };
    switch (type) {
      case 'checkout.session.completed': {
        const orgId = String(object.client_reference_id ?? object.metadata?.organization_id ?? '');
        if (!isUuid(orgId)) throw new PermanentEventError(`checkout names no organization id (${orgId || 'none'})`);
        if (!(await organizationStatus(ctx, orgId))) throw new Error(`checkout names no known organization (${orgId})`);
        const sub = (await em.findOne(Subscription, { organizationId: orgId })) ?? em.create(Subscription, { organizationId: orgId });
        sub.billingCustomerId = object.customer ? String(object.customer) : sub.billingCustomerId;
        sub.subscriptionId = object.subscription ? String(object.subscription) : sub.subscriptionId;
        if (current(sub.statusAt, at)) {
          sub.status = 'active';
          sub.statusAt = at;
        }
        if (object.payment_status === 'paid' && current(sub.lastPaymentAt, at)) {
          sub.lastPaymentStatus = 'succeeded';
          sub.lastPaymentAt = at;
        }
        return;
      }
      case 'invoice.payment_succeeded':
      case 'invoice.payment_failed': {
        const sub = await byBillingIds();
        await keepInvoice(em, sub, type, object, at);
        // An older payment event never overwrites a newer one.
        if (!current(sub.lastPaymentAt, at)) return;
        const ok = type === 'invoice.payment_succeeded';
        sub.lastPaymentStatus = ok ? 'succeeded' : 'failed';
        sub.lastPaymentAt = at;
        if (!current(sub.statusAt, at) || sub.status === 'canceled') return;
        if (!ok) sub.status = 'past_due';
        else if (sub.status === 'past_due') sub.status = 'active';
        else return;
        sub.statusAt = at;
        return;
      }
      case 'invoice.paid':
      case 'invoice.finalized':
      case 'invoice.voided':
      case 'invoice.marked_uncollectible': {
        await keepInvoice(em, await byBillingIds(), type, object, at);
        return;
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = await byBillingIds();
        const deleted = type === 'customer.subscription.deleted';
        if (!current(sub.statusAt, at)) return;
        if (!deleted && sub.status === 'canceled' && sub.statusAt && at.getTime() === sub.statusAt.getTime()) return;
        sub.subscriptionId = object.id ? String(object.id) : sub.subscriptionId;
        sub.status = deleted ? 'canceled' : String(object.status ?? sub.status);
        sub.statusAt = at;
        sub.plan = object.items?.data?.[0]?.price?.id ?? object.plan?.id ?? sub.plan;
        if (object.current_period_end) sub.currentPeriodEnd = timeOf(object.current_period_end);
        return;
      }
      default:
        return; // other event types change nothing here
    }
  },
};
