import { mailer, type MailMessage } from '../../../shared/adapters/mailer';
import type { EntityManager } from '../../../shared/db';
import { logger } from '../../../shared/logger';
import { SentMail } from './mail.entity';

/**
 * Sends one mail at once through the mailer adapter and keeps a record the provider's delivery events are matched
 * against. Call it after the change the mail announces has committed; a failure is logged and the change stands
 * (the user can ask again). Only mail that carries a secret (verification and reset links, invitation tokens) is
 * sent this way, so the secret is never stored in clear; every other mail is queued (queue-mail.ts) and sent once.
 */
export async function sendMail(em: EntityManager, message: MailMessage): Promise<void> {
  try {
    const { id } = await mailer().send(message);
    const fork = em.fork();
    fork.create(SentMail, { providerMessageId: id, toAddress: message.to, template: message.template });
    await fork.flush();
  } catch (err) {
    logger.error({ err, template: message.template }, 'could not send mail');
  }
}
