import { config } from '../../../../shared/config';
import { signMobileMoneyCallback } from '../../../../shared/adapters/mobile-money';
import { clock } from '../../../../shared/clock';
import { logger } from '../../../../shared/logger';
import { appRedis, redisKey } from '../../../../shared/redis';
import { MobileMoneyProvider, MobileMoneyState } from '../payment.entity';
import { PROVIDERS, SANDBOX_TEST_NUMBERS, type MobileMoneyAdapter, type PaymentRequest, type ProviderStatus } from './provider';
import { SHAPES, type Outcome } from './shapes';

type SandboxOutcome = Outcome | { state: 'silent'; reason: string; receipt: null };

/** What the sandbox does with a number: by its last four digits (data/mobile-money-providers.json), else it pays. */
export function sandboxOutcome(phone: string, receipt: string): SandboxOutcome {
  const rule = (SANDBOX_TEST_NUMBERS as Record<string, { state: string; reason: string } | string>)[phone.slice(-4)];
  if (!rule || typeof rule === 'string') return { state: MobileMoneyState.completed, reason: null, receipt };
  if (rule.state === 'silent') return { state: 'silent', reason: rule.reason, receipt: null };
  return { state: rule.state === 'timeout' ? MobileMoneyState.timeout : MobileMoneyState.failed, reason: rule.reason, receipt: null };
}

interface Kept {
  paymentId: string;
  outcome: SandboxOutcome;
  readyAt: number;
}

const keyOf = (provider: MobileMoneyProvider, reference: string) => redisKey('mobile-money-sandbox', provider, reference);
const KEEP_SECONDS = 7 * 24 * 3600;

/**
 * A provider on loopback, in the shape of the real one: it accepts a request at once, then, after
 * MOBILE_MONEY_SANDBOX_DELAY_MS (a customer approving on the phone), calls the payment's callback URL with the
 * provider's body, signed, as the provider would reach the platform (over HTTPS through the local proxy). What it
 * decided is kept in Redis, so its status query answers from any process. Test numbers (by their last four digits)
 * fail, time out, or never answer.
 */
export class SandboxMobileMoney implements MobileMoneyAdapter {
  readonly sandbox = true;
  private readonly pending = new Set<Promise<void>>();

  constructor(readonly provider: MobileMoneyProvider) {}

  async requestPayment(request: PaymentRequest): Promise<{ providerReference: string }> {
    const shape = SHAPES[this.provider];
    const reference = shape.newReference(request.paymentId);
    const outcome = sandboxOutcome(request.phone, shape.newReceipt());
    const delay = config().MOBILE_MONEY_SANDBOX_DELAY_MS;
    const kept: Kept = { paymentId: request.paymentId, outcome, readyAt: clock.nowMs() + delay };
    await appRedis().set(keyOf(this.provider, reference), JSON.stringify(kept), 'EX', KEEP_SECONDS);
    if (outcome.state !== 'silent') {
      const body = JSON.stringify(shape.callbackBody({ ...request, reference }, outcome));
      const delivery = this.callBack(request.callbackUrl, body, delay).finally(() => this.pending.delete(delivery));
      this.pending.add(delivery);
    }
    return { providerReference: reference };
  }

  async queryStatus(payment: { id: string; providerReference?: string | null }): Promise<ProviderStatus> {
    if (!payment.providerReference) return { state: 'unknown' };
    const raw = await appRedis().get(keyOf(this.provider, payment.providerReference));
    if (!raw) return { state: 'unknown' };
    const kept = JSON.parse(raw) as Kept;
    if (kept.paymentId !== payment.id) return { state: 'unknown' };
    if (kept.outcome.state === 'silent' || clock.nowMs() < kept.readyAt) return { state: MobileMoneyState.pending };
    return { state: kept.outcome.state, receipt: kept.outcome.receipt, reason: kept.outcome.reason };
  }

  /** Resolves once every callback scheduled so far was delivered (or failed for good): for tests. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private async callBack(url: string, body: string, delay: number): Promise<void> {
    await new Promise((r) => setTimeout(r, delay).unref?.());
    const channel = PROVIDERS[this.provider].channel;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-signature': await signMobileMoneyCallback(channel, body),
            'x-forwarded-proto': 'https',
          },
          body,
        });
        if (res.ok) return;
        logger.warn({ provider: this.provider, status: res.status }, 'sandbox mobile money callback refused');
      } catch (err) {
        logger.warn({ err, provider: this.provider }, 'sandbox mobile money callback not delivered');
      }
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

const sandboxes = new Map<MobileMoneyProvider, SandboxMobileMoney>();

/** The adapter of a provider. Only the sandbox exists here; a live one implements the same interface. */
export function mobileMoneyAdapter(provider: MobileMoneyProvider): MobileMoneyAdapter {
  let adapter = sandboxes.get(provider);
  if (!adapter) {
    adapter = new SandboxMobileMoney(provider);
    sandboxes.set(provider, adapter);
  }
  return adapter;
}

/** Every sandbox's scheduled callbacks delivered: for tests. */
export async function sandboxCallbacksSettled(): Promise<void> {
  await Promise.all([...sandboxes.values()].map((s) => s.settled()));
}
