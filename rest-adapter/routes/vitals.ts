import { defineRoutes } from '../route';

export default defineRoutes('Vitals', [
  {
    method: 'GET',
    path: '/api/vitals',
    operation: 'Vitals',
    summary: "List vital sign records, newest first: one patient's (`patient_id`), or those of my organizations and my own",
  },
  {
    method: 'POST',
    path: '/api/vitals',
    operation: 'RecordVital',
    summary:
      'Record vital signs (`patient_id`, `heart_rate`, `blood_pressure_systolic`, `blood_pressure_diastolic`, `temperature` °C, ' +
      '`respiratory_rate`, `oxygen_saturation` %, `consciousness` (ACVPU), `supplemental_oxygen`, `weight_kg`, `height_cm`, `recorded_at`); ' +
      'at least one measurement, each within its plausible range. Every record answers with its `news2` (`score`, `risk`, `assumed`)',
    status: 201,
  },
  { method: 'GET', path: '/api/vitals/:id', operation: 'Vital', summary: 'Get a vital sign record' },
  { method: 'PATCH', path: '/api/vitals/:id', operation: 'UpdateVital', summary: 'Correct a vital sign record (it becomes `amended`)' },
  {
    method: 'DELETE',
    path: '/api/vitals/:id',
    operation: 'MarkVitalEnteredInError',
    operationId: 'DeleteVital',
    summary: 'Delete a vital sign record: marked `entered_in_error`, kept, hidden from reads',
  },
]);
