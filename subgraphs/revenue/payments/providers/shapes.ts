import { randomInt, randomUUID } from 'node:crypto';
import { isUuid } from '../../../../shared/model';
import { MobileMoneyProvider, MobileMoneyState } from '../payment.entity';
import type { CallbackReport } from './provider';

/**
 * The callback bodies of each provider, as the real one sends them, and how to read them. The sandbox writes them;
 * the callback consumer reads them (and still asks the provider before believing one).
 */
export interface Outcome {
  state: MobileMoneyState.completed | MobileMoneyState.failed | MobileMoneyState.timeout;
  reason: string | null;
  receipt: string | null;
}

interface Shape {
  /** The provider's reference for a new request (the sandbox makes it as the provider would). */
  newReference(paymentId: string): string;
  newReceipt(): string;
  callbackBody(
    p: { paymentId: string; reference: string; amount: string; currency: string; phone: string },
    outcome: Outcome,
  ): Record<string, unknown>;
  /** The report a body makes, or null when the body is not this provider's. */
  read(body: Record<string, any>): CallbackReport | null;
}

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const alnum = (n: number) => Array.from({ length: n }, () => ALNUM[randomInt(ALNUM.length)]).join('');
const stamp = (d = new Date()) => d.toISOString().replace(/\D/g, '').slice(0, 14);

/** M-Pesa Daraja STK push: `Body.stkCallback` with ResultCode 0 (paid), 1037 (no answer), others (failed). */
const mpesa: Shape = {
  newReference: () => `ws_CO_${stamp()}${digits(6)}`,
  newReceipt: () => alnum(10),
  callbackBody({ reference, amount, phone }, outcome) {
    const code =
      outcome.state === MobileMoneyState.completed
        ? 0
        : outcome.state === MobileMoneyState.timeout
          ? 1037
          : outcome.reason?.includes('declined')
            ? 1032
            : 1;
    const desc =
      code === 0
        ? 'The service request is processed successfully.'
        : code === 1037
          ? 'DS timeout user cannot be reached'
          : code === 1032
            ? 'Request cancelled by user'
            : 'The balance is insufficient for the transaction.';
    return {
      Body: {
        stkCallback: {
          MerchantRequestID: `${digits(5)}-${digits(8)}-1`,
          CheckoutRequestID: reference,
          ResultCode: code,
          ResultDesc: desc,
          ...(code === 0
            ? {
                CallbackMetadata: {
                  Item: [
                    { Name: 'Amount', Value: Number(amount) },
                    { Name: 'MpesaReceiptNumber', Value: outcome.receipt },
                    { Name: 'TransactionDate', Value: Number(stamp()) },
                    { Name: 'PhoneNumber', Value: Number(phone.replace('+', '')) },
                  ],
                },
              }
            : {}),
        },
      },
    };
  },
  read(body) {
    const cb = body?.Body?.stkCallback;
    if (!cb || typeof cb !== 'object' || typeof cb.CheckoutRequestID !== 'string') return null;
    const code = Number(cb.ResultCode);
    const items: { Name?: string; Value?: unknown }[] = Array.isArray(cb.CallbackMetadata?.Item) ? cb.CallbackMetadata.Item : [];
    const receipt = items.find((i) => i.Name === 'MpesaReceiptNumber')?.Value;
    return {
      provider: MobileMoneyProvider.mobile_money_a,
      paymentId: null,
      providerReference: cb.CheckoutRequestID,
      state: code === 0 ? MobileMoneyState.completed : code === 1037 ? MobileMoneyState.timeout : MobileMoneyState.failed,
      receipt: receipt === undefined || receipt === null ? null : String(receipt),
      reason: code === 0 ? null : String(cb.ResultDesc ?? `result code ${cb.ResultCode}`),
    };
  },
};

