import { defineRoutes } from '../route';

/** `value`: a number is the quantity, anything else the text result. */
const value = (v: unknown) => (typeof v === 'number' ? 'value_quantity' : 'value_string');

export default defineRoutes('Observations', [
  {
    method: 'GET',
    path: '/api/observations',
    operation: 'Observations',
    summary:
      "List observations, newest first: one patient's (`patient_id`), or those of my organizations and my own; filters `code`, `category`, `status`",
  },
  {
    method: 'POST',
    path: '/api/observations',
    operation: 'RecordObservation',
    operationId: 'CreateObservation',
    summary:
      'Record an observation (`patient_id`, LOINC `code`, `value_quantity` with UCUM `unit` or `value_string`, `status`, `effective_at`); ' +
      '`value` is accepted too: a number as `value_quantity`, text as `value_string`',
    status: 201,
    synonyms: { value },
  },
  { method: 'GET', path: '/api/observations/:id', operation: 'Observation', summary: 'Get an observation' },
  {
    method: 'PATCH',
    path: '/api/observations/:id',
    operation: 'UpdateObservation',
    summary: 'Update an observation or move its `status` on; changing a final observation amends it (`value` accepted as on create)',
    synonyms: { value },
  },
  {
    method: 'DELETE',
    path: '/api/observations/:id',
    operation: 'MarkObservationEnteredInError',
    operationId: 'DeleteObservation',
    summary: 'Delete an observation: marked `entered_in_error`, kept, hidden from reads',
  },
]);
