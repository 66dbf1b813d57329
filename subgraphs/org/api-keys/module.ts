import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { ApiKey, ApiKeySecret } from './api-key.entity';
import { ApiKeyResolver } from './api-key.resolver';

export default defineModule({
  name: 'api-keys',
  description: 'Developer API keys of an organization: scoped, shown once, rotated with a 24-hour grace, revoked at once',
  entities: [ApiKey, ApiKeySecret],
  resolvers: [organizationField(ApiKey), userFields(ApiKey, { createdByUser: { id: 'createdBy' } }), ApiKeyResolver],
});
