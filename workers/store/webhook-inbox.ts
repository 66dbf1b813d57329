import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '../../shared/db';
import { WEBHOOK_TOPICS, webhookTopic, type WebhookProvider } from '../../shared/events';
import { emitEvent } from '../../shared/outbox';
import type { WebhookInbox } from '../../shared/plumbing';
import { WebhookDelivery } from './entities';

const topicOf = (provider: WebhookProvider) => WEBHOOK_TOPICS.find((t) => t.name === webhookTopic(provider))!;

/**
 * The inbox of verified webhook deliveries. A delivery is stored, with the bus event that carries it to its
 * consumer, in one transaction; the same provider event delivered again is acknowledged and not queued again.
 */
export function webhookInbox(orm: MikroORM): WebhookInbox {
  return {
    async record(input) {
      const em = orm.em.fork();
      const key = { provider: input.provider, providerEventId: input.providerEventId };
      const existing = await em.findOne(WebhookDelivery, key);
      if (existing) return { deliveryId: existing.id, duplicate: true };
      try {
        return await em.transactional(async (tx) => {
          const delivery = tx.create(WebhookDelivery, input);
          emitEvent(tx, 'platform', topicOf(input.provider), {
            delivery_id: delivery.id,
            provider: input.provider,
            provider_event_id: input.providerEventId,
            event_type: input.eventType,
            raw_body: input.rawBody,
          });
          return { deliveryId: delivery.id, duplicate: false };
        });
      } catch (err) {
        // Two deliveries of the same event at the same moment: the unique index let one in.
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        const first = await orm.em.fork().findOneOrFail(WebhookDelivery, key);
        return { deliveryId: first.id, duplicate: true };
      }
    },
  };
}
