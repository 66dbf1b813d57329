import type { MailMessage } from '../../../shared/adapters/mailer';
import type { EntityManager } from '../../../shared/db';
import { emitEvent } from '../../../shared/outbox';
import { QueuedMail } from './mail.entity';
import { MAIL_QUEUED } from './mail.events';

/**
 * Queues a mail in the caller's transaction, under `key` (for an event's mail: the event id and the recipient). A
 * key queued before is left as it is: an event applied again queues nothing new. The mail sender (a bus consumer)
 * sends it once. Mail that carries a secret is not queued (the secret would be stored): see send-mail.ts.
 */
export async function queueMail(em: EntityManager, key: string, message: MailMessage): Promise<void> {
  if (await em.count(QueuedMail, { key })) return;
  const mail = em.create(QueuedMail, {
    key,
    toAddress: message.to,
    subject: message.subject,
    text: message.text,
    template: message.template,
    data: message.data ?? null,
  });
  emitEvent(em, 'org', MAIL_QUEUED, { mail_id: mail.id });
}
