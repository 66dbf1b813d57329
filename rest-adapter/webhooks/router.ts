import { timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { Gateway } from '../../gateway/server';
import { config } from '../../shared/config';
import { logger } from '../../shared/logger';
import { WEBHOOK_SYSTEM_VIEWER } from '../../shared/viewer';
import { sendData, sendError, sendGraphQLError } from '../envelope';
import type { OperationDocument } from '../operations';
import type { WebhookRoute } from '../routes/webhooks';
import { WebhookRejected } from './verifiers';

/**
 * Inbound webhooks. In order: HTTPS (403 otherwise, nothing processed); the provider's signature over the raw bytes
 * (401 otherwise, nothing stored); then the delivery is stored through the gateway, with the event that carries it
 * to its consumer, and acknowledged with 200 at once. A provider event delivered again is acknowledged and not
 * applied again. The work itself happens on the queue.
 */
export function webhookRouter(routes: WebhookRoute[], gateway: Gateway, operations: Map<string, OperationDocument>): Router {
  const record = operations.get('RecordWebhookDelivery');
  if (!record) throw new Error('operation RecordWebhookDelivery is missing');
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
    const matches =
      !!expected && token.length === expected.length && timingSafeEqual(Buffer.from(token), Buffer.from(expected));
    if (req.query['hub.mode'] !== 'subscribe' || !matches) {
      return sendError(res, 'FORBIDDEN', 'Verification token does not match');
    }
    res.status(200).type('text/plain').send(String(req.query['hub.challenge'] ?? ''));
  });

  const raw = express.raw({ type: () => true, limit: config().BODY_LIMIT_BYTES });
  for (const route of routes) {
    router.post(route.path, raw, async (req: Request, res: Response) => {
      if (!requireHttps(req, res)) return;
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let verified;
      try {
        verified = await route.verifier(body, req.headers, config());
      } catch (err) {
        if (!(err instanceof WebhookRejected)) throw err;
        logger.warn({ provider: route.provider, reason: err.message, reqId: req.id }, 'webhook rejected');
        return sendError(res, 'UNAUTHORIZED', `Webhook signature rejected: ${err.message}`);
      }
      const { data, errors } = await gateway.execute(
        record,
        { provider: route.provider, providerEventId: verified.eventId, eventType: verified.eventType, rawBody: body.toString('utf8') },
        { viewer: WEBHOOK_SYSTEM_VIEWER, requestId: req.id, ip: req.ip, userAgent: req.headers['user-agent'] },
      );
      if (errors?.length) return sendGraphQLError(res, errors[0]);
      const receipt = data?.recordWebhookDelivery as { deliveryId: string; duplicate: boolean };
      sendData(res, 200, { received: true, duplicate: receipt.duplicate, delivery_id: receipt.deliveryId });
    });
  }
  return router;
}
