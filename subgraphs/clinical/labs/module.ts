import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField, recordFields } from '../patients/patient-link';
import { labTest } from './lab-data';
import { LabMessage, LabOrder, LabResult } from './lab.entity';
import { LAB_RESULT_RECEIVED } from './lab.events';
import { LabResultDocument } from './lab.types';
import { LabOrderResolver, LabResultResolver, OrganizationCriticalResultsResolver, PatientLabResultsResolver } from './lab.resolver';

export default defineModule({
  name: 'labs',
  description: 'Lab orders, HL7v2 ORU^R01 ingest with ACKs, results with flags and panic values, result review',
  entities: [LabOrder, LabResult, LabMessage],
  resolvers: [
    referenceFields(LabOrder, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    referenceFields(LabResult, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(LabOrder),
    patientField(LabResult),
    referenceFields(LabOrder, {
      orderedByUser: { id: 'orderedBy', type: 'User' },
      updatedByUser: { id: 'updatedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
    }),
    referenceFields(LabResult, { reviewedByUser: { id: 'reviewedBy', type: 'User' } }),
    recordFields(LabResultDocument, { labResult: { id: 'labResultId', type: LabResult } }),
    LabOrderResolver,
    LabResultResolver,
    PatientLabResultsResolver,
    OrganizationCriticalResultsResolver,
  ],
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
