import { defineRoutes } from '../route';

export default defineRoutes('Allergies', [
  {
    method: 'GET',
    path: '/api/patients/:id/allergies',
    operation: 'PatientAllergies',
    summary: "List a patient's allergies, newest first (`status`)",
  },
  {
    method: 'POST',
    path: '/api/patients/:id/allergies',
    operation: 'RecordAllergy',
    summary: 'Record an allergy (`substance`, `reaction`, `severity`, ...); the patient may record their own',
    status: 201,
  },
]);
