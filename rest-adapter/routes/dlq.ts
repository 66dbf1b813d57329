import { defineRoutes } from '../route';

export default defineRoutes('Dead letter queue', [
  {
    method: 'GET',
    path: '/admin/dlq',
    operation: 'DeadLetters',
    summary: 'List dead letter entries, newest first (SUPER:ADMIN, APP:ADMIN)',
  },
  {
    method: 'GET',
    path: '/admin/dlq/depth',
    operation: 'DeadLetterDepth',
    summary: 'Dead letter depth: `depth`, `alert` (at DLQ_ALERT_THRESHOLD), `oldest_event`',
  },
  {
    method: 'POST',
    path: '/admin/dlq/:id/retry',
    operation: 'RetryDeadLetter',
    summary: 'Re-queue a failed event to its queue with fresh attempts; it leaves the DLQ',
  },
  {
    method: 'DELETE',
    path: '/admin/dlq/:id',
    operation: 'DiscardDeadLetter',
    summary: 'Discard a failed event permanently',
  },
]);
