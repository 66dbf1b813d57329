import { defineRoutes } from '../route';

export default defineRoutes('Treatments', [
  {
    method: 'GET',
    path: '/api/treatments',
    operation: 'TreatmentProtocols',
    summary: "List treatment protocols: the platform's and my organizations' (`organization_id`, `status`, `icd10_code`)",
  },
  {
    method: 'POST',
    path: '/api/treatments',
    operation: 'CreateTreatmentProtocol',
    summary:
      'Create a treatment protocol (`organization_id`, `name`, `condition`, `icd10_code`, `description`, `steps`: ' +
      '`medication`, `dose`, `route`, `frequency`, `duration_days`, `instructions`); version 1',
    status: 201,
  },
  { method: 'GET', path: '/api/treatments/:id', operation: 'TreatmentProtocol', summary: 'Get a treatment protocol' },
  {
    method: 'PATCH',
    path: '/api/treatments/:id',
    operation: 'UpdateTreatmentProtocol',
    summary: 'Change a protocol: a new version; patients keep the version they were assigned. A retired one cannot change (409)',
  },
  {
    method: 'DELETE',
    path: '/api/treatments/:id',
    operation: 'DeleteTreatmentProtocol',
    summary: 'Delete a protocol no treatment used (`outcome: deleted`); one in use is retired instead (`outcome: retired`)',
  },
  {
    method: 'GET',
    path: '/api/patients/:patient_id/treatments',
    operation: 'PatientTreatments',
    summary: "List a patient's treatments, latest start first (`status`)",
  },
  {
    method: 'POST',
    path: '/api/patient-treatments',
    operation: 'AssignTreatment',
    summary: 'Put a patient on a protocol (`patient_id`, `protocol_id`, `start_date`, `prescriber_id`, `notes`)',
    status: 201,
  },
  { method: 'GET', path: '/api/patient-treatments/:id', operation: 'PatientTreatment', summary: "Get a patient's treatment" },
  {
    method: 'PATCH',
    path: '/api/patient-treatments/:id',
    operation: 'UpdatePatientTreatment',
    summary:
      'Record progress (`current_step`, `progress_note`) and the status wanted: `completed`, or `discontinued` with `discontinuation_reason`; `end_date`',
  },
]);
