import { mailer, type MailMessage } from '../../../shared/adapters/mailer';
import type { EntityManager } from '../../../shared/db';
import { logger } from '../../../shared/logger';
import { SentMail } from '../inbound/inbound.entities';

/**
 * Sends one mail through the mailer adapter and keeps a record the provider's delivery events are matched against.
 * Call it after the change the mail announces has committed. With `rethrow` (event consumers), a failure is
 * thrown so the bus retries; otherwise it is logged and the change stands (the user can ask again). Mail that
 * carries a secret (reset links, invitation tokens) is sent this way rather than through the outbox, so the secret
 * is never stored in clear.
 */
export async function sendMail(em: EntityManager, message: MailMessage, opts: { rethrow?: boolean } = {}): Promise<void> {
  try {
    const { id } = await mailer().send(message);
    const fork = em.fork();
    fork.create(SentMail, { providerMessageId: id, toAddress: message.to, template: message.template });
    await fork.flush();
  } catch (err) {
    if (opts.rethrow) throw err;
    logger.error({ err, template: message.template }, 'could not send mail');
  }
}
