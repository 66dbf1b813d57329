import { defineRoutes } from '../route';

export default defineRoutes('Insurance marketplace', [
  {
    method: 'GET',
    path: '/api/rcm/marketplace/plans',
    operation: 'InsurancePlans',
    summary:
      'List the insurance plans on sale: premium, cover limit, co-insurance, waiting periods, benefits (`currency`, `payer_id`, `category`)',
  },
  {
    method: 'POST',
    path: '/api/rcm/marketplace/enroll',
    operation: 'EnrollInPlan',
    summary:
      'Enroll a patient in a plan (`plan_id`, `patient_id`, `start_date`): a policy `pending_payment` until its first premium is paid',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/rcm/marketplace/policies',
    operation: 'InsurancePolicies',
    summary: "List active policies (`status` for others, `organization_id`, `patient_id`): your organizations' patients' and your own",
  },
]);
