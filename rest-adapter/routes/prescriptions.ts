import { defineRoutes } from '../route';

export default defineRoutes('Prescriptions', [
  {
    method: 'GET',
    path: '/api/prescriptions',
    operation: 'Prescriptions',
    summary: "List prescriptions: a patient's (`patient_id`), or those of my organizations and mine as a patient; filter by `status`",
  },
  {
    method: 'POST',
    path: '/api/prescriptions',
    operation: 'CreatePrescription',
    summary: 'Create a draft prescription (`patient_id`, `medication`, `dosage`, `frequency`, `duration`, `instructions`, `refills`)',
    status: 201,
  },
  { method: 'GET', path: '/api/prescriptions/:id', operation: 'Prescription', summary: 'Get a prescription' },
  {
    method: 'PATCH',
    path: '/api/prescriptions/:id',
    operation: 'UpdatePrescription',
    summary: 'Update a draft prescription; a signed or cancelled one cannot be edited (409)',
  },
  {
    method: 'POST',
    path: '/api/prescriptions/:id/sign',
    operation: 'SignPrescription',
    summary: 'Sign a draft prescription (doctors only)',
  },
  {
    method: 'POST',
    path: '/api/prescriptions/:id/cancel',
    operation: 'CancelPrescription',
    summary: 'Cancel a prescription (`reason` optional); its e-prescriptions not yet dispensed are cancelled too',
  },
  {
    method: 'POST',
    path: '/api/eprescriptions',
    operation: 'CreateEPrescription',
    summary: 'Create an e-prescription from a signed prescription for a pharmacy (`prescription_id`, `pharmacy_id`)',
    status: 201,
  },
  { method: 'GET', path: '/api/eprescriptions/:id', operation: 'EPrescription', summary: 'Get an e-prescription' },
  {
    method: 'GET',
    path: '/api/patients/:id/eprescriptions',
    operation: 'PatientEPrescriptions',
    summary: "List a patient's e-prescriptions",
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/eprescriptions',
    operation: 'PharmacyEPrescriptions',
    summary: 'List the e-prescriptions sent to a pharmacy (its members)',
  },
  {
    method: 'POST',
    path: '/api/eprescriptions/:id/transmit',
    operation: 'TransmitEPrescription',
    summary: 'Transmit an e-prescription to its pharmacy',
  },
  {
    method: 'POST',
    path: '/api/eprescriptions/:id/dispense',
    operation: 'DispenseEPrescription',
    summary: 'Mark an e-prescription as dispensed (pharmacists of its pharmacy)',
  },
  {
    method: 'POST',
    path: '/api/eprescriptions/:id/refill',
    operation: 'RefillEPrescription',
    summary: 'Request a refill (the patient or their clinicians); 409 when no refills remain',
  },
]);
