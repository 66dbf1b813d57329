import { defineModule } from '../../../shared/module';
import { SmartLaunch } from './interop.entity';
import { InteropResolver } from './interop.resolver';

export default defineModule({
  name: 'interop',
  description:
    'Interoperability: cross-border lookup through national health information exchanges, SMART on FHIR launch, the read-only FHIR R4 API',
  entities: [SmartLaunch],
  resolvers: [InteropResolver],
  patientData: [{ section: 'smart_launches', entity: SmartLaunch }],
});
