import 'reflect-metadata';
import { validateSync } from 'class-validator';
import { IsCountryCode, IsCurrency, IsMoney, IsPhone } from './validation';

class Sample {
  @IsCountryCode()
  country?: unknown;

  @IsCurrency()
  currency?: unknown;

  @IsPhone()
  phone?: unknown;

  @IsMoney()
  anyAmount?: unknown;

  @IsMoney({ currencyField: 'currency' })
  fee?: unknown;
}

/** The messages for `field` when it holds `value`; [] when the value passes. */
function messages(field: keyof Sample, value: unknown): string[] {
  const sample = Object.assign(new Sample(), { [field]: value });
  const found = validateSync(sample, { skipMissingProperties: true }).find((e) => e.property === field);
  return Object.values(found?.constraints ?? {});
}

const accepts = (field: keyof Sample, values: unknown[]) =>
  expect(values.map((v) => [v, messages(field, v)])).toEqual(values.map((v) => [v, []]));
const refuses = (field: keyof Sample, values: unknown[], message: string) =>
  expect(values.map((v) => [v, messages(field, v)])).toEqual(values.map((v) => [v, [message]]));

describe('IsCountryCode (ISO 3166-1 alpha-2)', () => {
  it('accepts assigned codes in upper case', () => {
    accepts('country', ['KE', 'GH', 'NG', 'ZA', 'TZ', 'UG', 'RW', 'ET', 'US', 'GB']);
  });

  it('refuses unassigned and user-assigned codes, lower case and names', () => {
    refuses(
      'country',
      ['ZZ', 'XK', 'AA', 'UK', 'ke', 'Ke', 'KEN', 'Kenya', '', 254],
      'must be an ISO 3166-1 alpha-2 country code such as KE',
    );
  });
});

describe('IsCurrency (ISO 4217, with minor units)', () => {
  it('accepts current currencies, including ones newer than the validator.js list', () => {
    accepts('currency', ['KES', 'UGX', 'RWF', 'TZS', 'NGN', 'GHS', 'ZAR', 'KWD', 'JPY', 'EUR', 'USD', 'XOF', 'ZWG', 'XCG']);
  });

  it('refuses XXX (no currency), test, precious metal and withdrawn codes, lower case and made-up codes', () => {
    // XXX is ISO 4217's "no currency": it has no minor unit, so no amount can be written in it.
    refuses(
      'currency',
      ['XXX', 'XTS', 'XAU', 'XDR', 'ANG', 'SLL', 'ZWL', 'kes', 'QQQ', 'KSH', 'shillings', ''],
      'must be an ISO 4217 currency code such as KES',
    );
  });
});

describe('IsPhone (international format, real numbering plans)', () => {
  it('accepts valid Kenyan, Ghanaian and Nigerian numbers', () => {
    accepts('phone', [
      '+254712345678', // Safaricom
      '+254110123456', // Safaricom 011x
      '+254733123456', // Airtel
      '+254202222222', // Nairobi landline
      '+233201234567', // Vodafone Ghana
      '+233241234567', // MTN Ghana
      '+233302123456', // Accra landline
      '+2348031234567', // MTN Nigeria
      '+2347012345678', // Airtel Nigeria
      '+2349012345678', // Airtel Nigeria
    ]);
  });

  it('refuses numbers no network assigns, which a length check alone would take', () => {
    refuses(
      'phone',
      ['+254131234567', '+254631234567', '+233301234567', '+233991234567', '+2347301234567', '+2342001234567'],
      'must be in international format, for example +254712345678',
    );
  });

  it('refuses national format, wrong lengths, spaces and trunk zeros', () => {
    refuses(
      'phone',
      [
        '0712345678',
        '254712345678',
        '+25471234567',
        '+2547123456789',
        '+254 712 345 678',
        '+2540712345678',
        '+2340812345678',
        '+1',
        712345678,
      ],
      'must be in international format, for example +254712345678',
    );
  });
});

describe('IsMoney', () => {
  it('without a currency, takes up to the most decimals any currency has', () => {
    accepts('anyAmount', ['0', '125.50', '5000', '1.250', '0.0001', '999999999999.99']);
    refuses('anyAmount', ['-1', '1.23456', '1e3', '12,50', '1000000000000', 125.5], 'must be a non-negative amount such as "125.50"');
  });

  it("with the currency beside it, takes that currency's decimals", () => {
    const fee = (amount: unknown, currency: unknown) => {
      const found = validateSync(Object.assign(new Sample(), { fee: amount, currency }), { skipMissingProperties: true });
      return found.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
    };
    expect(fee('2500.50', 'KES')).toEqual([]);
    expect(fee('2500.505', 'KES')).toEqual(['fee: KES amounts have at most 2 decimals']);
    expect(fee('5000', 'UGX')).toEqual([]);
    expect(fee('5000.5', 'UGX')).toEqual(['fee: UGX amounts have no decimals']);
    expect(fee('5000.00', 'RWF')).toEqual([]);
    expect(fee('1.250', 'KWD')).toEqual([]);
    expect(fee('1.2505', 'KWD')).toEqual(['fee: KWD amounts have at most 3 decimals']);
    // No currency, or a bad one (reported on its own): the general rule.
    expect(fee('1.2505', undefined)).toEqual([]);
    expect(fee('1.25', 'XXX')).toEqual(['currency: must be an ISO 4217 currency code such as KES']);
  });
});
