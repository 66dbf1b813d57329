import { defineRoutes } from '../route';

export default defineRoutes('Decision support', [
  {
    method: 'POST',
    path: '/api/cds/drug-interactions/check',
    operation: 'CheckDrugInteractions',
    summary:
      'Check drug-drug interactions: `medications` [{`name`, `rxcui`}] answers `interactions` [{`severity`, `description`, `drugs`, `recommendation`}], ' +
      "with `unrecognized` names; with `patient_id`, also `allergy_conflicts` with the patient's active allergies",
  },
  {
    method: 'POST',
    path: '/api/cds/drug-interactions',
    operation: 'UpsertDrugInteraction',
    summary:
      'Add an interaction rule or replace the rule of the same pair (`drug_a`, `drug_b`, `severity`, `description`, `recommendation`, `source`); the next check uses it',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/cds/drug-interactions',
    operation: 'DrugInteractionRules',
    summary: 'List interaction rules (`drug` to see those that apply to one drug or its classes, `severity`)',
  },
  {
    method: 'POST',
    path: '/api/cds/early-warning-score',
    operation: 'CalculateEarlyWarningScore',
    summary:
      'Calculate NEWS2 (RCP 2017): `respiratory_rate`, `oxygen_saturation`, `spo2_scale`, `supplemental_oxygen`, `blood_pressure_systolic`, `heart_rate`, ' +
      '`consciousness`, `temperature`; with `patient_id`, the latest vital signs fill what is not given and the score is kept',
  },
  {
    method: 'POST',
    path: '/api/cds/panic-values/check',
    operation: 'CheckPanicValues',
    summary: 'Check lab results (`results` [{`code` or `name`, `value`, `unit`}]) against the critical (panic) limits',
  },
  {
    method: 'POST',
    path: '/api/cds/adverse-events',
    operation: 'ReportAdverseEvent',
    summary:
      'Report a suspected adverse drug reaction (`patient_id`, `suspected_drug`, `reaction`, `seriousness_criteria` per ICH E2A, `outcome`, ...)',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/cds/adverse-events',
    operation: 'AdverseEvents',
    summary: "List adverse event reports, newest first: one patient's (`patient_id`), or those of my organizations; `serious` filters",
  },
  { method: 'GET', path: '/api/cds/adverse-events/:id', operation: 'AdverseEvent', summary: 'Get an adverse event report' },
  {
    method: 'GET',
    path: '/api/cds/patient-risk',
    operation: 'PatientRisk',
    summary: "A patient's risk assessment (`patient_id`): NEWS2, unreviewed critical results, interactions, allergies, with reasons",
  },
  {
    method: 'GET',
    path: '/cds-services',
    operation: 'CdsServices',
    summary: 'CDS Hooks discovery: `{services: [...]}`, as the CDS Hooks 2.0 specification defines it (no envelope)',
    access: 'public',
    envelope: false,
  },
  {
    method: 'POST',
    path: '/cds-hooks/:hook_id',
    operation: 'InvokeCdsHook',
    summary:
      'Call a CDS service with a CDS Hooks request (`hook`, `hookInstance`, `context`, `prefetch`); answers `{cards: [...]}` (no envelope)',
    envelope: false,
  },
  {
    method: 'POST',
    path: '/cds-services/:hook_id',
    operation: 'InvokeCdsHook',
    summary: 'The same call at the address CDS Hooks clients derive from discovery (`{discovery}/{id}`)',
    envelope: false,
  },
]);
