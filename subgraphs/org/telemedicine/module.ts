import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { videoWebhooks } from './telemedicine.consumers';
import { VideoParticipant, VideoSession } from './telemedicine.entity';
import { TelemedicineResolver } from './telemedicine.resolver';

export default defineModule({
  name: 'telemedicine',
  description: "Video sessions of appointments through the video provider, their participants, and the provider's webhooks",
  entities: [VideoSession, VideoParticipant],
  resolvers: [
    organizationField(VideoSession),
    userFields(VideoSession, { initiatedByUser: { id: 'initiatedBy' }, endedByUser: { id: 'endedBy' } }),
    TelemedicineResolver,
  ],
  consumers: [videoWebhooks],
});
