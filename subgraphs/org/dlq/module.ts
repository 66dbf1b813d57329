import { defineModule } from '../../../shared/module';
import { DeadLetterResolver } from './dlq.resolver';

export default defineModule({
  name: 'dlq',
  description: "The operators' API over the dead letter queue (the entries live in the platform's own store): list, depth, retry, discard",
  resolvers: [DeadLetterResolver],
});
