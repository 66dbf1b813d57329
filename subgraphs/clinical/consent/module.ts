import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { Consent } from './consent.entity';
import { ConsentResolver, PatientConsentsResolver } from './consent.resolver';

export default defineModule({
  name: 'consent',
  description: "Consent to read a patient's records: grant, request, approve, revoke; enforced on every clinical read",
  entities: [Consent],
  resolvers: [
    patientField(Consent),
    referenceFields(Consent, {
      granteeUser: { id: 'granteeUserId', type: 'User', description: 'The person the consent is granted to, when it names a person' },
      granteeOrganization: {
        id: 'granteeOrganizationId',
        type: 'Organization',
        description: 'The organization the consent is granted to, when it names one',
      },
      requestedByUser: { id: 'requestedBy', type: 'User' },
    }),
    ConsentResolver,
    PatientConsentsResolver,
  ],
  patientData: [{ section: 'consents', entity: Consent }],
});
