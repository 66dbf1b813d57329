import { defineRoutes } from '../route';

export default defineRoutes('Labs', [
  {
    method: 'GET',
    path: '/api/labs',
    operation: 'LabOrders',
    summary: "List lab orders: a patient's (`patient_id`), or of every organization where I read clinical data; `status` filters",
  },
  {
    method: 'POST',
    path: '/api/labs',
    operation: 'CreateLabOrder',
    summary: 'Create a lab order (`patient_id`, `test_type`, `priority`, `notes`)',
    status: 201,
  },
  { method: 'GET', path: '/api/labs/:id', operation: 'LabOrder', summary: 'Get a lab order with its results' },
  {
    method: 'PATCH',
    path: '/api/labs/:id',
    operation: 'UpdateLabOrder',
    summary: 'Update a lab order (`test_type`, `priority`, `notes`) while it is still `ordered`',
  },
  {
    method: 'POST',
    path: '/api/labs/:id/cancel',
    operation: 'CancelLabOrder',
    summary: 'Cancel a lab order that has no final results (`reason`)',
  },
  {
    method: 'POST',
    path: '/api/lab/hl7-ingest',
    operation: 'IngestLabMessage',
    summary: 'Ingest an HL7v2 ORU^R01 lab result message; answers the HL7 ACK (AA, AE or AR)',
    description:
      'The message as the raw body (`text/plain` or `application/hl7-v2`), or JSON `{"message": "MSH|..."}`. Every HL7 ' +
      'outcome answers 200 with `acknowledgment_code` and the ACK text; only authentication and permission fail. ' +
      'A message is known by its sender (MSH-3, MSH-4) and control id (MSH-10): delivered again with the same content it ' +
      'stores nothing and gets the first answer again (`duplicate: true`); other content under the same key is AE. ' +
      'Orders that do not match (a reflex OBR without OBR-2, an unknown order) are not stored and are named in ' +
      '`not_stored` and ERR segments (AE); the others are stored. Batches (FHS/BHS) are refused with AR. See docs/hl7.md.',
    textBody: 'message',
  },
  {
    method: 'GET',
    path: '/api/patients/:id/lab-results',
    operation: 'PatientLabResults',
    summary: "List a patient's lab results (`review_status`, `lab_order_id` filter), as the laboratory sent them",
    description:
      'Ordered by message: the newest message first (`received_at`), and within a message by `sequence`, the position ' +
      "of the result's OBX in the message, so that an order's results stay together in the laboratory's order. " +
      '`sub_id` is OBX-4, `comment` the NTE after the OBX, `document` an embedded document (ED) when there is one.',
  },
  {
    method: 'GET',
    path: '/api/lab-results/:id/document',
    operation: 'LabResultDocument',
    summary: 'Get the document embedded in a lab result (an OBX of value type ED, such as a PDF report), Base64 in `data`',
  },
  { method: 'POST', path: '/api/lab-results/:id/review', operation: 'ReviewLabResult', summary: 'Review a lab result (`note`)' },
]);
