import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

/** The speech-to-text job: its consumer (`transcription-jobs`) transcribes the recording, with retries. */
export const TRANSCRIPTION_REQUESTED = defineTopic(
  'svc.sessions.transcription_requested',
  'a transcript of a ready recording is asked for (the speech-to-text job)',
  z.object({
    transcript_id: z.uuid(),
    recording_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    language: z.string().nullable(),
  }),
);

export const TRANSCRIPT_COMPLETED = defineTopic(
  'svc.sessions.transcript_completed',
  'a transcript gets its text (from speech-to-text, or submitted by a person)',
  z.object({
    transcript_id: z.uuid(),
    recording_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    source: z.enum(['speech_to_text', 'submitted']),
    segment_count: z.int(),
  }),
);

export const EXTRACTION_COMMITTED = defineTopic(
  'svc.sessions.extraction_committed',
  "a clinician commits an extraction's accepted items to the chart",
  z.object({
    extraction_id: z.uuid(),
    patient_id: z.uuid(),
    organization_id: z.uuid().nullable(),
    committed_by: z.uuid(),
    committed_item_ids: z.array(z.uuid()),
    rejected_item_ids: z.array(z.uuid()),
    /** What was written to the chart, by kind. */
    vital_ids: z.array(z.uuid()),
    allergy_ids: z.array(z.uuid()),
    prescription_ids: z.array(z.uuid()),
    journey_event_ids: z.array(z.uuid()),
    action_item_ids: z.array(z.uuid()),
  }),
);
