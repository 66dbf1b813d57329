import { defineRoutes } from '../route';

export default defineRoutes('Feedback', [
  {
    method: 'POST',
    path: '/api/feedback',
    operation: 'SubmitFeedback',
    summary:
      'Send feedback (`category`, `rating` 1-5, `message`, optional `organization_id` or `appointment_id`); 429 beyond the rate limit',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/feedback',
    operation: 'FeedbackList',
    summary:
      "List feedback: all for administrators, an organization's for its administrators, my own (`status`, `category`, `organization_id`, `mine`)",
  },
  { method: 'GET', path: '/api/feedback/:id', operation: 'Feedback', summary: 'Get feedback (its handlers and its sender)' },
  {
    method: 'PATCH',
    path: '/api/feedback/:id',
    operation: 'UpdateFeedback',
    summary: 'Set the status (`triaged`, `resolved`; 409 otherwise) and `resolution_note` (administrators)',
  },
  {
    method: 'POST',
    path: '/api/feedback/anonymous',
    operation: 'SubmitAnonymousFeedback',
    summary:
      'Send feedback without an account (`category`, `rating`, `message`, `organization_id`); nothing about the sender is kept; 429 beyond the rate limit per address',
    status: 201,
    access: 'public',
  },
]);
