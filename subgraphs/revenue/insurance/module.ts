import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { InsurancePlan, InsurancePolicy, Payer } from './insurance.entity';
import { POLICY_ACTIVATED, POLICY_ENROLLED } from './insurance.events';
import { InsurancePlanResolver, InsurancePolicyResolver, PayerResolver } from './insurance.resolver';
import { seedSandboxMarketplace } from './sandbox-marketplace';

export default defineModule({
  name: 'insurance',
  description:
    'Insurance marketplace: payers, plans (premium, cover limits, waiting periods, currency), enrollment and policies activated by their first premium',
  entities: [Payer, InsurancePlan, InsurancePolicy],
  resolvers: [
    referenceFields(InsurancePolicy, { enrolledByUser: { id: 'enrolledBy', type: 'User' } }),
    PayerResolver,
    InsurancePlanResolver,
    InsurancePolicyResolver,
  ],
  topics: [POLICY_ENROLLED, POLICY_ACTIVATED],
  async onStart({ orm }) {
    await seedSandboxMarketplace(orm.em.fork() as never);
  },
});
