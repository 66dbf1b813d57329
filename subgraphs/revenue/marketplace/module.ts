import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { supplyOrderPayments } from './marketplace.consumers';
import { PAYMENT_REQUESTED } from './marketplace.events';
import { EmergencyRoutingResolver, SupplyOrderItemResolver, SupplyOrderResolver } from './marketplace.resolver';
import { SupplyOrder } from './order.entity';

export default defineModule({
  name: 'marketplace',
  description:
    "Patients' orders of medicines and supplies from a facility (reserve, verify against e-prescriptions, pay, pack, dispatch, deliver), cart checkout with mobile money, emergency routing to nearby stock",
  entities: [SupplyOrder],
  resolvers: [
    referenceFields(SupplyOrder, {
      verifiedByUser: { id: 'verifiedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
      customer: { id: 'customerId', type: 'User', description: 'Who placed it; null when the caller may not see them' },
    }),
    SupplyOrderResolver,
    SupplyOrderItemResolver,
    EmergencyRoutingResolver,
  ],
  topics: [PAYMENT_REQUESTED],
  consumers: [supplyOrderPayments],
});
