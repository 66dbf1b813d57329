import { defineModule } from '../../../shared/module';
import { SecurityEvent } from './security-event.entity';

export default defineModule({
  name: 'security',
  description: 'The security audit: sign-ins, failures, role and status changes, with actor, time, address and user agent',
  entities: [SecurityEvent],
});
