import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField, recordFields } from '../patients/patient-link';
import { ClinicalRecord, ClinicalRecordVersion } from './clinical-record.entity';
import { CLINICAL_RECORD_UPDATED } from './clinical-record.events';
import { ClinicalRecordResolver, PatientClinicalRecordsResolver } from './clinical-record.resolver';

export default defineModule({
  name: 'clinical-records',
  description: 'Clinical records (encounters) with a version on every change, soft delete and an audit trail',
  entities: [ClinicalRecord, ClinicalRecordVersion],
  resolvers: [
    recordFields(ClinicalRecordVersion, {
      record: { id: 'recordId', type: ClinicalRecord, hidden: (r) => !!(r as ClinicalRecord).deletedAt },
    }),
    referenceFields(ClinicalRecord, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(ClinicalRecord),
    referenceFields(ClinicalRecord, { author: { id: 'authorId', type: 'User' }, updatedByUser: { id: 'updatedBy', type: 'User' } }),
    referenceFields(ClinicalRecordVersion, { changedByUser: { id: 'changedBy', type: 'User' } }),
    ClinicalRecordResolver,
    PatientClinicalRecordsResolver,
  ],
  topics: [CLINICAL_RECORD_UPDATED],
  patientData: [
    {
      section: 'clinical_records',
      entity: ClinicalRecord,
      timeline: {
        kind: 'clinical_record',
        at: 'createdAt',
        where: { deletedAt: null },
        title: (r) => `Clinical record (${r.encounterType})`,
      },
    },
    { section: 'clinical_record_versions', entity: ClinicalRecordVersion },
  ],
});
