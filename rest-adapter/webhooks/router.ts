import { timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { config } from '../../shared/config';
import { logger } from '../../shared/logger';
import type { WebhookInbox } from '../../shared/plumbing';
import { sendData, sendError } from '../envelope';
import type { WebhookRoute } from '../routes/webhooks';
import { WebhookRejected } from './verifiers';

/**
 * Inbound webhooks. In order: HTTPS (403 otherwise, nothing processed); the provider's signature over the raw bytes
 * (401 otherwise, nothing stored); then the delivery is stored in the platform's inbox, with the event that carries
 * it to its consumer, and acknowledged with 200 at once. A provider event delivered again is acknowledged and not
 * applied again. The work itself happens on the queue, in the module that owns its effect.
 */
export function webhookRouter(routes: WebhookRoute[], inbox: WebhookInbox): Router {
  const router = Router();
  const requireHttps = (req: Request, res: Response): boolean => {
    if (!config().WEBHOOK_REQUIRE_HTTPS || req.secure) return true;
    sendError(res, 'FORBIDDEN', 'Webhooks must be sent over HTTPS');
    return false;
  };

  // The messaging provider's subscription check: echo hub.challenge when hub.verify_token matches.
  router.get('/webhook', (req, res) => {
    if (!requireHttps(req, res)) return;
    const expected = config().MESSAGING_VERIFY_TOKEN;
    const token = String(req.query['hub.verify_token'] ?? '');
    const matches = !!expected && token.length === expected.length && timingSafeEqual(Buffer.from(token), Buffer.from(expected));
    if (req.query['hub.mode'] !== 'subscribe' || !matches) {
      return sendError(res, 'FORBIDDEN', 'Verification token does not match');
    }
    res
      .status(200)
      .type('text/plain')
      .send(String(req.query['hub.challenge'] ?? ''));
  });

  const raw = express.raw({ type: () => true, limit: config().BODY_LIMIT_BYTES });
  for (const route of routes) {
    router.post(route.path, raw, async (req: Request, res: Response) => {
      if (!requireHttps(req, res)) return;
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let verified;
      try {
        verified = await route.verifier(body, req.headers, config(), new URL(req.originalUrl, 'http://callback.invalid'));
      } catch (err) {
        if (!(err instanceof WebhookRejected)) throw err;
        logger.warn({ provider: route.provider, reason: err.message, reqId: req.id }, 'webhook rejected');
        return sendError(res, 'UNAUTHORIZED', `Webhook signature rejected: ${err.message}`);
      }
      const receipt = await inbox.record({
        provider: route.provider,
        providerEventId: verified.eventId,
        eventType: verified.eventType ?? null,
        rawBody: body.toString('utf8'),
      });
      sendData(res, 200, { received: true, duplicate: receipt.duplicate, delivery_id: receipt.deliveryId });
    });
  }
  return router;
}
