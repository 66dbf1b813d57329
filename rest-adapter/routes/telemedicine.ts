import { defineRoutes } from '../route';

export default defineRoutes('Telemedicine', [
  {
    method: 'POST',
    path: '/api/appointments/:id/telemedicine/initiate',
    operation: 'InitiateTelemedicine',
    summary: "Start the appointment's video session (or answer the open one); the doctor or patient gets `join.token`",
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/appointments/:id/telemedicine/status/:session_id',
    operation: 'TelemedicineSession',
    summary: 'Session status with its participants',
  },
  {
    method: 'POST',
    path: '/api/appointments/:id/telemedicine/end/:session_id',
    operation: 'EndTelemedicine',
    summary: 'End the session and close its room (the doctor or scheduling staff)',
  },
  {
    method: 'GET',
    path: '/api/appointments/:id/telemedicine/:session_id/participants',
    operation: 'TelemedicineParticipants',
    summary: 'Participants the video provider reported, with join and leave times and published tracks',
  },
  {
    method: 'POST',
    path: '/api/appointments/:id/telemedicine/:session_id/join',
    operation: 'JoinTelemedicine',
    summary: "A join token for the appointment's doctor or patient (beyond SPEC.md)",
  },
]);
