import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField, recordFields } from '../patients/patient-link';
import { DoseState, Immunization, ImmunizationAdverseEvent } from './immunization.entity';
import { ImmunizationResolver, PatientImmunizationsResolver } from './immunization.resolver';
import { ImmunizationSchedule } from './immunization.types';

export default defineModule({
  name: 'immunizations',
  description: 'Immunization schedules from the WHO infant schedule, administered doses, missed doses, adverse events (AEFI)',
  entities: [Immunization, ImmunizationAdverseEvent],
  resolvers: [
    patientField(ImmunizationSchedule),
    recordFields(ImmunizationAdverseEvent, { immunization: { id: 'immunizationId', type: Immunization } }),
    patientField(Immunization),
    referenceFields(Immunization, {
      administeredByUser: { id: 'administeredBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(ImmunizationAdverseEvent),
    referenceFields(ImmunizationAdverseEvent, {
      reportedByUser: { id: 'reportedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    ImmunizationResolver,
    PatientImmunizationsResolver,
  ],
  patientData: [
    {
      section: 'immunizations',
      entity: Immunization,
      timeline: {
        kind: 'immunization',
        at: 'administeredOn',
        where: { state: DoseState.administered },
        title: (r) => `Immunization: ${r.vaccine} dose ${r.doseNumber}`,
      },
    },
    {
      section: 'immunization_adverse_events',
      entity: ImmunizationAdverseEvent,
      timeline: { kind: 'immunization_adverse_event', at: 'onsetDate', title: (r) => `Adverse event after ${r.vaccine} (${r.severity})` },
    },
  ],
});
