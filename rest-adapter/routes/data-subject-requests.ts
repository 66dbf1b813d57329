import { defineRoutes } from '../route';

export default defineRoutes('Data subject requests', [
  {
    method: 'POST',
    path: '/api/patients/:id/erasure-request',
    operation: 'RequestErasure',
    summary: 'Request data erasure (GDPR Art. 17): `reason`, `confirm: true`; personal identifiers are pseudonymized at once',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/patients/:id/dsr',
    operation: 'DataSubjectRequests',
    summary: 'List data subject requests with their status',
  },
  {
    method: 'GET',
    path: '/api/patients/:id/export',
    operation: 'PatientExport',
    summary: 'Export everything held about the patient, machine-readable (GDPR Art. 20)',
  },
]);
