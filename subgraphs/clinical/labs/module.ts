import { defineModule } from '../../../shared/module';
import { labTest } from './lab-data';
import { LabMessage, LabOrder, LabResult } from './lab.entity';
import { LAB_RESULT_RECEIVED } from './lab.events';
import { LabOrderResolver, LabResultResolver, PatientLabResultsResolver } from './lab.resolver';

export default defineModule({
  name: 'labs',
  description: 'Lab orders, HL7v2 ORU^R01 ingest with ACKs, results with flags and panic values, result review',
  entities: [LabOrder, LabResult, LabMessage],
  resolvers: [LabOrderResolver, LabResultResolver, PatientLabResultsResolver],
  topics: [LAB_RESULT_RECEIVED],
  patientData: [
    {
      section: 'lab_orders',
      entity: LabOrder,
      timeline: { kind: 'lab_order', at: 'createdAt', title: (r) => `Lab order: ${labTest(r.testType as string)?.name ?? r.testType}` },
    },
    // The messages results came in: sender, control id, content hash and the answer given.
    { section: 'lab_messages', entity: LabMessage },
    {
      section: 'lab_results',
      entity: LabResult,
      timeline: {
        kind: 'lab_result',
        at: 'createdAt',
        title: (r) => `Lab result: ${r.display ?? r.code}${r.critical ? ' (critical)' : ''}`,
      },
    },
  ],
});
