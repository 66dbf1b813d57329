import { defineModule } from '../../../shared/module';
import { Consent } from './consent.entity';
import { ConsentResolver } from './consent.resolver';

export default defineModule({
  name: 'consent',
  description: "Consent to read a patient's records: grant, request, approve, revoke; enforced on every clinical read",
  entities: [Consent],
  resolvers: [ConsentResolver],
  patientData: [{ section: 'consents', entity: Consent }],
});
