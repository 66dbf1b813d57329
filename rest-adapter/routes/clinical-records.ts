import { defineRoutes } from '../route';

export default defineRoutes('Clinical records', [
  {
    method: 'POST',
    path: '/api/clinical-records',
    operation: 'CreateClinicalRecord',
    summary: 'Create a clinical record (`patient_id`, `encounter_type`, `chief_complaint`, `notes`)',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/clinical-records',
    operation: 'MyClinicalRecords',
    summary: 'List my clinical records (written by me, or about me)',
  },
  { method: 'GET', path: '/api/clinical-records/:id', operation: 'ClinicalRecord', summary: 'Get a clinical record' },
  {
    method: 'PATCH',
    path: '/api/clinical-records/:id',
    operation: 'UpdateClinicalRecord',
    summary: 'Update a clinical record; each change is kept as a version (`expected_version` guards against lost updates)',
  },
  {
    method: 'DELETE',
    path: '/api/clinical-records/:id',
    operation: 'MarkClinicalRecordEnteredInError',
    operationId: 'DeleteClinicalRecord',
    summary: 'Delete a clinical record (kept with its versions, hidden from reads)',
  },
  {
    method: 'GET',
    path: '/api/clinical-records/:id/audit',
    operation: 'ClinicalRecordAudit',
    summary: 'Audit trail: who read or changed the record, and when',
  },
  {
    method: 'GET',
    path: '/api/patients/:id/clinical-records',
    operation: 'PatientClinicalRecords',
    summary: "List a patient's clinical records",
  },
]);
