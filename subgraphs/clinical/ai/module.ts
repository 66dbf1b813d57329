import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { AiDevice, AiModel } from './ai.entity';
import { AiDeviceResolver, AiModelResolver, AiResolver } from './ai.resolver';
import { seedBuiltinModels } from './builtin-models';

export default defineModule({
  name: 'ai',
  description:
    'AI services (differential diagnosis, lab interpretation, risk scores, cancer detection, general inference) from a model registry: built-in models offline, external ones over KServe v2 or an OpenAI-compatible API; edge devices and their heartbeats',
  entities: [AiModel, AiDevice],
  resolvers: [
    referenceFields(AiModel, { registeredByUser: { id: 'registeredBy', type: 'User' } }),
    referenceFields(AiDevice, {
      registeredByUser: { id: 'registeredBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    AiResolver,
    AiModelResolver,
    AiDeviceResolver,
  ],
  async onStart({ orm }) {
    await seedBuiltinModels(orm.em.fork());
  },
});
