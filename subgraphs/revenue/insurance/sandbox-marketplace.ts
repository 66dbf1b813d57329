import { config } from '../../../shared/config';
import type { EntityManager } from '../../../shared/db';
import { uuidFrom } from '../../../shared/model';
import type { BenefitCategory } from './insurance.entity';
import { InsurancePlan, Payer, PayerAdapterKind } from './insurance.entity';
import raw from './data/sandbox-marketplace.json';

interface SandboxMarketplace {
  payer: { name: string; code: string; paymentTermsDays: number; countryCode: string };
  plans: {
    key: string;
    name: string;
    description: string;
    currency: string;
    premium: string;
    termMonths: number;
    coverLimit: string;
    coinsurancePercent: number;
    waitingPeriodDays: number;
    preauthorizationThreshold: string | null;
    benefits: { category: BenefitCategory; limit: string; waitingPeriodDays: number }[];
  }[];
}

const DATA = raw as SandboxMarketplace;

/** Fixed ids, so every deployment (and every test) knows the sandbox payer and its plans. */
export const SANDBOX_PAYER_ID = uuidFrom('sandbox-payer:SANDBOX-HM');
export const sandboxPlanId = (key: string) => uuidFrom(`sandbox-plan:${key}`);

/**
 * The sandbox payer and its plans (data/sandbox-marketplace.json), written once outside production so the
 * marketplace and the claims flow work on a fresh machine. Existing rows are left as they are.
 */
export async function seedSandboxMarketplace(em: EntityManager): Promise<void> {
  if (config().NODE_ENV === 'production') return;
  if (await em.count(Payer, { id: SANDBOX_PAYER_ID })) return;
  em.create(Payer, { id: SANDBOX_PAYER_ID, ...DATA.payer, adapter: PayerAdapterKind.sandbox });
  for (const p of DATA.plans) {
    em.create(InsurancePlan, {
      id: sandboxPlanId(p.key),
      payerId: SANDBOX_PAYER_ID,
      name: p.name,
      description: p.description,
      currency: p.currency,
      premiumAmount: p.premium,
      termMonths: p.termMonths,
      coverLimit: p.coverLimit,
      coinsurancePercent: p.coinsurancePercent,
      waitingPeriodDays: p.waitingPeriodDays,
      preauthThreshold: p.preauthorizationThreshold,
      benefits: p.benefits,
    });
  }
  try {
    await em.flush();
  } catch (err) {
    // Another process of the deployment seeded at the same moment.
    if ((err as { name?: string }).name !== 'UniqueConstraintViolationException') throw err;
  }
}
