import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { JourneyEvent } from './journey.entity';
import { JourneyEntryResolver, JourneyResolver, PatientJourneyResolver } from './journey.resolver';

export default defineModule({
  name: 'journey',
  description: "The patient's care journey: recorded journey events merged in time order with every module's timeline entries",
  entities: [JourneyEvent],
  resolvers: [
    patientField(JourneyEvent),
    referenceFields(JourneyEvent, {
      recordedByUser: { id: 'recordedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    JourneyResolver,
    PatientJourneyResolver,
    JourneyEntryResolver,
  ],
  patientData: [
    {
      section: 'journey_events',
      entity: JourneyEvent,
      timeline: { kind: 'journey_event', at: 'occurredAt', title: (r) => `${r.type}: ${r.title}` },
    },
  ],
});
