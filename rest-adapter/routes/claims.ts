import { defineRoutes } from '../route';

export default defineRoutes('Claims', [
  {
    method: 'GET',
    path: '/api/rcm/claims',
    operation: 'Claims',
    summary: 'List the claims of your organizations, newest first (`organization_id`, `status`, `patient_id`, `payer_id`); claims:read',
  },
  {
    method: 'POST',
    path: '/api/rcm/claims',
    operation: 'CreateClaim',
    summary:
      'Create a draft claim for `organization_id`: `patient_id`, `policy_id`, `practitioner_id`, `type`, `diagnoses` [{`code` ICD-10, `display`}], `items` [{`code`, `category`, `description`, `quantity`, `unit_price`, `serviced_date`}]',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/rcm/claims/analytics/by-insurer',
    operation: 'ClaimAnalyticsByInsurer',
    summary: 'Claims analytics per payer and currency (`from`, `to` submission dates, `organization_id`, `payer_id`, `currency`)',
  },
  {
    method: 'GET',
    path: '/api/rcm/claims/analytics/by-provider',
    operation: 'ClaimAnalyticsByProvider',
    summary: 'Claims analytics per provider organization and currency (`from`, `to`, `organization_id`, `payer_id`, `currency`)',
  },
  {
    method: 'GET',
    path: '/api/rcm/claims/fraud-flags',
    operation: 'ClaimFraudFlags',
    summary: "Fraud flags of your organizations' claims, with the rule and the evidence (`organization_id`, `rule`, `claim_id`)",
  },
  {
    method: 'GET',
    path: '/api/rcm/claims/reconciliation',
    operation: 'ClaimReconciliation',
    summary:
      "Payments against claims: paid, short-paid (with the difference), unpaid, overdue past the payer's terms (`organization_id`, `payer_id`, `status`, `from`, `to`)",
  },
  {
    method: 'GET',
    path: '/api/rcm/claims/:id',
    operation: 'Claim',
    summary: "Get a claim with its items, the payer's adjudication and payment",
  },
  { method: 'PATCH', path: '/api/rcm/claims/:id', operation: 'UpdateClaim', summary: 'Change a draft claim (409 once submitted)' },
  {
    method: 'POST',
    path: '/api/rcm/claims/:id/submit',
    operation: 'SubmitClaim',
    summary: 'Submit a draft claim to its payer (a second submit is a 409)',
  },
  {
    method: 'POST',
    path: '/api/rcm/claims/:id/eligibility',
    operation: 'CheckClaimEligibility',
    summary: "Check the patient's eligibility: coverage in force on the first service date, plan, benefits used and left, waiting periods",
  },
  {
    method: 'GET',
    path: '/api/rcm/claims/:id/eligibility',
    operation: 'CheckClaimEligibility',
    summary: 'The same eligibility check, for clients that read it with GET',
  },
  {
    method: 'POST',
    path: '/api/rcm/claims/:id/preauth',
    operation: 'RequestClaimPreauthorization',
    summary: 'Submit a draft claim for pre-authorization: approved with an authorization number, or denied with the reason',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/claims',
    operation: 'OrganizationClaims',
    summary: "List an organization's insurance claims, newest first (`status`); claims:read",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/claims',
    operation: 'FileOrganizationClaim',
    summary: 'Submit a claim in one step: created (the body of `POST /api/rcm/claims`) and submitted to the payer',
    status: 201,
  },
]);
