import { defineModule } from '../../../shared/module';
import { ClinicalAuditResolver } from './audit.resolver';

export default defineModule({
  name: 'clinical-audit',
  description:
    "The clinical audit trail through the API: log a client's event (as the caller), read one, a record's or a user's trail, search",
  resolvers: [ClinicalAuditResolver],
});
