import { webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { webhookBody } from '../../../shared/webhook-body';
import { Lead } from './lead.entity';

/** External forms: each submission becomes a lead. */
export const formLeads: ConsumerDefinition = {
  name: 'form-leads',
  description: 'creates a lead per form submission',
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
