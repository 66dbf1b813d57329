import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { config } from '../config';
import { logger } from '../logger';
import { appRedis, redisKey } from '../redis';

/**
 * Outbound email, behind one interface. `sandbox` (the default) keeps every message in Redis where tests and
 * developers read them (`npm run mailbox`); `smtp` sends through SMTP_URL.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What kind of message this is (`verify_email`, `reset_password`, ...): tests and logs key on it. */
  template: string;
  /** Values the message carries, such as a token, for the sandbox to show. */
  data?: Record<string, string>;
}

export interface SentMail extends MailMessage {
  id: string;
  sentAt: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<{ id: string }>;
}

const SANDBOX_KEEP = 1000;
const sandboxKey = () => redisKey('mail', 'sandbox');

class SandboxMailer implements Mailer {
  async send(message: MailMessage) {
    const mail: SentMail = { ...message, id: randomUUID(), sentAt: new Date().toISOString() };
    await appRedis()
      .multi()
      .lpush(sandboxKey(), JSON.stringify(mail))
      .ltrim(sandboxKey(), 0, SANDBOX_KEEP - 1)
      .exec();
    // The recipient's address is personal data: the log says what was sent, not to whom.
    logger.info({ template: message.template, mailId: mail.id }, 'sandbox mail kept');
    return { id: mail.id };
  }
}

class SmtpMailer implements Mailer {
  private readonly transport = nodemailer.createTransport(config().SMTP_URL!);

  async send(message: MailMessage) {
    const info = await this.transport.sendMail({ from: config().MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
    return { id: info.messageId };
  }
}

let instance: Mailer | undefined;

export function mailer(): Mailer {
  if (!instance) {
    const cfg = config();
    if (cfg.MAIL_TRANSPORT === 'smtp' && !cfg.SMTP_URL) throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL');
    instance = cfg.MAIL_TRANSPORT === 'smtp' ? new SmtpMailer() : new SandboxMailer();
  }
  return instance;
}

/** Messages the sandbox has kept, newest first, optionally only those to one address. */
export async function sandboxMailbox(to?: string): Promise<SentMail[]> {
  const raw = await appRedis().lrange(sandboxKey(), 0, SANDBOX_KEEP - 1);
  const all = raw.map((r) => JSON.parse(r) as SentMail);
  return to ? all.filter((m) => m.to === to.toLowerCase()) : all;
}
