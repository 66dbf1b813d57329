import { defineModule } from '../../../shared/module';
import { mailerWebhooks, mailSender } from './mail.consumers';
import { MailEvent, QueuedMail, SentMail } from './mail.entity';
import { MAIL_QUEUED } from './mail.events';

export default defineModule({
  name: 'mail',
  description: 'Mail the platform sends (queued once per event, sent once), and the delivery events the mail provider reports about it',
  entities: [SentMail, MailEvent, QueuedMail],
  consumers: [mailerWebhooks, mailSender],
  topics: [MAIL_QUEUED],
});
