import { defineRoutes } from '../route';

export default defineRoutes('Auth and admin', [
  {
    method: 'GET',
    path: '/api/admin/users',
    operation: 'AdminUsers',
    summary: 'List all users; filter by `role`, `status`, `search` (Super Admin)',
  },
  {
    method: 'PATCH',
    path: '/api/admin/users/:id/status',
    operation: 'SuspendUser',
    operationId: 'SetUserStatus',
    operationBy: {
      field: 'status',
      type: 'UserStatus',
      operations: { active: 'ActivateUser', suspended: 'SuspendUser' },
    },
    summary: 'Update user status (`active` or `suspended`, optional `reason`) (Super Admin)',
    description: 'Suspending a user ends their sessions and rejects their tokens and their API keys at once.',
  },
  {
    method: 'GET',
    path: '/api/admin/health',
    operation: 'SystemHealth',
    summary: 'System health: PostgreSQL, Redis and queues, each with latency (Super Admin)',
  },
]);
