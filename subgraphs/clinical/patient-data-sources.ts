import { Allergy } from './allergies/allergy.entity';
import { AuditEvent } from '../../shared/audit/audit-event.entity';
import { Consent } from './consent/consent.entity';
import { DiagnosticReport } from './diagnostic-reports/diagnostic-report.entity';
import { DataSubjectRequest } from './dsr/dsr.entity';
import { ImagingOrder } from './imaging/imaging-order.entity';
import { ImagingStudy, ImagingStudyStatus } from './imaging-studies/imaging-study.entity';
import { DoseState, Immunization, ImmunizationAdverseEvent } from './immunizations/immunization.entity';
import { JourneyEvent } from './journey/journey.entity';
import { labTest } from './labs/lab-data';
import { LabOrder, LabResult } from './labs/lab.entity';
import { Observation, ObservationStatus } from './observations/observation.entity';
import type { PatientDataSource } from './patient-data';
import { EPrescription, Prescription } from './prescriptions/prescription.entity';
import { ClinicalRecord, ClinicalRecordVersion } from './records/clinical-record.entity';
import { ServiceRequest, ServiceRequestStatus } from './service-requests/service-request.entity';
import { Vital, VitalStatus } from './vitals/vital.entity';

/** Every kind of data the clinical subgraph keeps about a patient (besides the profile itself). */
export const PATIENT_DATA_SOURCES: PatientDataSource[] = [
  {
    section: 'clinical_records',
    entity: ClinicalRecord,
    timeline: { kind: 'clinical_record', at: 'createdAt', where: { deletedAt: null }, title: (r) => `Clinical record (${r.encounterType})` },
  },
  { section: 'clinical_record_versions', entity: ClinicalRecordVersion },
  {
    section: 'journey_events',
    entity: JourneyEvent,
    timeline: { kind: 'journey_event', at: 'occurredAt', title: (r) => `${r.type}: ${r.title}` },
  },
  {
    section: 'lab_orders',
    entity: LabOrder,
    timeline: { kind: 'lab_order', at: 'createdAt', title: (r) => `Lab order: ${labTest(r.testType as string)?.name ?? r.testType}` },
  },
  {
    section: 'lab_results',
    entity: LabResult,
    timeline: { kind: 'lab_result', at: 'createdAt', title: (r) => `Lab result: ${r.display ?? r.code}${r.critical ? ' (critical)' : ''}` },
  },
  {
    section: 'prescriptions',
    entity: Prescription,
    timeline: { kind: 'prescription', at: 'createdAt', title: (r) => `Prescription: ${r.medication} ${r.dosage}` },
  },
  { section: 'eprescriptions', entity: EPrescription },
  {
    section: 'immunizations',
    entity: Immunization,
    timeline: {
      kind: 'immunization',
      at: 'administeredOn',
      where: { state: DoseState.administered },
      title: (r) => `Immunization: ${r.vaccine} dose ${r.doseNumber}`,
    },
  },
  {
    section: 'immunization_adverse_events',
    entity: ImmunizationAdverseEvent,
    timeline: { kind: 'immunization_adverse_event', at: 'onsetDate', title: (r) => `Adverse event after ${r.vaccine} (${r.severity})` },
  },
  {
    section: 'vitals',
    entity: Vital,
    timeline: { kind: 'vital_signs', at: 'recordedAt', where: { status: { $ne: VitalStatus.entered_in_error } }, title: () => 'Vital signs recorded' },
  },
  {
    section: 'observations',
    entity: Observation,
    timeline: {
      kind: 'observation',
      at: 'effectiveAt',
      where: { status: { $ne: ObservationStatus.entered_in_error } },
      title: (r) => `Observation: ${r.display ?? r.code}`,
    },
  },
  {
    section: 'imaging_orders',
    entity: ImagingOrder,
    timeline: { kind: 'imaging_order', at: 'createdAt', title: (r) => `Imaging order: ${r.modality}${r.bodyPart ? ` ${r.bodyPart}` : ''}` },
  },
  {
    section: 'allergies',
    entity: Allergy,
    timeline: { kind: 'allergy', at: 'createdAt', title: (r) => `Allergy recorded: ${r.substance}` },
  },
  {
    section: 'service_requests',
    entity: ServiceRequest,
    timeline: {
      kind: 'service_request',
      at: 'createdAt',
      where: { status: { $ne: ServiceRequestStatus.entered_in_error } },
      title: (r) => `Service request${r.category ? ` (${r.category})` : ''}: ${r.description ?? r.code}`,
    },
  },
  {
    section: 'diagnostic_reports',
    entity: DiagnosticReport,
    timeline: { kind: 'diagnostic_report', at: 'createdAt', title: (r) => `Diagnostic report (${r.status}): ${r.title ?? r.code}` },
  },
  {
    section: 'imaging_studies',
    entity: ImagingStudy,
    timeline: {
      kind: 'imaging_study',
      at: 'createdAt',
      where: { status: { $ne: ImagingStudyStatus.entered_in_error } },
      title: (r) => `Imaging study: ${r.modality}${r.bodyPart ? ` ${r.bodyPart}` : ''}`,
    },
  },
  { section: 'consents', entity: Consent },
  { section: 'data_subject_requests', entity: DataSubjectRequest },
  /** Who read or changed the patient's data: part of what the patient is entitled to see. */
  { section: 'access_log', entity: AuditEvent },
];
