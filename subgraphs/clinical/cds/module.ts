import { defineModule } from '../../../shared/module';
import { idLinkFields, referenceFields } from '../../../shared/refs';
import { Allergy } from '../allergies/allergy.entity';
import { recordFields } from '../patients/patient-link';
import { AdverseEvent, CdsAlert, DrugInteractionRule, EarlyWarningScore } from './cds.entity';
import { ADVERSE_EVENT_REPORTED, CRITICAL_CARD, CRITICAL_SCORE } from './cds.events';
import {
  AdverseEventResolver,
  CdsHooksResolver,
  DrugInteractionResolver,
  EarlyWarningResolver,
  PanicValueResolver,
  PatientRiskResolver,
  VitalNews2Resolver,
} from './cds.resolver';
import { AllergyConflict, DrugInteraction } from './cds.types';
import { InteractionService } from './interaction.service';
import { seedShippedRules } from './medication-context';

export default defineModule({
  name: 'cds',
  description:
    'Decision support: drug interaction and drug allergy checks against shipped, sourced knowledge, NEWS2, panic values, adverse drug reactions, patient risk, CDS Hooks services',
  entities: [DrugInteractionRule, EarlyWarningScore, AdverseEvent, CdsAlert],
  resolvers: [
    referenceFields(DrugInteractionRule, { updatedByUser: { id: 'updatedBy', type: 'User' } }),
    idLinkFields(DrugInteraction, 'RuleLink', {
      rule: {
        id: 'ruleId',
        type: DrugInteractionRule,
        description: 'The rule found (as drugInteractionRules lists it); null when there is none',
        resolve: (id, ctx) => new InteractionService().visible(ctx, id),
      },
    }),
    recordFields(AllergyConflict, {
      allergy: {
        id: 'allergyId',
        type: Allergy,
        description: "The recorded allergy; null for a prefetched one or when the caller may not read the patient's clinical data",
      },
    }),
    referenceFields(AdverseEvent, {
      reportedByUser: { id: 'reportedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    DrugInteractionResolver,
    EarlyWarningResolver,
    PanicValueResolver,
    AdverseEventResolver,
    PatientRiskResolver,
    VitalNews2Resolver,
    CdsHooksResolver,
  ],
  topics: [CRITICAL_CARD, CRITICAL_SCORE, ADVERSE_EVENT_REPORTED],
  patientData: [
    {
      section: 'early_warning_scores',
      entity: EarlyWarningScore,
      timeline: {
        kind: 'early_warning_score',
        at: 'observedAt',
        title: (r) => `NEWS2 ${r.total} (${String(r.risk).replace('_', '-')} risk)`,
      },
    },
    {
      section: 'adverse_events',
      entity: AdverseEvent,
      timeline: {
        kind: 'adverse_event',
        at: 'createdAt',
        title: (r) => `Adverse reaction to ${r.suspectedDrug}: ${r.reaction}${r.serious ? ' (serious)' : ''}`,
      },
    },
    {
      section: 'cds_alerts',
      entity: CdsAlert,
      timeline: { kind: 'cds_alert', at: 'createdAt', title: (r) => `Decision support alert: ${r.summary}` },
    },
  ],
  async onStart({ orm }) {
    await seedShippedRules(orm.em.fork());
  },
});
