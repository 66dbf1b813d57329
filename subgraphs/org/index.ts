import { join } from 'node:path';
import { AuditEvent } from '../../shared/audit/audit-event.entity';
import { flushAudit } from '../../shared/audit/audit-trail';
import { discoverMigrations, discoverModules } from '../../shared/module';
import { OutboxEvent, ProcessedEvent } from '../../shared/outbox';
import { defineSubgraph } from '../../shared/subgraph';

/**
 * People and places: users and sessions, organizations, members, doctors, rooms and admissions, scheduling and
 * telemedicine, staff attendance and leave. Each folder with a `module.ts` is a module.
 */
export const orgSubgraph = defineSubgraph({
  name: 'org',
  description: 'People and places: users, organizations, doctors, facilities, scheduling, telemedicine, staff',
  modules: discoverModules(__dirname),
  entities: [AuditEvent, OutboxEvent, ProcessedEvent],
  migrations: discoverMigrations(join(__dirname, 'migrations')),
  onStop: (runtime) => flushAudit(runtime.orm.em),
});

export { Identity } from './users/identity';
