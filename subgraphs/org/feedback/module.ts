import { defineModule } from '../../../shared/module';
import { userFields } from '../users/user-link';
import { Feedback } from './feedback.entity';
import { FeedbackResolver } from './feedback.resolver';

/**
 * Feedback lives in org: it is about organizations, their appointments, staff and service, and the platform; it is
 * handled by organizations' administrators. It holds no clinical data about a patient.
 */
export default defineModule({
  name: 'feedback',
  description:
    'Feedback about organizations, appointments and the platform, signed in or anonymous (rate limited), triaged and resolved by administrators',
  entities: [Feedback],
  resolvers: [
    userFields(Feedback, {
      submittedByUser: { id: 'submittedBy' },
      triagedByUser: { id: 'triagedBy' },
      resolvedByUser: { id: 'resolvedBy' },
    }),
    FeedbackResolver,
  ],
});
