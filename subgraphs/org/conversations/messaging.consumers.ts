import { webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { timeOf, webhookBody } from '../../../shared/webhook-body';
import { MessagingMessage, MessagingReceipt } from './messaging.entity';

/**
 * Messaging provider events (the WhatsApp Cloud API's shape): patients' incoming messages are stored, and delivery
 * and read receipts recorded, each once however often the provider repeats them.
 */
export const messagingWebhooks: ConsumerDefinition = {
  name: 'messaging-webhooks',
  description: "stores patients' incoming messages and delivery and read receipts, once each",
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
