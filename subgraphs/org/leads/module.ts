import { defineModule } from '../../../shared/module';
import { formLeads } from './lead.consumers';
import { Lead } from './lead.entity';

export default defineModule({
  name: 'leads',
  description: 'People who reached out through external forms (inbound webhook)',
  entities: [Lead],
  consumers: [formLeads],
});
