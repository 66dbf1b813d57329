import { defineModule } from '../../../shared/module';
import { DictationSession } from '../clinical-notes/dictation.entity';
import { recordFields } from '../patients/patient-link';
import { referenceFields } from '../../../shared/refs';
import { ActionItem, ActionItemStatus } from './action-item.entity';
import { AppointmentRef } from './appointment-ref';
import { Extraction } from './extraction.entity';
import { Recording } from './recording.entity';
import { EXTRACTION_COMMITTED, TRANSCRIPT_COMPLETED, TRANSCRIPTION_REQUESTED } from './sessions.events';
import { ActionItemResolver, ExtractionResolver, RecordingResolver, TranscriptResolver } from './sessions.resolver';
import { Transcript } from './transcript.entity';
import { transcriptionJobs } from './transcription.consumers';

export default defineModule({
  name: 'clinical-sessions',
  description:
    'Recorded clinical sessions (audio streamed to object storage), transcription through a speech-to-text provider on the bus, ' +
    'structured extraction committed to the chart, and action items',
  entities: [Recording, Transcript, Extraction, ActionItem],
  resolvers: [
    recordFields(Extraction, { recording: { id: 'recordingId', type: Recording } }),
    recordFields(ActionItem, { extraction: { id: 'extractionId', type: Extraction } }),
    recordFields(Recording, { dictation: { id: 'dictationId', type: DictationSession } }),
    referenceFields(ActionItem, {
      assignee: { id: 'assigneeId', type: 'User' },
      createdByUser: { id: 'createdBy', type: 'User' },
      completedByUser: { id: 'completedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    referenceFields(Recording, {
      clinician: { id: 'clinicianId', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    referenceFields(Transcript, {
      requestedByUser: { id: 'requestedBy', type: 'User' },
      submittedByUser: { id: 'submittedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    referenceFields(Extraction, {
      createdByUser: { id: 'createdBy', type: 'User' },
      committedByUser: { id: 'committedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    RecordingResolver,
    TranscriptResolver,
    ExtractionResolver,
    ActionItemResolver,
  ],
  orphanedTypes: [AppointmentRef],
  topics: [TRANSCRIPTION_REQUESTED, TRANSCRIPT_COMPLETED, EXTRACTION_COMMITTED],
  consumers: [transcriptionJobs],
  patientData: [
    {
      section: 'session_recordings',
      entity: Recording,
      timeline: { kind: 'session_recording', at: 'createdAt', title: (r) => `Session recorded${r.title ? `: ${r.title}` : ''}` },
    },
    // Their commit is on the journey already, as the journey events it writes.
    { section: 'session_transcripts', entity: Transcript },
    { section: 'session_extractions', entity: Extraction },
    {
      section: 'session_action_items',
      entity: ActionItem,
      timeline: {
        kind: 'action_item',
        at: 'createdAt',
        where: { status: { $ne: ActionItemStatus.cancelled } },
        title: (r) => `Action item: ${r.title}`,
      },
    },
  ],
});
