import { defineRoutes } from '../route';

export default defineRoutes('Public health', [
  {
    method: 'GET',
    path: '/api/public-health/dashboard',
    operation: 'PublicHealthDashboard',
    summary: 'Notifiable cases by disease, week, organization and classification (`from`, `to`, `disease_code`, `organization_id`)',
  },
  {
    method: 'POST',
    path: '/api/public-health/cases',
    operation: 'ReportNotifiableCase',
    summary:
      'Report a notifiable case (`patient_id`, `icd10_code`, `onset_date`, `classification`, `outcome`, `notes`); ' +
      'a repeat report of the same patient and disease within the incubation window is linked, not counted again',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/public-health/cases',
    operation: 'NotifiableCases',
    summary:
      'List the notifiable case reports I may read (`patient_id`, `organization_id`, `disease_code`, `classification`, `from`, `to`)',
  },
  { method: 'GET', path: '/api/public-health/cases/:id', operation: 'NotifiableCase', summary: 'Get a notifiable case report' },
  {
    method: 'GET',
    path: '/api/public-health/diseases',
    operation: 'NotifiableDiseases',
    summary: 'List the notifiable diseases with their ICD-10 codes, incubation periods and whether they are reported immediately',
  },
  {
    method: 'GET',
    path: '/api/public-health/reportsys-export',
    operation: 'ReportsysExport',
    summary:
      'Case counts of a `period` (DHIS2 syntax: 2026W47, 202611) as DHIS2 dataValueSets, one per org unit (`organization_id` for one)',
  },
  {
    method: 'POST',
    path: '/api/public-health/reportsys-export',
    operation: 'ReportsysExport',
    summary: 'The same export, with `period` and `organization_id` in the body',
  },
  {
    method: 'POST',
    path: '/api/public-health/reportsys-push',
    operation: 'PushReportsys',
    summary:
      'Post the case counts of a `period` to the aggregate reporting system and keep its import summaries; the same period again updates',
  },
  {
    method: 'GET',
    path: '/api/public-health/reportsys-mappings/:organization_id',
    operation: 'ReportsysMapping',
    summary:
      "An organization's aggregate reporting mapping as its reports use it (`source`: set, seed or built_in): org unit, data sets, data elements and category option combos",
  },
  {
    method: 'PUT',
    path: '/api/public-health/reportsys-mappings/:organization_id',
    operation: 'SetReportsysMapping',
    summary:
      "Set an organization's aggregate reporting mapping, replacing the one it had (`id_scheme` uid or code, `org_unit`, `data_set`, `surveillance_data_set`, `attribute_option_combo`, `age_bands`, `diseases`, `syndromes`)",
  },
  {
    method: 'DELETE',
    path: '/api/public-health/reportsys-mappings/:organization_id',
    operation: 'ResetReportsysMapping',
    summary: 'Forget the mapping set for an organization: it reports by the REPORTSYS_MAPPING seed or the built-in default again',
  },
]);
