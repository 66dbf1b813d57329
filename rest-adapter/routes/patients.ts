import { anyCase, defineRoutes } from '../route';

/** `gender` is taken in any letter case, as it was before it became an enum. */
const GENDER = { gender: anyCase('gender') };

export default defineRoutes('Patients', [
  { method: 'POST', path: '/api/patients', operation: 'CreatePatient', summary: 'Create a patient profile', status: 201, synonyms: GENDER },
  { method: 'GET', path: '/api/patients/me', operation: 'MyPatientProfile', summary: "Get the current patient's profile" },
  { method: 'GET', path: '/api/patients/:id', operation: 'Patient', summary: 'Get a patient by id' },
  { method: 'PATCH', path: '/api/patients/:id', operation: 'UpdatePatient', summary: 'Update a patient profile', synonyms: GENDER },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/patients',
    operation: 'OrganizationPatients',
    summary: 'List patients in an organization (`meta.total` exact up to 1,000, then an estimate flagged `total_is_estimate`)',
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/patients',
    operation: 'CreateOrganizationPatient',
    operationId: 'RegisterOrganizationPatient',
    summary: 'Register a patient for an organization; assigns a medical record number when none is given',
    status: 201,
    synonyms: GENDER,
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/patients/search',
    operation: 'SearchOrganizationPatients',
    summary:
      'Search patients of an organization by the start of a medical record number (`mrn`) and/or of names (`name`: words, each ' +
      'the start of the given or family name, any order), case-insensitive; `meta.total` exact up to 1,000, then an estimate ' +
      'flagged `total_is_estimate`',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/patients/:patient_id',
    operation: 'OrganizationPatient',
    summary: 'Get patient detail within an organization',
  },
]);
