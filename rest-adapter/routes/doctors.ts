import { defineRoutes } from '../route';

export default defineRoutes('Doctors', [
  {
    method: 'GET',
    path: '/api/doctors/search',
    operation: 'SearchDoctors',
    summary: 'Search approved doctors (`q` or `name`, `specialty`, `organization_id`, `city`, `country`), by name',
    access: 'public',
  },
  { method: 'GET', path: '/api/doctors/me', operation: 'MyDoctorProfile', summary: "Get the caller's doctor profile" },
  {
    method: 'GET',
    path: '/api/doctors/pending',
    operation: 'PendingDoctors',
    summary: 'List profiles waiting for verification, newest first',
  },
  {
    method: 'POST',
    path: '/api/doctors',
    operation: 'CreateDoctorProfile',
    summary: "Create the caller's doctor profile (`specialty`, `license_number` required); administrators may pass `user_id`",
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/doctors/:id',
    operation: 'Doctor',
    summary:
      'Get a doctor profile (approved ones are public; contact and license details only for the doctor, administrators and colleagues)',
    access: 'public',
  },
  {
    method: 'PATCH',
    path: '/api/doctors/:id',
    operation: 'UpdateDoctorProfile',
    summary: "Update a doctor profile (the doctor or an administrator); the owner's change resubmits a rejected profile",
  },
  {
    method: 'POST',
    path: '/api/doctors/:id/verify',
    operation: 'VerifyDoctor',
    summary: 'Approve or reject a pending profile (`decision`: approve or reject; `reason` required to reject)',
    // Older clients send the status wanted, or a boolean.
    synonyms: {
      status: { to: 'decision', value: (v) => ({ approved: 'approve', rejected: 'reject' })[String(v)] ?? v },
      approved: { to: 'decision', value: (v) => (v === true ? 'approve' : v === false ? 'reject' : v) },
    },
  },
  {
    method: 'POST',
    path: '/api/doctors/:id/organizations',
    operation: 'AddDoctorToOrganization',
    summary:
      'Join an organization (`organization_id`, `role`): its ORG:ADMIN adds the doctor as a member; a doctor links to one they belong to',
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/doctors/:id/organizations/:org_id',
    operation: 'RemoveDoctorFromOrganization',
    summary: 'Leave an organization (the doctor, its ORG:ADMIN or an administrator); an ORG:DOCTOR membership ends too',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/doctors',
    operation: 'OrganizationDoctors',
    summary: "List an organization's doctors (members see every verification status, others the approved ones)",
    access: 'public',
  },
]);
