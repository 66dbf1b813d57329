import { defineModule } from '../../../shared/module';
import { PatientTreatment, TreatmentProtocol, TreatmentProtocolVersion } from './treatment.entity';
import { PatientTreatmentResolver, PatientTreatmentsResolver, TreatmentProtocolResolver } from './treatment.resolver';

export default defineModule({
  name: 'treatments',
  description:
    'Treatment protocols (steps of medications, doses and durations; versioned; retired once used) and patients on them (progress, completed or discontinued)',
  entities: [TreatmentProtocol, TreatmentProtocolVersion, PatientTreatment],
  resolvers: [TreatmentProtocolResolver, PatientTreatmentResolver, PatientTreatmentsResolver],
  patientData: [
    {
      section: 'treatments',
      entity: PatientTreatment,
      timeline: { kind: 'treatment', at: 'startDate', title: (r) => `Treatment started: ${r.protocolName}` },
    },
  ],
});
