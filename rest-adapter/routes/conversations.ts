import { defineRoutes } from '../route';

export default defineRoutes('Conversations', [
  {
    method: 'GET',
    path: '/api/organizations/:org_id/conversations',
    operation: 'Conversations',
    summary: "List the caller's conversations, latest activity first",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/conversations',
    operation: 'CreateConversation',
    summary: 'Start a conversation with members (`subject`, `participant_ids`, `patient_id`)',
    synonyms: { title: 'subject' },
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/conversations/:id',
    operation: 'Conversation',
    summary: 'Get a conversation the caller takes part in',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/conversations/:id/messages',
    operation: 'ConversationMessages',
    summary: 'List messages, newest first; reading the first page marks them read',
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/conversations/:id/messages',
    operation: 'SendMessage',
    summary: 'Send a message (`body`, 1 to 5000 characters)',
    synonyms: { content: 'body', message: 'body' },
    status: 201,
  },
]);
