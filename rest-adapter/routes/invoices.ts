import { defineRoutes } from '../route';

export default defineRoutes('Invoices', [
  {
    method: 'GET',
    path: '/api/organizations/:org_id/invoices',
    operation: 'OrganizationInvoices',
    summary: "List an organization's invoices, newest first (`status`); invoices:read",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/invoices',
    operation: 'CreateOrganizationInvoice',
    summary:
      'Create a draft invoice (`currency`, `items` [{`description`, `code`, `quantity`, `unit_price`, `discount`, `tax_rate` %}], `patient_id`, `claim_id`, `due_date`, `notes`); invoices:write',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/rcm/invoices',
    operation: 'Invoices',
    summary: 'List the invoices of your organizations, newest first (`organization_id`, `patient_id`, `claim_id`, `status`)',
  },
  {
    method: 'POST',
    path: '/api/rcm/invoices',
    operation: 'CreateInvoice',
    summary: 'Create a draft invoice for `organization_id` (the same body as the organization path); totals are the sums of the lines',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/rcm/invoices/:id',
    operation: 'Invoice',
    summary: 'Get an invoice with its lines, tax, discounts, payments and claim',
  },
]);
