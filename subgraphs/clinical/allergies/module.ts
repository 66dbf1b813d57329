import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { Allergy } from './allergy.entity';
import { AllergyResolver, PatientAllergiesResolver } from './allergy.resolver';

export default defineModule({
  name: 'allergies',
  description: "A patient's allergies and intolerances with severity and criticality",
  entities: [Allergy],
  resolvers: [
    referenceFields(Allergy, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(Allergy),
    referenceFields(Allergy, { recordedByUser: { id: 'recordedBy', type: 'User' }, updatedByUser: { id: 'updatedBy', type: 'User' } }),
    AllergyResolver,
    PatientAllergiesResolver,
  ],
  patientData: [
    {
      section: 'allergies',
      entity: Allergy,
      timeline: { kind: 'allergy', at: 'createdAt', title: (r) => `Allergy recorded: ${r.substance}` },
    },
  ],
});
