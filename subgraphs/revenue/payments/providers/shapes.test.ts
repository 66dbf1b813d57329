import { MobileMoneyProvider, MobileMoneyState } from '../payment.entity';
import { checkRequest } from './provider';
import { sandboxOutcome } from './sandbox';
import { readCallback, SHAPES } from './shapes';

const payment = { paymentId: '7d0c1e9a-8f5b-4c1e-9a6d-3b2f1e0d9c8b', amount: '1500', currency: 'KES', phone: '+254712345678' };

describe('provider callback shapes', () => {
  it.each([
    [MobileMoneyProvider.mobile_money_a, 'mobile_money_a'],
    [MobileMoneyProvider.mobile_money_b, 'mobile_money_b'],
    [MobileMoneyProvider.mobile_money_c, 'mobile_money_b'],
  ] as const)('%s: what the sandbox writes reads back on its channel', (provider, channel) => {
    const shape = SHAPES[provider];
    const reference = shape.newReference(payment.paymentId);
    for (const outcome of [
      { state: MobileMoneyState.completed, reason: null, receipt: shape.newReceipt() },
      { state: MobileMoneyState.failed, reason: 'insufficient funds', receipt: null },
      { state: MobileMoneyState.timeout, reason: 'no answer', receipt: null },
    ] as const) {
      const report = readCallback(channel, shape.callbackBody({ ...payment, reference }, outcome))!;
      expect(report).toMatchObject({ provider, state: outcome.state });
      if (outcome.receipt) expect(report.receipt).toBe(outcome.receipt);
      if (provider === MobileMoneyProvider.mobile_money_a) expect(report.providerReference).toBe(reference);
      else expect(report.paymentId).toBe(payment.paymentId);
    }
  });

  it('reads real-world bodies and refuses others', () => {
    const daraja = {
      Body: {
        stkCallback: {
          MerchantRequestID: '29115-34620561-1',
          CheckoutRequestID: 'ws_CO_191220191020363925',
          ResultCode: 1032,
          ResultDesc: 'Request cancelled by user',
        },
      },
    };
    expect(readCallback('mobile_money_a', daraja)).toMatchObject({
      state: 'failed',
      reason: 'Request cancelled by user',
      providerReference: 'ws_CO_191220191020363925',
    });
    const airtel = {
      transaction: { id: 'BBZMiscxy', message: 'Paid UGX 5,000', status_code: 'TS', airtel_money_id: 'MP210603.1234.L06941' },
    };
    expect(readCallback('mobile_money_b', airtel)).toMatchObject({
      provider: 'mobile_money_c',
      state: 'completed',
      paymentId: null,
      providerReference: 'BBZMiscxy',
    });
    expect(readCallback('mobile_money_b', { externalId: 'x', status: 'PENDING' })).toMatchObject({ state: 'pending' });
    expect(readCallback('mobile_money_a', { transaction_id: 'tx', status: 'SUCCESSFUL' })).toBeNull();
    expect(readCallback('mobile_money_b', { transaction_id: 'tx', status: 'SUCCESSFUL' })).toBeNull();
  });
});

describe('sandbox test numbers', () => {
  it('decides by the last four digits', () => {
    expect(sandboxOutcome('+254712345678', 'R').state).toBe('completed');
    expect(sandboxOutcome('+254712340001', 'R')).toMatchObject({ state: 'failed', reason: 'insufficient funds' });
    expect(sandboxOutcome('+254712340002', 'R').state).toBe('failed');
    expect(sandboxOutcome('+254712340003', 'R').state).toBe('timeout');
    expect(sandboxOutcome('+254712340009', 'R').state).toBe('silent');
  });
});

describe('provider rules', () => {
  const issue = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as { details: { field: string; message: string }[] }).details[0];
    }
    return null;
  };
  it('checks phone country, currency, amount and limits per provider', () => {
    expect(checkRequest(MobileMoneyProvider.mobile_money_a, '+254712345678', '250000', 'KES')).toEqual({ country: 'KE' });
    expect(issue(() => checkRequest(MobileMoneyProvider.mobile_money_a, '+233241234567', '10', 'KES'))).toMatchObject({ field: 'phone' });
    expect(issue(() => checkRequest(MobileMoneyProvider.mobile_money_c, '+254712345678', '10', 'UGX'))).toMatchObject({
      field: 'currency',
      message: 'must be KES for mobile-money-c numbers of KE',
    });
    expect(issue(() => checkRequest(MobileMoneyProvider.mobile_money_b, '+256772123456', '100', 'UGX'))).toMatchObject({
      field: 'amount',
      message: 'must be at least 500 UGX for mobile-money-b',
    });
    expect(issue(() => checkRequest(MobileMoneyProvider.mobile_money_b, '+233241234567', '0.00', 'GHS'))).toMatchObject({
      field: 'amount',
      message: 'must be above zero',
    });
    expect(checkRequest(MobileMoneyProvider.mobile_money_b, '+233241234567', '12.50', 'GHS')).toEqual({ country: 'GH' });
  });
});
