import { defineRoutes } from '../route';

export default defineRoutes('Organizations', [
  {
    method: 'POST',
    path: '/api/organizations',
    operation: 'CreateOrganization',
    summary: 'Create an organization; the caller becomes its ORG:ADMIN member',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/organizations',
    operation: 'Organizations',
    summary: 'List organizations (administrators see all, others the active ones)',
  },
  { method: 'GET', path: '/api/organizations/me', operation: 'MyOrganizations', summary: "List the caller's organizations" },
  { method: 'GET', path: '/api/organizations/:id', operation: 'Organization', summary: 'Get organization details' },
  {
    method: 'PATCH',
    path: '/api/organizations/:id',
    operation: 'UpdateOrganization',
    summary: 'Update an organization (ORG:ADMIN)',
  },
  {
    method: 'PATCH',
    path: '/api/organizations/:id/status',
    operation: 'ActivateOrganization',
    operationId: 'UpdateOrganizationStatus',
    operationBy: {
      field: 'status',
      type: 'OrganizationStatus',
      operations: { active: 'ActivateOrganization', suspended: 'SuspendOrganization', closed: 'CloseOrganization' },
      refused: { pending: { code: 'CONFLICT', message: 'An organization cannot return to pending' } },
    },
    summary: 'Activate, suspend or close an organization (`status`, `reason`); platform administrators',
    description: 'Closed is final: a closed organization cannot be reopened (409).',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/members',
    operation: 'OrganizationMembers',
    summary: 'List members, oldest first (`role` filters); any member',
  },
  {
    method: 'PATCH',
    path: '/api/organizations/:org_id/members/:user_id/role',
    operation: 'UpdateMemberRole',
    summary: "Change a member's `role`, or set every role they hold with `roles` (ORG:ADMIN); the last ORG:ADMIN cannot be demoted (409)",
  },
  {
    method: 'DELETE',
    path: '/api/organizations/:org_id/members/:user_id',
    operation: 'RemoveMember',
    summary: 'Remove a member (ORG:ADMIN) or leave (the member); the last ORG:ADMIN stays (409)',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/invitations',
    operation: 'OrganizationInvitations',
    summary: 'List invitations, newest first (`status`); ORG:ADMIN',
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/invitations',
    operation: 'SendInvitation',
    summary: 'Invite someone (`email`, `role`); the token travels only in the mail; ORG:ADMIN',
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/organizations/:org_id/invitations/:id',
    operation: 'RevokeInvitation',
    summary: 'Revoke a pending invitation; ORG:ADMIN',
  },
  {
    method: 'POST',
    path: '/api/organizations/invitations/accept',
    operation: 'AcceptInvitation',
    summary: 'Accept an invitation (`token`), signed in with the address it was sent to; answers the membership',
  },
]);
