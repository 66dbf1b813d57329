import { sandboxMailbox, type SentMail } from '../../shared/adapters/mailer';

/** The newest sandbox mail of a kind to an address (mail is sent after the request commits or by a bus consumer, so poll). */
export async function lastMail(to: string, template: string): Promise<SentMail> {
  for (let i = 0; i < 500; i++) {
    const found = (await sandboxMailbox(to)).find((m) => m.template === template);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${template} mail to ${to}`);
}
