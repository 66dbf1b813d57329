import { defineModule } from '../../../shared/module';
import { DiagnosticReport } from './diagnostic-report.entity';
import { DiagnosticReportResolver, PatientDiagnosticReportsResolver } from './diagnostic-report.resolver';

export default defineModule({
  name: 'diagnostic-reports',
  description: 'Diagnostic reports: drafts, then signed and final',
  entities: [DiagnosticReport],
  resolvers: [DiagnosticReportResolver, PatientDiagnosticReportsResolver],
  patientData: [
    {
      section: 'diagnostic_reports',
      entity: DiagnosticReport,
      timeline: { kind: 'diagnostic_report', at: 'createdAt', title: (r) => `Diagnostic report (${r.status}): ${r.title ?? r.code}` },
    },
  ],
});
