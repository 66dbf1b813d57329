import { defineModule } from '../../../shared/module';
import { Allergy } from './allergy.entity';
import { AllergyResolver, PatientAllergiesResolver } from './allergy.resolver';

export default defineModule({
  name: 'allergies',
  description: "A patient's allergies and intolerances with severity and criticality",
  entities: [Allergy],
  resolvers: [AllergyResolver, PatientAllergiesResolver],
  patientData: [
    {
      section: 'allergies',
      entity: Allergy,
      timeline: { kind: 'allergy', at: 'createdAt', title: (r) => `Allergy recorded: ${r.substance}` },
    },
  ],
});
