import { Counter } from '../../shared/counters';
import { OutboxEvent, ProcessedEvent } from '../../shared/outbox';
import type { SubgraphDefinition } from '../../shared/subgraph';
import { Allergy } from './allergies/allergy.entity';
import { AllergyResolver, PatientAllergiesResolver } from './allergies/allergy.resolver';
import { AuditEvent } from '../../shared/audit/audit-event.entity';
import { flushAudit } from '../../shared/audit/audit-trail';
import { Consent } from './consent/consent.entity';
import { ConsentResolver } from './consent/consent.resolver';
import { DiagnosticReport } from './diagnostic-reports/diagnostic-report.entity';
import { DiagnosticReportResolver, PatientDiagnosticReportsResolver } from './diagnostic-reports/diagnostic-report.resolver';
import { DataSubjectRequest } from './dsr/dsr.entity';
import { DsrResolver } from './dsr/dsr.resolver';
import { ImagingOrder } from './imaging/imaging-order.entity';
import { ImagingOrderResolver } from './imaging/imaging-order.resolver';
import { ImagingStudy } from './imaging-studies/imaging-study.entity';
import { ImagingStudyResolver, PatientImagingStudiesResolver } from './imaging-studies/imaging-study.resolver';
import { Immunization, ImmunizationAdverseEvent } from './immunizations/immunization.entity';
import { ImmunizationResolver, PatientImmunizationsResolver } from './immunizations/immunization.resolver';
import { JourneyEvent } from './journey/journey.entity';
import { JourneyResolver } from './journey/journey.resolver';
import { LabOrder, LabResult } from './labs/lab.entity';
import { LabOrderResolver, LabResultResolver, PatientLabResultsResolver } from './labs/lab.resolver';
import { migrations } from './migrations';
import { Observation } from './observations/observation.entity';
import { ObservationResolver } from './observations/observation.resolver';
import { Patient } from './patients/patient.entity';
import { PatientResolver } from './patients/patient.resolver';
import { EPrescription, Prescription } from './prescriptions/prescription.entity';
import { EPrescriptionResolver, PatientPrescriptionsResolver, PrescriptionResolver } from './prescriptions/prescription.resolver';
import { ClinicalRecord, ClinicalRecordVersion } from './records/clinical-record.entity';
import { ClinicalRecordResolver, PatientClinicalRecordsResolver } from './records/clinical-record.resolver';
import { ServiceRequest } from './service-requests/service-request.entity';
import { PatientServiceRequestsResolver, ServiceRequestResolver } from './service-requests/service-request.resolver';
import { Vital } from './vitals/vital.entity';
import { PatientVitalsResolver, VitalResolver } from './vitals/vital.resolver';

/** Clinical data: patients and everything recorded about their care. */
export const clinicalSubgraph: SubgraphDefinition = {
  name: 'clinical',
  entities: [
    Patient,
    Consent,
    ClinicalRecord,
    ClinicalRecordVersion,
    JourneyEvent,
    DataSubjectRequest,
    LabOrder,
    LabResult,
    Prescription,
    EPrescription,
    Immunization,
    ImmunizationAdverseEvent,
    Vital,
    Observation,
    ImagingOrder,
    Allergy,
    ServiceRequest,
    DiagnosticReport,
    ImagingStudy,
    AuditEvent,
    Counter,
    OutboxEvent,
    ProcessedEvent,
  ],
  migrations,
  resolvers: [
    PatientResolver,
    ConsentResolver,
    ClinicalRecordResolver,
    PatientClinicalRecordsResolver,
    JourneyResolver,
    DsrResolver,
    LabOrderResolver,
    LabResultResolver,
    PatientLabResultsResolver,
    PrescriptionResolver,
    EPrescriptionResolver,
    PatientPrescriptionsResolver,
    ImmunizationResolver,
    PatientImmunizationsResolver,
    VitalResolver,
    PatientVitalsResolver,
    ObservationResolver,
    ImagingOrderResolver,
    AllergyResolver,
    PatientAllergiesResolver,
    ServiceRequestResolver,
    PatientServiceRequestsResolver,
    DiagnosticReportResolver,
    PatientDiagnosticReportsResolver,
    ImagingStudyResolver,
    PatientImagingStudiesResolver,
  ],
  references: {
    Patient: PatientResolver.resolveReference,
  },
  onStop: (runtime) => flushAudit(runtime.orm.em),
};
