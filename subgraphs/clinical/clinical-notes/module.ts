import { defineModule } from '../../../shared/module';
import { Recording } from '../clinical-sessions/recording.entity';
import { patientField, recordFields } from '../patients/patient-link';
import { referenceFields } from '../../../shared/refs';
import { ClinicalNote, ClinicalNoteVersion, NoteStatus } from './clinical-note.entity';
import { NOTE_SIGNED } from './clinical-note.events';
import {
  AppointmentClinicalNotesResolver,
  ClinicalNoteResolver,
  DictationResolver,
  DictationSegmentResolver,
} from './clinical-note.resolver';
import { DictationSegment, DictationSession } from './dictation.entity';

export default defineModule({
  name: 'clinical-notes',
  description: 'Clinical notes (SOAP or free text) with versions, signing that freezes them and addenda; dictation merged into notes',
  entities: [ClinicalNote, ClinicalNoteVersion, DictationSession, DictationSegment],
  resolvers: [
    recordFields(DictationSession, { mergedNote: { id: 'mergedNoteId', type: ClinicalNote } }),
    recordFields(DictationSegment, {
      dictation: { id: 'dictationId', type: DictationSession },
      recording: { id: 'recordingId', type: Recording },
    }),
    referenceFields(DictationSession, {
      clinician: { id: 'clinicianId', type: 'User' },
      mergedByUser: { id: 'mergedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(DictationSegment),
    referenceFields(DictationSegment, {
      createdByUser: { id: 'createdBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    recordFields(ClinicalNoteVersion, { note: { id: 'noteId', type: ClinicalNote } }),
    referenceFields(ClinicalNote, {
      author: { id: 'authorId', type: 'User' },
      signedByUser: { id: 'signedBy', type: 'User' },
      updatedByUser: { id: 'updatedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    referenceFields(ClinicalNoteVersion, { changedByUser: { id: 'changedBy', type: 'User' } }),
    ClinicalNoteResolver,
    DictationResolver,
    DictationSegmentResolver,
    AppointmentClinicalNotesResolver,
  ],
  topics: [NOTE_SIGNED],
  patientData: [
    {
      section: 'clinical_notes',
      entity: ClinicalNote,
      timeline: {
        kind: 'clinical_note',
        at: 'signedAt',
        where: { status: NoteStatus.signed },
        title: (r) => (r.addendumToId ? 'Addendum signed' : `Clinical note signed${r.title ? `: ${r.title}` : ''}`),
      },
    },
    { section: 'clinical_note_versions', entity: ClinicalNoteVersion },
    { section: 'dictations', entity: DictationSession },
    { section: 'dictation_segments', entity: DictationSegment },
  ],
});
