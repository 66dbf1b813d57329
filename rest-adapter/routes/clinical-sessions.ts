import { defineRoutes } from '../route';

export default defineRoutes('Clinical sessions', [
  {
    method: 'GET',
    path: '/api/sessions/recordings',
    operation: 'MyRecordings',
    summary: 'List my recordings, newest first (`patient_id`, `status` filters)',
  },
  {
    method: 'POST',
    path: '/api/sessions/recordings',
    operation: 'StartRecording',
    summary: 'Start a recording of a session with a patient (`patient_id`, optional `appointment_id`, `title`); its audio comes next',
    status: 201,
  },
  { method: 'GET', path: '/api/sessions/recordings/:id', operation: 'Recording', summary: 'Get a recording' },
  {
    method: 'POST',
    path: '/api/sessions/recordings/:id/audio',
    operation: 'CompleteRecordingAudio',
    summary: 'Upload the audio: a raw `audio/*` body, or the file of a `multipart/form-data` body; streamed to storage with its SHA-256',
    description:
      'Accepted types and the size limit come from the configuration (AUDIO_UPLOAD_TYPES, AUDIO_UPLOAD_MAX_BYTES): 415 for another type, 413 past the limit. ' +
      'Uploading again before the recording is ready replaces the audio.',
    upload: { reserve: 'ReserveRecordingAudio', complete: 'CompleteRecordingAudio' },
  },
  {
    method: 'POST',
    path: '/api/sessions/recordings/:id/ready',
    operation: 'MarkRecordingReady',
    summary: 'Mark a recording ready (optional `duration_seconds`): its audio is fixed and may be transcribed',
  },
  {
    method: 'POST',
    path: '/api/sessions/transcripts',
    operation: 'StartTranscription',
    summary:
      'Start the transcription of a ready recording (`recording_id`, optional `language`): a speech-to-text job, or a wait for a submitted transcript',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/sessions/transcripts/:id',
    operation: 'Transcript',
    summary: 'Get a transcript (its status, text and segments)',
  },
  {
    method: 'POST',
    path: '/api/sessions/transcripts/:id',
    operation: 'SubmitTranscript',
    summary: 'Submit a transcript (`text` and/or `segments` of `speaker`, `start_seconds`, `end_seconds`, `text`); it becomes completed',
  },
  {
    method: 'POST',
    path: '/api/sessions/extractions',
    operation: 'CreateExtraction',
    summary: 'Start a structured extraction from a completed transcript (`transcript_id`) or a text (`text`, `patient_id`)',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/sessions/extractions/:id',
    operation: 'Extraction',
    summary: 'Get an extraction: its proposed items with spans and confidence',
  },
  {
    method: 'POST',
    path: '/api/sessions/extractions/:id/commit',
    operation: 'CommitExtraction',
    summary: 'Commit the accepted items (`item_ids`, all when omitted) to the patient record in one transaction; the others are rejected',
  },
  {
    method: 'GET',
    path: '/api/sessions/action-items',
    operation: 'ActionItems',
    summary: 'List action items (`patient_id`, `recording_id`, `assignee_id`, `mine`, `status`, `due_before` filters), soonest due first',
  },
  {
    method: 'POST',
    path: '/api/sessions/action-items',
    operation: 'CreateActionItem',
    summary: 'Create an action item (`title`, `patient_id` or `recording_id`, `assignee_id`, `due_date`, `priority`)',
    status: 201,
  },
  { method: 'GET', path: '/api/sessions/action-items/:id', operation: 'ActionItem', summary: 'Get an action item' },
  {
    method: 'PATCH',
    path: '/api/sessions/action-items/:id',
    operation: 'UpdateActionItem',
    summary: 'Update an open action item, or mark it `done` (or `open` again) with `status`',
  },
  {
    method: 'DELETE',
    path: '/api/sessions/action-items/:id',
    operation: 'CancelActionItem',
    summary: 'Cancel an action item (optional `reason`): kept, `cancelled`; cancelling twice is a 409',
  },
]);
