import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { MpiBlockingKey, MpiRecord, PatientLink, PatientLinkEvent } from './mpi.entity';
import { mpiIndexSweep, mpiMatcher } from './mpi.consumers';
import { PATIENTS_LINKED, PATIENTS_UNLINKED } from './mpi.events';
import { MpiResolver } from './mpi.resolver';

export default defineModule({
  name: 'mpi',
  description:
    'Master patient index: probabilistic matching (Fellegi-Sunter, blocking keys), links with review and history, FHIR R4 Patient',
  entities: [MpiRecord, MpiBlockingKey, PatientLink, PatientLinkEvent],
  resolvers: [
    referenceFields(PatientLink, { proposedByUser: { id: 'proposedBy', type: 'User' }, decidedByUser: { id: 'decidedBy', type: 'User' } }),
    MpiResolver,
  ],
  consumers: [mpiMatcher],
  jobs: [mpiIndexSweep],
  topics: [PATIENTS_LINKED, PATIENTS_UNLINKED],
  // A link names two patients; the export lists it under the first (the smaller id), the history stays with it.
  patientData: [{ section: 'patient_links', entity: PatientLink }],
});
