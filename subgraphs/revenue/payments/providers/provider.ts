import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { MobileMoneyChannel } from '../../../../shared/adapters/mobile-money';
import { errors, type FieldIssue } from '../../../../shared/errors';
import { decimalsOf, toMinor } from '../../../../shared/money';
import { MobileMoneyProvider, MobileMoneyState, providerName } from '../payment.entity';
import data from '../data/mobile-money-providers.json';

/** A provider's rules (data/mobile-money-providers.json names their sources). */
export interface ProviderRules {
  id: MobileMoneyProvider;
  shapedAfter: string;
  channel: MobileMoneyChannel;
  wholeUnitsOnly: boolean;
  expirySeconds: number;
  statusQueryAfterSeconds: number;
  countries: Record<string, { currency: string; min: string; max: string }>;
}

export const PROVIDERS: Record<MobileMoneyProvider, ProviderRules> = Object.fromEntries(
  Object.entries(data.providers).map(([id, p]) => [id, { id, ...p }]),
) as unknown as Record<MobileMoneyProvider, ProviderRules>;

export const SANDBOX_TEST_NUMBERS = data.sandboxTestNumbers;

/**
 * Checks a payment request against its provider: the phone (E.164, a real number of one of the provider's
 * countries, by libphonenumber-js's full metadata), the currency of that country, an amount above zero within the
 * provider's limits (whole units where the provider takes no fractions). Every problem names its field.
 */
export function checkRequest(provider: MobileMoneyProvider, phone: string, amount: string, currency: string): { country: string } {
  const rules = PROVIDERS[provider];
  const name = providerName(provider);
  const parsed = parsePhoneNumberFromString(phone);
  const country = parsed?.country;
  if (!country || !rules.countries[country]) {
    throw errors.invalidField('phone', `must be a number of ${Object.keys(rules.countries).join(', ')} for ${name}`);
  }
  const local = rules.countries[country];
  const issues: FieldIssue[] = [];
  if (currency !== local.currency) {
    issues.push({ field: 'currency', message: `must be ${local.currency} for ${name} numbers of ${country}` });
    throw errors.validation(issues);
  }
  const minor = toMinor(amount, currency);
  if (minor <= 0n) throw errors.invalidField('amount', 'must be above zero');
  if (rules.wholeUnitsOnly && minor % 10n ** BigInt(decimalsOf(currency)) !== 0n)
    throw errors.invalidField('amount', `must be a whole number of ${currency} for ${name}`);
  if (minor < toMinor(local.min, currency)) throw errors.invalidField('amount', `must be at least ${local.min} ${currency} for ${name}`);
  if (minor > toMinor(local.max, currency)) throw errors.invalidField('amount', `must be at most ${local.max} ${currency} for ${name}`);
  return { country };
}

/** The provider's answer about a payment. `unknown`: it has no such request. */
export interface ProviderStatus {
  state: MobileMoneyState | 'unknown';
  receipt?: string | null;
  reason?: string | null;
}

/** What a callback body says, in the provider's own shape. */
export interface CallbackReport {
  provider: MobileMoneyProvider;
  /** Our payment id when the provider echoes it (MoMo `externalId`, Airtel `transaction.id`). */
  paymentId: string | null;
  /** The provider's own reference (M-Pesa CheckoutRequestID). */
  providerReference: string | null;
  state: MobileMoneyState;
  receipt: string | null;
  reason: string | null;
}

export interface PaymentRequest {
  paymentId: string;
  phone: string;
  amount: string;
  currency: string;
  description: string;
  orderId: string;
  callbackUrl: string;
}

/**
 * A mobile money provider. `requestPayment` asks the customer's phone for approval (STK push, request-to-pay,
 * USSD push) and answers the provider's reference; the outcome arrives by callback, or by `queryStatus`, which the
 * platform asks before believing a callback and for payments pending too long.
 */
export interface MobileMoneyAdapter {
  readonly provider: MobileMoneyProvider;
  readonly sandbox: boolean;
  requestPayment(request: PaymentRequest): Promise<{ providerReference: string }>;
  queryStatus(payment: { id: string; providerReference?: string | null }): Promise<ProviderStatus>;
}
