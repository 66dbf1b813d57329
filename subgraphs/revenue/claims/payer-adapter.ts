import type { EntityManager } from '../../../shared/db';
import { PayerAdapterKind } from '../insurance/insurance.entity';
import type { Claim, PreauthorizationStatus } from './claim.entity';
import type { Eligibility } from './plan-rules';
import { SandboxPayer } from './sandbox-payer';

export interface PreauthorizationAnswer {
  status: PreauthorizationStatus;
  /** The authorization number of an approval. */
  number: string | null;
  /** Decimal string: what the approval covers. */
  amount: string | null;
  reason: string | null;
}

/**
 * How the platform talks to a payer (a clearing house, an insurer's API). Submission is asynchronous, as real
 * clearing houses are: `submitClaim` runs in a bus consumer (never in a request) and the payer's answers come back
 * later as `svc.payer.claim_response` events (acknowledged, adjudicated, paid), which the claims module applies.
 * Eligibility and pre-authorization are inquiries answered at once. A real payer is one more implementation.
 */
export interface PayerAdapter {
  readonly kind: PayerAdapterKind;
  submitClaim(em: EntityManager, claim: Claim): Promise<void>;
  /** The platform recorded the payer's decision (the sandbox then remits what it approved). */
  adjudicationRecorded(em: EntityManager, claim: Claim): Promise<void>;
  checkEligibility(em: EntityManager, claim: Claim, date: string): Promise<Eligibility>;
  requestPreauthorization(em: EntityManager, claim: Claim): Promise<PreauthorizationAnswer>;
}

const ADAPTERS: Record<PayerAdapterKind, PayerAdapter> = {
  [PayerAdapterKind.sandbox]: new SandboxPayer(),
};

export function payerAdapter(kind: PayerAdapterKind): PayerAdapter {
  return ADAPTERS[kind];
}
