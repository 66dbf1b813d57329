import { join } from 'node:path';
import { Counter } from '../../shared/counters';
import { discoverMigrations, discoverModules } from '../../shared/module';
import { OutboxEvent, ProcessedEvent } from '../../shared/outbox';
import { defineSubgraph } from '../../shared/subgraph';

/** Money and goods: invoices, claims and insurance, payments, the supply marketplace. Each folder with a `module.ts` is a module. */
export const revenueSubgraph = defineSubgraph({
  name: 'revenue',
  description: 'Money and goods: invoices, claims and insurance, payments, the supply marketplace',
  modules: discoverModules(__dirname),
  entities: [Counter, OutboxEvent, ProcessedEvent],
  migrations: discoverMigrations(join(__dirname, 'migrations')),
});
