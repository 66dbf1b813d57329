import { defineModule } from '../../../shared/module';
import { JourneyEvent } from './journey.entity';
import { JourneyEntryResolver, JourneyResolver, PatientJourneyResolver } from './journey.resolver';

export default defineModule({
  name: 'journey',
  description: "The patient's care journey: recorded journey events merged in time order with every module's timeline entries",
  entities: [JourneyEvent],
  resolvers: [JourneyResolver, PatientJourneyResolver, JourneyEntryResolver],
  patientData: [
    {
      section: 'journey_events',
      entity: JourneyEvent,
      timeline: { kind: 'journey_event', at: 'occurredAt', title: (r) => `${r.type}: ${r.title}` },
    },
  ],
});
