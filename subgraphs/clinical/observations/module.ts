import { defineModule } from '../../../shared/module';
import { Observation, ObservationStatus } from './observation.entity';
import { ObservationResolver } from './observation.resolver';

export default defineModule({
  name: 'observations',
  description: 'FHIR Observation-like measurements with LOINC codes and unit checks',
  entities: [Observation],
  resolvers: [ObservationResolver],
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
