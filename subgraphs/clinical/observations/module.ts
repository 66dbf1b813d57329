import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { Observation, ObservationStatus } from './observation.entity';
import { ObservationResolver, PatientObservationsResolver } from './observation.resolver';

export default defineModule({
  name: 'observations',
  description: 'FHIR Observation-like measurements with LOINC codes and unit checks',
  entities: [Observation],
  resolvers: [
    referenceFields(Observation, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(Observation),
    referenceFields(Observation, { recordedByUser: { id: 'recordedBy', type: 'User' }, updatedByUser: { id: 'updatedBy', type: 'User' } }),
    ObservationResolver,
    PatientObservationsResolver,
  ],
  patientData: [
    {
      section: 'observations',
      entity: Observation,
      timeline: {
        kind: 'observation',
        at: 'effectiveAt',
        where: { status: { $ne: ObservationStatus.entered_in_error } },
        title: (r) => `Observation: ${r.display ?? r.code}`,
      },
    },
  ],
});
