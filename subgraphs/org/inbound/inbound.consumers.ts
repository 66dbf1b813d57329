import { webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { Organization } from '../organizations/organization.entity';
import { Lead, MailEvent, MessagingMessage, MessagingReceipt, SentMail } from './inbound.entities';
import { timeOf, webhookBody } from './webhook-body';

/**
 * Billing provider events (Stripe's shapes) keep an organization's subscription and payment state. Checkout names
 * the organization (`client_reference_id` or `metadata.organization_id`); later events find it by the customer
 * and subscription ids checkout recorded. An event for an organization not known yet is retried, then
 * dead-lettered for an administrator to look at.
 */
export const billingWebhooks: ConsumerDefinition = {
  name: 'billing-webhooks',
  topics: [webhookTopic('billing')],
  async handle(event, { em }) {
    const { body } = webhookBody(event);
    const object = (body.data?.object ?? {}) as Record<string, any>;
    const at = timeOf(body.created);
    const byBillingIds = async () => {
      const org = await em.findOne(Organization, {
        $or: [
          ...(object.customer ? [{ billingCustomerId: String(object.customer) }] : []),
          ...(object.subscription ? [{ subscriptionId: String(object.subscription) }] : []),
          ...(body.type?.startsWith('customer.subscription') && object.id ? [{ subscriptionId: String(object.id) }] : []),
        ],
      });
      if (!org) throw new Error(`no organization has billing customer ${object.customer ?? '?'} / subscription ${object.subscription ?? object.id ?? '?'}`);
      return org;
    };
    switch (body.type) {
      case 'checkout.session.completed': {
        const orgId = object.client_reference_id ?? object.metadata?.organization_id;
        const org = orgId ? await em.findOne(Organization, { id: String(orgId) }) : null;
        if (!org) throw new Error(`checkout names no known organization (${orgId ?? 'none'})`);
        org.billingCustomerId = object.customer ? String(object.customer) : org.billingCustomerId;
        org.subscriptionId = object.subscription ? String(object.subscription) : org.subscriptionId;
        org.subscriptionStatus = 'active';
        if (object.payment_status === 'paid') {
          org.lastPaymentStatus = 'succeeded';
          org.lastPaymentAt = at;
        }
        return;
      }
      case 'invoice.payment_succeeded':
      case 'invoice.payment_failed': {
        const org = await byBillingIds();
        const ok = body.type === 'invoice.payment_succeeded';
        // The provider does not promise delivery order: an older payment event never overwrites a newer one.
        if (org.lastPaymentAt && at && org.lastPaymentAt.getTime() > at.getTime()) return;
        org.lastPaymentStatus = ok ? 'succeeded' : 'failed';
        org.lastPaymentAt = at;
        if (!ok) org.subscriptionStatus = 'past_due';
        else if (org.subscriptionStatus === 'past_due') org.subscriptionStatus = 'active';
        return;
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const org = await byBillingIds();
        org.subscriptionId = object.id ? String(object.id) : org.subscriptionId;
        org.subscriptionStatus = body.type === 'customer.subscription.deleted' ? 'canceled' : String(object.status ?? org.subscriptionStatus);
        org.subscriptionPlan = object.items?.data?.[0]?.price?.id ?? object.plan?.id ?? org.subscriptionPlan;
        if (object.current_period_end) org.subscriptionPeriodEnd = timeOf(object.current_period_end);
        return;
      }
      default:
        return; // other event types change nothing here
    }
  },
};

/**
 * Messaging provider events (the WhatsApp Cloud API's shape): patients' incoming messages are stored, and delivery
 * and read receipts recorded, each once however often the provider repeats them.
 */
export const messagingWebhooks: ConsumerDefinition = {
  name: 'messaging-webhooks',
  topics: [webhookTopic('messaging')],
  async handle(event, { em }) {
    const { body } = webhookBody(event);
    for (const entry of Array.isArray(body.entry) ? body.entry : []) {
      for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
        const value = change?.value ?? {};
        const toPhone = value.metadata?.display_phone_number ? `+${String(value.metadata.display_phone_number).replace(/^\+/, '')}` : null;
        for (const m of Array.isArray(value.messages) ? value.messages : []) {
          if (!m?.id || (await em.count(MessagingMessage, { providerMessageId: String(m.id) }))) continue;
          em.create(MessagingMessage, {
            providerMessageId: String(m.id),
            fromPhone: `+${String(m.from ?? '').replace(/^\+/, '')}`,
            toPhone,
            kind: String(m.type ?? 'text'),
            body: m.text?.body ?? m.button?.text ?? null,
            sentAt: timeOf(m.timestamp),
          });
        }
        for (const s of Array.isArray(value.statuses) ? value.statuses : []) {
          if (!s?.id || !s.status) continue;
          if (await em.count(MessagingReceipt, { providerMessageId: String(s.id), status: String(s.status) })) continue;
          em.create(MessagingReceipt, {
            providerMessageId: String(s.id),
            status: String(s.status),
            recipient: s.recipient_id ? String(s.recipient_id) : null,
            occurredAt: timeOf(s.timestamp),
          });
        }
      }
    }
  },
};

/** Mail delivery events (`email.delivered`, `email.bounced`, ...) recorded against the mail the platform sent. */
export const mailerWebhooks: ConsumerDefinition = {
  name: 'mailer-webhooks',
  topics: [webhookTopic('mailer')],
  async handle(event, { em }) {
    const { delivery, body } = webhookBody(event);
    const messageId = String(body.data?.email_id ?? body.data?.message_id ?? '');
    const type = String(body.type ?? 'unknown');
    if (await em.count(MailEvent, { providerEventId: delivery.provider_event_id })) return;
    const mail = messageId ? await em.findOne(SentMail, { providerMessageId: messageId }) : null;
    em.create(MailEvent, {
      providerEventId: delivery.provider_event_id,
      sentMailId: mail?.id ?? null,
      providerMessageId: messageId,
      type,
      occurredAt: timeOf(body.created_at),
    });
    if (mail) mail.status = type.replace(/^email\./, '');
  },
};

/** External forms: each submission becomes a lead. */
export const formLeads: ConsumerDefinition = {
  name: 'form-leads',
  topics: [webhookTopic('forms')],
  async handle(event, { em }) {
    const { delivery, body } = webhookBody(event);
    if (await em.count(Lead, { externalId: delivery.provider_event_id })) return;
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 2000) : null);
    em.create(Lead, {
      externalId: delivery.provider_event_id,
      source: text(body.source) ?? 'form',
      name: text(body.name) ?? ([text(body.first_name), text(body.last_name)].filter(Boolean).join(' ') || null),
      email: text(body.email)?.toLowerCase() ?? null,
      phone: text(body.phone),
      organizationName: text(body.organization) ?? text(body.company),
      message: text(body.message),
      fields: body,
    });
  },
};
