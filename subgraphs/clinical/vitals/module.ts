import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { Vital, VitalStatus } from './vital.entity';
import { PatientVitalsResolver, VitalResolver } from './vital.resolver';

export default defineModule({
  name: 'vitals',
  description: 'Vital signs with physiologically plausible ranges; corrections amend, deletions are entered in error',
  entities: [Vital],
  resolvers: [
    referenceFields(Vital, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(Vital),
    referenceFields(Vital, { recordedByUser: { id: 'recordedBy', type: 'User' }, updatedByUser: { id: 'updatedBy', type: 'User' } }),
    VitalResolver,
    PatientVitalsResolver,
  ],
  patientData: [
    {
      section: 'vitals',
      entity: Vital,
      timeline: {
        kind: 'vital_signs',
        at: 'recordedAt',
        where: { status: { $ne: VitalStatus.entered_in_error } },
        title: () => 'Vital signs recorded',
      },
    },
  ],
});
