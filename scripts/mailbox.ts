/**
 * `npm run mailbox [-- <email>]`: the mail the sandbox mailer kept (MAIL_TRANSPORT=sandbox), newest first.
 */
import { sandboxMailbox } from '../shared/adapters/mailer';
import { closeAppRedis, connectRedis, holdAppRedis } from '../shared/redis';

async function main() {
  await connectRedis(holdAppRedis());
  const mails = await sandboxMailbox(process.argv[2]);
  for (const m of mails.slice(0, 20)) {
    console.log(`--- ${m.sentAt}  to ${m.to}  [${m.template}]\n${m.subject}\n\n${m.text}\n`);
  }
  if (!mails.length) console.log('no sandbox mail');
  await closeAppRedis();
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
