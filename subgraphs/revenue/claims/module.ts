import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { Claim, EligibilityCheck, FraudFlag } from './claim.entity';
import { claimFraudScreen, payerGateway, payerResponses } from './claim.consumers';
import { CLAIM_ADJUDICATED, CLAIM_PAID, CLAIM_SUBMITTED, FRAUD_FLAGGED, PAYER_CLAIM_RESPONSE } from './claim.events';
import {
  ClaimResolver,
  EligibilityCheckResolver,
  FraudFlagResolver,
  InsurerClaimAnalyticsResolver,
  InvoiceClaimResolver,
  ProviderClaimAnalyticsResolver,
  ReconciliationLineResolver,
} from './claim.resolver';

export default defineModule({
  name: 'claims',
  description:
    'Insurance claims shaped after FHIR Claim (draft → submitted → in review → approved, partially approved or denied → paid) through a payer adapter; eligibility, pre-authorization, analytics, fraud flags, reconciliation',
  entities: [Claim, FraudFlag, EligibilityCheck],
  resolvers: [
    referenceFields(Claim, {
      createdByUser: { id: 'createdBy', type: 'User' },
      submittedByUser: { id: 'submittedBy', type: 'User' },
      practitioner: {
        id: 'practitionerId',
        type: 'User',
        description: 'The treating practitioner; null when there is none or the caller may not see them',
      },
    }),
    referenceFields(EligibilityCheck, { checkedByUser: { id: 'checkedBy', type: 'User' } }),
    ClaimResolver,
    FraudFlagResolver,
    EligibilityCheckResolver,
    InsurerClaimAnalyticsResolver,
    ProviderClaimAnalyticsResolver,
    ReconciliationLineResolver,
    InvoiceClaimResolver,
  ],
  topics: [CLAIM_SUBMITTED, CLAIM_ADJUDICATED, CLAIM_PAID, PAYER_CLAIM_RESPONSE, FRAUD_FLAGGED],
  consumers: [payerGateway, payerResponses, claimFraudScreen],
});
