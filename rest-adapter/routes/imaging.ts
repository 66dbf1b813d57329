import { defineRoutes } from '../route';

export default defineRoutes('Imaging', [
  {
    method: 'GET',
    path: '/api/imaging',
    operation: 'ImagingOrders',
    summary:
      "List imaging orders, newest first: one patient's (`patient_id`), or those of my organizations and my own; filters `status`, `modality`",
  },
  {
    method: 'POST',
    path: '/api/imaging',
    operation: 'CreateImagingOrder',
    summary: 'Order an imaging examination (`patient_id`, `modality`, `body_part`, `laterality`, `priority`, `clinical_indication`)',
    status: 201,
  },
  { method: 'GET', path: '/api/imaging/:id', operation: 'ImagingOrder', summary: 'Get an imaging order' },
  {
    method: 'POST',
    path: '/api/imaging/:id/cancel',
    operation: 'CancelImagingOrder',
    summary: 'Cancel an imaging order that is ordered or scheduled (`reason`)',
  },
]);
