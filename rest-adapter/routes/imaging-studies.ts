import { defineRoutes } from '../route';

export default defineRoutes('Imaging studies', [
  {
    method: 'GET',
    path: '/api/imaging-studies',
    operation: 'ImagingStudies',
    summary:
      "List imaging studies, newest first: one patient's (`patient_id`), or those of my organizations and my own; filters `status`, `modality`",
  },
  {
    method: 'POST',
    path: '/api/imaging-studies',
    operation: 'CreateImagingStudy',
    summary:
      'Record an imaging study (`patient_id`, `imaging_order_id`, `service_request_id`, `modality`, `body_part`, `description`, ' +
      '`study_instance_uid`, `number_of_series`, `number_of_instances`, `started_at`, `status` `registered` or `available`)',
    status: 201,
  },
  { method: 'GET', path: '/api/imaging-studies/:id', operation: 'ImagingStudy', summary: 'Get an imaging study' },
  {
    method: 'PATCH',
    path: '/api/imaging-studies/:id/status',
    operation: 'MakeImagingStudyAvailable',
    operationId: 'UpdateImagingStudyStatus',
    operationBy: {
      field: 'status',
      type: 'ImagingStudyStatus',
      operations: {
        available: 'MakeImagingStudyAvailable',
        cancelled: 'CancelImagingStudy',
        entered_in_error: 'MarkImagingStudyEnteredInError',
      },
      refused: { registered: { code: 'VALIDATION_ERROR', message: 'must be one of: available, cancelled, entered_in_error' } },
    },
    summary: 'Change the status of an imaging study (`status`: `available`, `cancelled`, `entered_in_error`; `reason`)',
  },
]);
