import { join } from 'node:path';
import { migrate, openOrm, type MikroORM, type OrmDefinition } from '../../shared/db';
import { discoverMigrations } from '../../shared/module';
import { OutboxEvent } from '../../shared/outbox';
import { deadLetterStore } from './dead-letters';
import { DeadLetter, WebhookDelivery } from './entities';
import type { DeadLetterStore, WebhookInbox } from '../../shared/plumbing';
import { webhookInbox } from './webhook-inbox';

/** The platform's own PostgreSQL schema: dead letters, webhook deliveries and their outbox. */
export const PLATFORM_STORE: OrmDefinition = {
  name: 'platform',
  entities: [DeadLetter, WebhookDelivery, OutboxEvent],
  migrations: discoverMigrations(join(__dirname, 'migrations')),
};

export interface PlatformStore {
  orm: MikroORM;
  deadLetters: DeadLetterStore;
  webhookInbox: WebhookInbox;
  close(): Promise<void>;
}

/** Opens the platform schema (applying its migrations unless told not to). */
export async function openPlatformStore(opts: { migrate?: boolean } = {}): Promise<PlatformStore> {
  const orm = await openOrm(PLATFORM_STORE);
  try {
    if (opts.migrate !== false) await migrate(orm, PLATFORM_STORE.name);
  } catch (err) {
    await orm.close();
    throw err;
  }
  return { orm, deadLetters: deadLetterStore(orm), webhookInbox: webhookInbox(orm), close: () => orm.close() };
}

export { recordDeadLetter } from './dead-letters';
export { DeadLetter, WebhookDelivery } from './entities';
