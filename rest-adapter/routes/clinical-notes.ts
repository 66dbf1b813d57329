import { defineRoutes } from '../route';

export default defineRoutes('Clinical notes', [
  {
    method: 'POST',
    path: '/api/clinical/notes',
    operation: 'CreateClinicalNote',
    summary:
      'Create a draft clinical note: `patient_id`, SOAP sections (`subjective`, `objective`, `assessment`, `plan`) or `text`, optional `encounter_id`, ' +
      '`appointment_id`, `recording_id`; an addendum names the signed note in `addendum_to_id`',
    status: 201,
  },
  { method: 'GET', path: '/api/clinical/notes/:id', operation: 'ClinicalNote', summary: 'Get a clinical note (with its addenda)' },
  {
    method: 'PATCH',
    path: '/api/clinical/notes/:id',
    operation: 'UpdateClinicalNote',
    summary: 'Update a draft note (optional `expected_version`); a signed note is frozen (409)',
  },
  { method: 'POST', path: '/api/clinical/notes/:id/sign', operation: 'SignClinicalNote', summary: 'Sign a note: final and frozen; once' },
  {
    method: 'GET',
    path: '/api/clinical/notes/patient/:patient_id',
    operation: 'PatientClinicalNotes',
    summary: "List a patient's notes, newest first (`status` filter)",
  },
  {
    method: 'POST',
    path: '/api/clinical/dictation',
    operation: 'StartDictation',
    summary: 'Start a dictation session (`patient_id`, optional draft `note_id` to merge into, `title`)',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/clinical/dictation/:id/segments',
    operation: 'AddDictationSegment',
    summary:
      'Add a segment: JSON `{text, sequence?}`, or audio (raw `audio/*` or multipart; `sequence` as a query parameter) that is transcribed',
    description:
      'Audio follows the upload rules of recordings (AUDIO_UPLOAD_TYPES, AUDIO_UPLOAD_MAX_BYTES: 415, 413) and becomes a recording with a transcript. ' +
      'The same segment sent again at its `sequence` answers the one kept.',
    status: 201,
    upload: { reserve: 'ReserveDictationAudio', complete: 'AddDictationAudioSegment', json: true },
  },
  {
    method: 'GET',
    path: '/api/clinical/dictation/:id/segments',
    operation: 'DictationSegments',
    summary: "List a dictation's segments, in order",
  },
  {
    method: 'POST',
    path: '/api/clinical/dictation/:id/merge',
    operation: 'MergeDictation',
    summary: 'Merge the segments, in order, into the draft note (`note_id`, a SOAP `section`) or a new free-text note; once',
  },
]);
