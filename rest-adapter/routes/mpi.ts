import { anyCase, defineRoutes } from '../route';

/** The master patient index: SUPER:ADMIN and APP:ADMIN only (403 for any other role, 401 without credentials). */
export default defineRoutes('Master patient index', [
  {
    method: 'POST',
    path: '/api/mpi/match',
    operation: 'MatchPatients',
    synonyms: { gender: anyCase('gender') },
    summary: "Find matching patients by demographics (or `patient_id`): candidates scored in [0, 1] with each field's contribution",
  },
  {
    method: 'GET',
    path: '/api/mpi/patients/:id/fhir',
    operation: 'MpiFhirPatient',
    summary: 'Get a patient as a FHIR R4 Patient resource (in `data`)',
  },
  {
    method: 'GET',
    path: '/api/mpi/links/:patient_id',
    operation: 'PatientLinks',
    summary: 'List the records linked to a patient',
  },
  {
    method: 'POST',
    path: '/api/mpi/links',
    operation: 'CreatePatientLink',
    summary: 'Create a patient link: propose two records as the same person; it waits for review',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/mpi/candidates',
    operation: 'PatientLinkCandidates',
    summary: 'List match candidates waiting for review, best first',
  },
  {
    method: 'POST',
    path: '/api/mpi/links/:id/review',
    operation: 'ReviewPatientLink',
    summary: 'Review a candidate: `decision` approve (linked) or reject (with a `reason`)',
  },
  {
    method: 'GET',
    path: '/api/mpi/matches',
    operation: 'PatientMatches',
    summary: 'List all matches (filter by `status`, `patient_id`)',
  },
  { method: 'GET', path: '/api/mpi/matches/:id', operation: 'PatientMatch', summary: 'Get a match with its history' },
  {
    method: 'POST',
    path: '/api/mpi/matches/:id/unlink',
    operation: 'UnlinkPatients',
    summary: 'Unlink a patient match (`reason` required); the history is kept',
  },
  {
    method: 'POST',
    path: '/api/mpi/link',
    operation: 'LinkPatients',
    summary: 'Link two patients as the same person now',
    status: 201,
  },
]);
