import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { DataSubjectRequest } from './dsr.entity';
import { PATIENT_ERASED } from './dsr.events';
import { DsrResolver } from './dsr.resolver';

export default defineModule({
  name: 'data-subject-requests',
  description: 'Data subject requests: erasure (pseudonymization) and export of everything kept about a patient',
  entities: [DataSubjectRequest],
  resolvers: [
    patientField(DataSubjectRequest),
    referenceFields(DataSubjectRequest, { requestedByUser: { id: 'requestedBy', type: 'User' } }),
    DsrResolver,
  ],
  topics: [PATIENT_ERASED],
  patientData: [{ section: 'data_subject_requests', entity: DataSubjectRequest }],
});
