import { webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { timeOf, webhookBody } from '../../../shared/webhook-body';
import { LockMode } from '@mikro-orm/core';
import { mailer } from '../../../shared/adapters/mailer';
import { PermanentEventError } from '../../../shared/events';
import { isUuid } from '../../../shared/model';
import { MailEvent, QueuedMail, QueuedMailState, SentMail } from './mail.entity';
import { MAIL_QUEUED } from './mail.events';

/** Mail delivery events (`email.delivered`, `email.bounced`, ...) recorded against the mail the platform sent. */
export const mailerWebhooks: ConsumerDefinition = {
  name: 'mailer-webhooks',
  description: 'records delivery events against the mail the platform sent',
  topics: [webhookTopic('mailer')],
  async handle(event, { em }) {
    const { delivery, body } = webhookBody(event);
    const messageId = String(body.data?.email_id ?? body.data?.message_id ?? '');
    const type = String(body.type ?? 'unknown');
    if (await em.count(MailEvent, { providerEventId: delivery.provider_event_id })) return;
    const mail = messageId ? await em.findOne(SentMail, { providerMessageId: messageId }) : null;
    em.create(MailEvent, {
      providerEventId: delivery.provider_event_id,
      sentMailId: mail?.id ?? null,
      providerMessageId: messageId,
      type,
      occurredAt: timeOf(body.created_at),
    });
    if (mail) mail.status = type.replace(/^email\./, '');
  },
};

/**
 * Sends a queued mail once. The row is locked for the send: a mail already marked sent is skipped (a redelivered
 * event, a second worker); a failed send leaves it queued for the retry. The mark and the record of the send
 * commit together after the provider accepted the mail.
 */
export const mailSender: ConsumerDefinition = {
  name: 'mail-sender',
  description: 'sends each queued mail once and marks it sent',
  topics: [MAIL_QUEUED.name],
  async handle(event, { em }) {
    const id = event.payload.mail_id;
    if (!isUuid(id)) throw new PermanentEventError('svc.mail.queued carries no mail_id');
    const mail = await em.findOne(QueuedMail, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!mail) throw new PermanentEventError(`queued mail ${id} does not exist`);
    if (mail.state === QueuedMailState.sent) return;
    const message = { to: mail.toAddress, subject: mail.subject, text: mail.text, template: mail.template, data: mail.data ?? undefined };
    const { id: providerMessageId } = await mailer().send(message);
    const sent = em.create(SentMail, { providerMessageId, toAddress: mail.toAddress, template: mail.template });
    mail.state = QueuedMailState.sent;
    mail.sentAt = new Date();
    mail.sentMailId = sent.id;
  },
};
