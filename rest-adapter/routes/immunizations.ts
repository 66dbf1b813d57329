import { defineRoutes } from '../route';

export default defineRoutes('Immunizations', [
  {
    method: 'GET',
    path: '/api/patients/:id/immunizations',
    operation: 'ImmunizationSchedule',
    summary: "Get a patient's immunization schedule: every dose with its status as of today, and the adverse events reported",
  },
  {
    method: 'POST',
    path: '/api/patients/:id/immunizations/generate',
    operation: 'GenerateImmunizationSchedule',
    summary: 'Generate the age-appropriate schedule from the WHO schedule (`include`: optional vaccines); adds only what is missing',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/patients/:id/immunizations/administer',
    operation: 'AdministerImmunization',
    summary: 'Record a vaccine dose (`vaccine`, `dose_number`, `lot_number`, `site`, `administered_on`, `notes`, `override_reason`)',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/patients/:id/immunizations/missed',
    operation: 'MissedImmunizations',
    summary: 'List missed vaccinations: doses not given more than 28 days past their due date',
  },
  {
    method: 'POST',
    path: '/api/patients/:id/immunizations/aefi',
    operation: 'ReportImmunizationAdverseEvent',
    summary:
      'Report an adverse event following immunization (`immunization_id` or `vaccine`, `onset_date`, `description`, `severity`, `serious`, `outcome`)',
    status: 201,
  },
]);
