import { defineRoutes } from '../route';

export default defineRoutes('Developer API keys', [
  {
    method: 'POST',
    path: '/api/developer/keys',
    operation: 'CreateApiKey',
    summary: 'Create an API key (`name`, `scopes`, `organization_id`); the secret `key` is shown only now',
    description: 'Present the key as `X-API-Key: <key>`. Organization administrators only.',
    status: 201,
  },
  { method: 'GET', path: '/api/developer/keys', operation: 'ApiKeys', summary: 'List API keys (never their secrets)' },
  {
    method: 'POST',
    path: '/api/developer/keys/:id/rotate',
    operation: 'RotateApiKey',
    summary: 'New secret; the previous one keeps working for 24 hours (`previous_valid_until`)',
  },
  { method: 'DELETE', path: '/api/developer/keys/:id', operation: 'RevokeApiKey', summary: 'Revoke a key immediately' },
]);
