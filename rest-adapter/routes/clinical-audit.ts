import { defineRoutes } from '../route';

export default defineRoutes('Clinical audit', [
  {
    method: 'POST',
    path: '/api/clinical/audit',
    operation: 'LogAuditEvent',
    summary:
      'Log an audit event of the caller (`action`: view, print, download, share, copy, screenshot, disclose, emergency_access; `resource_type`, ' +
      '`resource_id`, `patient_id`, `organization_id`, `details`); the caller is the actor, always',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/clinical/audit/search',
    operation: 'SearchAuditEvents',
    summary:
      'Search audit events (`actor_id`, `action`, `resource_type`, `resource_id`, `patient_id`, `organization_id`, `from`, `to`), newest first',
  },
  {
    method: 'GET',
    path: '/api/clinical/audit/resource/:resource_type/:resource_id',
    operation: 'ResourceAuditTrail',
    summary: "A record's audit trail (`from`, `to`), newest first",
  },
  {
    method: 'GET',
    path: '/api/clinical/audit/user/:user_id',
    operation: 'UserAuditTrail',
    summary: "A user's audit trail (`from`, `to`): my own; administrators anyone's",
  },
  { method: 'GET', path: '/api/clinical/audit/:id', operation: 'ClinicalAuditEvent', summary: 'Get an audit event' },
]);
