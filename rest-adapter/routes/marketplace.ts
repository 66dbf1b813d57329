import { defineRoutes } from '../route';

export default defineRoutes('Supply marketplace: orders', [
  {
    method: 'POST',
    path: '/api/marketplace/orders',
    operation: 'CreateSupplyOrder',
    summary:
      'Order from one facility (`facility_id`, `items` of `product_id` and `quantity`, `patient_id`); its units are reserved, 409 when short',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/marketplace/orders',
    operation: 'SupplyOrders',
    summary: "List my orders, or a facility's (`facility_id`, its staff); filters `patient_id`, `status`",
  },
  { method: 'GET', path: '/api/marketplace/orders/:id', operation: 'SupplyOrder', summary: 'Get an order' },
  {
    method: 'DELETE',
    path: '/api/marketplace/orders/:id',
    operation: 'CancelSupplyOrder',
    summary: 'Cancel a pending or verified order (`reason` optional); its reserved units are released and the order is kept as cancelled',
  },
  {
    method: 'POST',
    path: '/api/marketplace/orders/:id/verify',
    operation: 'VerifySupplyOrder',
    summary:
      'A pharmacist verifies an order; `eprescriptions` of `product_id` and `eprescription_id` cover its prescription-only items (409 without)',
  },
  {
    method: 'POST',
    path: '/api/marketplace/orders/:id/transition',
    operation: 'VerifySupplyOrder',
    operationId: 'TransitionSupplyOrder',
    operationBy: {
      field: 'status',
      type: 'SupplyOrderStatus',
      operations: {
        verified: 'VerifySupplyOrder',
        paid: 'PaySupplyOrder',
        packed: 'PackSupplyOrder',
        dispatched: 'DispatchSupplyOrder',
        delivered: 'DeliverSupplyOrder',
        cancelled: 'CancelSupplyOrder',
      },
      refused: { pending: { code: 'CONFLICT', message: 'A supply order cannot return to pending' } },
    },
    summary: 'Move an order to `status` (verified, paid, packed, dispatched, delivered, cancelled); 409 when the machine does not allow it',
  },
  {
    method: 'POST',
    path: '/api/marketplace/cart/checkout',
    operation: 'CheckoutCart',
    summary: 'Turn a cart into an order; with `payment` (`provider`, `phone`) a mobile money payment is requested for it',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/marketplace/emergency-routing',
    operation: 'EmergencySupplyRouting',
    summary:
      'Facilities and suppliers holding `quantity` of `product_id` near `latitude`/`longitude`, nearest first (`radius_km`, `limit`)',
  },
]);
