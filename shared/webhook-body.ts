import { PermanentEventError, type EventEnvelope, type WebhookReceivedPayload } from './events';

/** The JSON object a webhook delivery carried; a body that is not one can never be processed. */
export function webhookBody(event: EventEnvelope): { delivery: WebhookReceivedPayload; body: Record<string, any> } {
  const delivery = event.payload as unknown as WebhookReceivedPayload;
  let body: unknown;
  try {
    body = JSON.parse(delivery.raw_body);
  } catch (err) {
    throw new PermanentEventError(`the ${delivery.provider} webhook body is not JSON: ${(err as Error).message}`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new PermanentEventError(`the ${delivery.provider} webhook body is not a JSON object`);
  }
  return { delivery, body: body as Record<string, any> };
}

/** Seconds or milliseconds since the epoch, or an ISO string, as a Date; now when absent. */
export function timeOf(value: unknown): Date {
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return timeOf(Number(value));
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value);
  return new Date();
}
