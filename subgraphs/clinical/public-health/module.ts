import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { NotifiableCase } from './case.entity';
import { CASE_REPORTED, IMMEDIATE_NOTIFICATION } from './case.events';
import {
  DashboardCellResolver,
  NotifiableCaseResolver,
  OrganizationCountResolver,
  PublicHealthResolver,
  ReportsysSkippedResolver,
  ReportsysSubmissionResolver,
} from './case.resolver';
import { diseaseByCode } from './diseases';
import { ReportsysOrganizationMapping, ReportsysSubmission } from './reportsys.entity';
import { checkReportsysMapping } from './reportsys.mapping';
import { ReportsysMappingResolver } from './reportsys.resolver';

export default defineModule({
  name: 'public-health',
  description:
    'Notifiable case reports (WHO IHR Annex 2 and IDSR diseases, repeat reports linked), the public health dashboard, and aggregate reports to DHIS2 (dataValueSets, per-organization mappings with a built-in default, import summaries kept)',
  entities: [NotifiableCase, ReportsysSubmission, ReportsysOrganizationMapping],
  resolvers: [
    referenceFields(ReportsysSubmission, { pushedByUser: { id: 'pushedBy', type: 'User' } }),
    referenceFields(NotifiableCase, { reportedByUser: { id: 'reportedBy', type: 'User' } }),
    NotifiableCaseResolver,
    PublicHealthResolver,
    OrganizationCountResolver,
    DashboardCellResolver,
    ReportsysSkippedResolver,
    ReportsysSubmissionResolver,
    ReportsysMappingResolver,
  ],
  topics: [CASE_REPORTED, IMMEDIATE_NOTIFICATION],
  patientData: [
    {
      section: 'notifiable_cases',
      entity: NotifiableCase,
      timeline: {
        kind: 'notifiable_case',
        at: 'onsetDate',
        title: (r) =>
          `Notifiable case: ${diseaseByCode(String(r.diseaseCode))?.name ?? r.diseaseCode} (${r.icd10Code}), ${r.classification}`,
      },
    },
  ],
  async onStart() {
    checkReportsysMapping();
  },
});
