import { defineRoutes } from '../route';

export default defineRoutes('Service requests', [
  {
    method: 'GET',
    path: '/api/service-requests',
    operation: 'ServiceRequests',
    summary:
      "List service requests (lab and imaging orders, procedures, referrals), newest first: one patient's (`patient_id`), or those of my organizations and my own; filters `status`, `category`",
  },
  {
    method: 'POST',
    path: '/api/service-requests',
    operation: 'CreateServiceRequest',
    summary:
      'Request a service (`patient_id`, `category`, `code`, `code_system`, `description`, `priority`, `reason`, `notes`, ' +
      '`performer_organization_id`, `occurrence_at`, `status` `active` or `draft`)',
    status: 201,
  },
  { method: 'GET', path: '/api/service-requests/:id', operation: 'ServiceRequest', summary: 'Get a service request' },
  {
    method: 'PATCH',
    path: '/api/service-requests/:id/status',
    operation: 'ActivateServiceRequest',
    operationId: 'UpdateServiceRequestStatus',
    operationBy: {
      field: 'status',
      type: 'ServiceRequestStatus',
      operations: {
        active: ['ActivateServiceRequest', 'ResumeServiceRequest'],
        on_hold: 'HoldServiceRequest',
        completed: 'CompleteServiceRequest',
        revoked: 'RevokeServiceRequest',
        entered_in_error: 'MarkServiceRequestEnteredInError',
      },
      refused: {
        draft: { code: 'VALIDATION_ERROR', message: 'must be one of: active, on_hold, completed, revoked, entered_in_error' },
      },
    },
    summary: 'Change the status of a service request (`status`: `active`, `on_hold`, `completed`, `revoked`, `entered_in_error`; `reason`)',
  },
]);
