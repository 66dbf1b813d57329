import { defineModule } from '../../../shared/module';
import { DataSubjectRequest } from './dsr.entity';
import { PATIENT_ERASED } from './dsr.events';
import { DsrResolver } from './dsr.resolver';

export default defineModule({
  name: 'data-subject-requests',
  description: 'Data subject requests: erasure (pseudonymization) and export of everything kept about a patient',
  entities: [DataSubjectRequest],
  resolvers: [DsrResolver],
  topics: [PATIENT_ERASED],
  patientData: [{ section: 'data_subject_requests', entity: DataSubjectRequest }],
});
