import { defineRoutes } from '../route';

export default defineRoutes('Diagnostic reports', [
  {
    method: 'GET',
    path: '/api/diagnostic-reports',
    operation: 'DiagnosticReports',
    summary:
      "List diagnostic reports, newest first: one patient's (`patient_id`), or those of my organizations and my own; filters `status`, `category`, `service_request_id`",
  },
  {
    method: 'POST',
    path: '/api/diagnostic-reports',
    operation: 'CreateDiagnosticReport',
    summary:
      'Write a preliminary diagnostic report (`patient_id`, `service_request_id`, `category`, `code`, `code_system`, `title`, ' +
      '`findings`, `conclusion`, `result_summary`, `effective_at`)',
    status: 201,
  },
  { method: 'GET', path: '/api/diagnostic-reports/:id', operation: 'DiagnosticReport', summary: 'Get a diagnostic report' },
  {
    method: 'PATCH',
    path: '/api/diagnostic-reports/:id',
    operation: 'UpdateDiagnosticReport',
    summary: 'Change a preliminary diagnostic report; a final one cannot be changed (409)',
  },
  {
    method: 'POST',
    path: '/api/diagnostic-reports/:id/sign',
    operation: 'SignDiagnosticReport',
    summary: 'Sign a preliminary report, making it final (doctors only); an active service request it answers becomes completed',
  },
]);
