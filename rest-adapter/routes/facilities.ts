import { defineRoutes } from '../route';

export default defineRoutes('Rooms and admissions', [
  {
    method: 'GET',
    path: '/api/organizations/:org_id/rooms',
    operation: 'OrganizationRooms',
    summary: "List an organization's rooms by name (`type`, `status`, `available`)",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/rooms',
    operation: 'CreateRoom',
    summary: 'Create a room (`name`, `type`, `capacity`, `floor`, `ward`, `department`, `status`)',
    status: 201,
  },
  { method: 'GET', path: '/api/organizations/:org_id/rooms/:id', operation: 'Room', summary: 'Get a room with its occupancy' },
  {
    method: 'PATCH',
    path: '/api/organizations/:org_id/rooms/:id',
    operation: 'UpdateRoom',
    summary: 'Change a room; capacity not below its admitted patients',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/admissions',
    operation: 'OrganizationAdmissions',
    summary: "List an organization's admissions, newest first (`status`, `room_id`, `patient_id`)",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/admissions',
    operation: 'AdmitPatient',
    summary: 'Admit a patient into a room with a free bed (`patient_id`, `room_id`, `reason`, `attending_doctor_id`, ...)',
    status: 201,
  },
  { method: 'GET', path: '/api/organizations/:org_id/admissions/:id', operation: 'Admission', summary: 'Get an admission' },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/admissions/:id/discharge',
    operation: 'DischargeAdmission',
    summary: 'Discharge (`disposition`, `discharge_summary`, `discharged_at`)',
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/admissions/:id/transfer',
    operation: 'TransferAdmission',
    summary: 'Move the patient to another room with a free bed (`room_id`, `reason`)',
  },
]);
