import { defineRoutes } from '../route';

export default defineRoutes('Consent', [
  { method: 'GET', path: '/api/consent', operation: 'MyConsents', summary: 'List my consents (as patient, grantee or requester)' },
  {
    method: 'POST',
    path: '/api/consent/grant',
    operation: 'GrantConsent',
    summary: 'Grant consent: a clinician (`grantee_user_id`) or organization (`grantee_organization_id`) may read my clinical data',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/consent/request',
    operation: 'RequestConsent',
    summary: 'Request consent from a patient (`patient_id`, `purpose`)',
    status: 201,
  },
  { method: 'GET', path: '/api/consent/:id', operation: 'Consent', summary: 'Get a consent record' },
  { method: 'POST', path: '/api/consent/:id/approve', operation: 'ApproveConsent', summary: 'Approve a consent request (the patient)' },
  { method: 'POST', path: '/api/consent/:id/revoke', operation: 'RevokeConsent', summary: 'Revoke a consent; access ends at once' },
]);
