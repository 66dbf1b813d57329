import { defineModule } from '../../../shared/module';
import { ServiceRequest, ServiceRequestStatus } from '../service-requests/service-request.entity';
import { referenceFields } from '../../../shared/refs';
import { patientField, recordFields } from '../patients/patient-link';
import { DiagnosticReport } from './diagnostic-report.entity';
import { DiagnosticReportResolver, PatientDiagnosticReportsResolver } from './diagnostic-report.resolver';

export default defineModule({
  name: 'diagnostic-reports',
  description: 'Diagnostic reports: drafts, then signed and final',
  entities: [DiagnosticReport],
  resolvers: [
    recordFields(DiagnosticReport, {
      serviceRequest: {
        id: 'serviceRequestId',
        type: ServiceRequest,
        hidden: (r) => (r as ServiceRequest).status === ServiceRequestStatus.entered_in_error,
      },
    }),
    patientField(DiagnosticReport),
    referenceFields(DiagnosticReport, {
      recordedByUser: { id: 'recordedBy', type: 'User' },
      signedByUser: { id: 'signedBy', type: 'User' },
      updatedByUser: { id: 'updatedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    DiagnosticReportResolver,
    PatientDiagnosticReportsResolver,
  ],
  patientData: [
    {
      section: 'diagnostic_reports',
      entity: DiagnosticReport,
      timeline: { kind: 'diagnostic_report', at: 'createdAt', title: (r) => `Diagnostic report (${r.status}): ${r.title ?? r.code}` },
    },
  ],
});