/** MTN MoMo request-to-pay: `externalId` (ours), `status` SUCCESSFUL / FAILED (reason EXPIRED: timed out) / PENDING. */
const momo: Shape = {
  newReference: () => randomUUID(),
  newReceipt: () => digits(9),
  callbackBody({ paymentId, amount, currency, phone }, outcome) {
    const reason =
      outcome.state === MobileMoneyState.timeout
        ? 'EXPIRED'
        : outcome.reason?.includes('declined')
          ? 'APPROVAL_REJECTED'
          : 'NOT_ENOUGH_FUNDS';
    return {
      ...(outcome.state === MobileMoneyState.completed ? { financialTransactionId: outcome.receipt } : {}),
      externalId: paymentId,
      amount,
      currency,
      payer: { partyIdType: 'MSISDN', partyId: phone.replace('+', '') },
      payerMessage: '',
      payeeNote: '',
      status: outcome.state === MobileMoneyState.completed ? 'SUCCESSFUL' : 'FAILED',
      ...(outcome.state === MobileMoneyState.completed ? {} : { reason }),
    };
  },
  read(body) {
    if (typeof body?.externalId !== 'string' || typeof body?.status !== 'string') return null;
    const status = body.status.toUpperCase();
    const reason = typeof body.reason === 'string' ? body.reason : (body.reason?.code ?? null);
    const state =
      status === 'SUCCESSFUL'
        ? MobileMoneyState.completed
        : status === 'PENDING'
          ? MobileMoneyState.pending
          : status === 'TIMEOUT' || reason === 'EXPIRED'
            ? MobileMoneyState.timeout
            : MobileMoneyState.failed;
    return {
      provider: MobileMoneyProvider.mobile_money_b,
      paymentId: isUuid(body.externalId) ? body.externalId : null,
      providerReference: null,
      state,
      receipt: body.financialTransactionId ? String(body.financialTransactionId) : null,
      reason: state === MobileMoneyState.completed ? null : reason ? String(reason) : status,
    };
  },
};

/** Airtel Money collections: `transaction.id` (ours), `status_code` TS (paid), TF (failed; DP00800001024 timed out), TIP / TA (pending). */
const airtel: Shape = {
  newReference: (paymentId) => paymentId,
  newReceipt: () => `MP${stamp().slice(2, 8)}.${digits(4)}.L${digits(5)}`,
  callbackBody({ paymentId, amount, currency }, outcome) {
    const ok = outcome.state === MobileMoneyState.completed;
    return {
      transaction: {
        id: paymentId,
        message: ok ? `Paid ${currency} ${amount}, Trans ID ${outcome.receipt}.` : `Transaction failed: ${outcome.reason}`,
        status_code: ok ? 'TS' : 'TF',
        ...(ok
          ? { airtel_money_id: outcome.receipt }
          : { response_code: outcome.state === MobileMoneyState.timeout ? 'DP00800001024' : 'DP00800001007' }),
      },
    };
  },
  read(body) {
    const t = body?.transaction;
    if (!t || typeof t !== 'object' || typeof t.id !== 'string' || typeof t.status_code !== 'string') return null;
    const code = t.status_code.toUpperCase();
    const state =
      code === 'TS'
        ? MobileMoneyState.completed
        : code === 'TIP' || code === 'TA'
          ? MobileMoneyState.pending
          : t.response_code === 'DP00800001024'
            ? MobileMoneyState.timeout
            : MobileMoneyState.failed;
    return {
      provider: MobileMoneyProvider.mobile_money_c,
      paymentId: isUuid(t.id) ? t.id : null,
      providerReference: t.id,
      state,
      receipt: t.airtel_money_id ? String(t.airtel_money_id) : null,
      reason: state === MobileMoneyState.completed ? null : String(t.message ?? code),
    };
  },
};

export const SHAPES: Record<MobileMoneyProvider, Shape> = {
  [MobileMoneyProvider.mobile_money_a]: mpesa,
  [MobileMoneyProvider.mobile_money_b]: momo,
  [MobileMoneyProvider.mobile_money_c]: airtel,
};

/** Reads a callback that arrived on a channel: channel a carries M-Pesa's shape; channel b MoMo's and Airtel's. */
export function readCallback(channel: 'mobile_money_a' | 'mobile_money_b', body: Record<string, any>): CallbackReport | null {
  if (channel === 'mobile_money_a') return mpesa.read(body);
  return airtel.read(body) ?? momo.read(body);
}
