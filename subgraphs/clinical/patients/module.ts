import { AuditEvent } from '../../../shared/audit/audit-event.entity';
import { auditOfPatient } from '../../../shared/audit/audit-trail';
import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { Patient } from './patient.entity';
import { PATIENT_CREATED, PATIENT_UPDATED } from './patient.events';
import { OrganizationPatientsResolver, PatientResolver } from './patient.resolver';

export default defineModule({
  name: 'patients',
  description: 'Patient profiles, organization-scoped registration with medical record numbers, search by MRN or name',
  entities: [Patient],
  resolvers: [
    referenceFields(Patient, {
      createdByUser: { id: 'createdBy', type: 'User' },
      user: {
        id: 'userId',
        type: 'User',
        description: 'The account of the patient themselves, when they have one; null when there is none or the caller may not see it',
      },
    }),
    PatientResolver,
    OrganizationPatientsResolver,
  ],
  references: { Patient: PatientResolver.resolveReference },
  topics: [PATIENT_CREATED, PATIENT_UPDATED],
  // Who read or changed the patient's data: part of what the patient is entitled to see.
  // A list read names its patients in patientIds (one event per request), so the log asks for both.
  patientData: [
    { section: 'access_log', entity: AuditEvent, ofPatient: (patientId) => auditOfPatient(patientId) as Record<string, unknown> },
  ],
});
