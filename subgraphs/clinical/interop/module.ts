import { defineModule } from '../../../shared/module';
import { ClinicalRecord } from '../clinical-records/clinical-record.entity';
import { referenceFields } from '../../../shared/refs';
import { patientField, recordFields } from '../patients/patient-link';
import { SmartLaunch } from './interop.entity';
import { InteropResolver } from './interop.resolver';

export default defineModule({
  name: 'interop',
  description:
    'Interoperability: cross-border lookup through national health information exchanges, SMART on FHIR launch, the read-only FHIR R4 API',
  entities: [SmartLaunch],
  resolvers: [
    recordFields(SmartLaunch, { encounter: { id: 'encounterId', type: ClinicalRecord, hidden: (r) => !!(r as ClinicalRecord).deletedAt } }),
    patientField(SmartLaunch),
    referenceFields(SmartLaunch, {
      launchedByUser: { id: 'launchedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    InteropResolver,
  ],
  patientData: [{ section: 'smart_launches', entity: SmartLaunch }],
});
