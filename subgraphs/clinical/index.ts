import { join } from 'node:path';
import { AuditEvent } from '../../shared/audit/audit-event.entity';
import { flushAudit } from '../../shared/audit/audit-trail';
import { Counter } from '../../shared/counters';
import { discoverMigrations, discoverModules } from '../../shared/module';
import { OutboxEvent, ProcessedEvent } from '../../shared/outbox';
import { defineSubgraph } from '../../shared/subgraph';
import { setPatientDataSources } from './patient-data';

const modules = discoverModules(__dirname);
setPatientDataSources(modules.flatMap((m) => m.patientData ?? []));

/** Clinical data: patients and everything recorded about their care. Each folder with a `module.ts` is a module. */
export const clinicalSubgraph = defineSubgraph({
  name: 'clinical',
  description: 'Patients and everything recorded about their care',
  modules,
  entities: [AuditEvent, Counter, OutboxEvent, ProcessedEvent],
  migrations: discoverMigrations(join(__dirname, 'migrations')),
  onStop: (runtime) => flushAudit(runtime.orm.em),
});
