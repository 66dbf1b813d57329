import { WEBHOOK_PROVIDERS, webhookTopic, type WebhookProvider } from '../../../shared/events';
import { recordEvent } from '../../../shared/outbox';
import { requireSystem } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { WebhookDelivery } from './bus.entities';
import type { WebhookDeliveryArgs, WebhookReceipt } from './bus.types';

/**
 * The inbox of verified webhook deliveries. A delivery is stored, with the bus event that carries it to its
 * consumer, in one transaction; the same provider event delivered again is acknowledged and not queued again.
 */
export class WebhookInboxService {
  async record(ctx: SubgraphContext, args: WebhookDeliveryArgs): Promise<WebhookReceipt> {
    requireSystem(ctx.viewer, 'webhooks');
    if (!WEBHOOK_PROVIDERS.includes(args.provider as WebhookProvider)) throw new Error(`unknown webhook provider ${args.provider}`);
    const topic = webhookTopic(args.provider as WebhookProvider);
    const existing = await ctx.em.findOne(WebhookDelivery, { provider: args.provider, providerEventId: args.providerEventId });
    if (existing) return { deliveryId: existing.id, duplicate: true };
    try {
      return await ctx.em.transactional(async (em) => {
        const delivery = em.create(WebhookDelivery, { ...args, eventType: args.eventType ?? null });
        recordEvent(em, 'org', topic, {
          delivery_id: delivery.id,
          provider: args.provider,
          provider_event_id: args.providerEventId,
          event_type: args.eventType ?? null,
          raw_body: args.rawBody,
        });
        return { deliveryId: delivery.id, duplicate: false };
      });
    } catch (err) {
      // Two deliveries of the same event at the same moment: the unique index let one in.
      if ((err as { name?: string }).name !== 'UniqueConstraintViolationException') throw err;
      const first = await ctx.em.fork().findOneOrFail(WebhookDelivery, { provider: args.provider, providerEventId: args.providerEventId });
      return { deliveryId: first.id, duplicate: true };
    }
  }
}
