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
    method: 'GET',
    path: '/api/organizations/:org_id/invoices',
    operation: 'OrganizationInvoices',
    summary: "List an organization's invoices",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/invoices',
    operation: 'CreateOrganizationInvoice',
    summary: 'Create a draft invoice',
    status: 201,
  },
]);
