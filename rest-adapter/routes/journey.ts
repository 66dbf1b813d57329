import { defineRoutes } from '../route';

export default defineRoutes('Care journey', [
  {
    method: 'GET',
    path: '/api/patients/:id/journey',
    operation: 'PatientJourney',
    summary: 'Care journey timeline, newest first: recorded events plus records, labs, prescriptions, immunizations',
  },
  {
    method: 'POST',
    path: '/api/patients/:id/journey',
    operation: 'RecordJourneyEvent',
    summary: 'Record a journey event (`type`, `title`, `description`, `occurred_at`)',
    status: 201,
  },
]);
