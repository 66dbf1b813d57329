import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const MAIL_QUEUED = defineTopic(
  'svc.mail.queued',
  'a mail is queued to be sent (once) by the mail sender',
  z.object({ mail_id: z.uuid() }),
);
