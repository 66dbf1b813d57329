import { defineModule } from '../../../shared/module';
import { idLinkFields, referenceFields } from '../../../shared/refs';
import { StockMovement } from '../inventory/stock.entity';
import { supplyOrderPayments } from './marketplace.consumers';
import { PAYMENT_REQUESTED } from './marketplace.events';
import { EmergencyRoutingResolver, SupplyOrderItemResolver, SupplyOrderResolver } from './marketplace.resolver';
import { CheckoutPayment } from './marketplace.types';
import { SupplyOrder } from './order.entity';
import { SupplyOrderService } from './order.service';

const orders = new SupplyOrderService();
const ORDER_DESCRIPTION = 'The supply order; null when there is none or the caller may not see it (the rule of supplyOrder(id))';

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
    idLinkFields(StockMovement, 'OrderLink', {
      order: { id: 'orderId', type: SupplyOrder, description: ORDER_DESCRIPTION, resolve: (id, ctx) => orders.visible(ctx, id) },
    }),
    idLinkFields(CheckoutPayment, 'OrderLink', {
      order: { id: 'orderId', type: SupplyOrder, description: ORDER_DESCRIPTION, resolve: (id, ctx) => orders.visible(ctx, id) },
    }),
    SupplyOrderResolver,
    SupplyOrderItemResolver,
    EmergencyRoutingResolver,
  ],
  topics: [PAYMENT_REQUESTED],
  consumers: [supplyOrderPayments],
});
