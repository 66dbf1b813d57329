import 'reflect-metadata';
import { validate } from 'class-validator';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { graphql } from 'graphql';
import { Arg, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { AppError } from './errors';
import {
  allocate,
  amountProblem,
  applyRate,
  Decimal,
  decimalsOf,
  fromMinor,
  isCurrencyCode,
  money,
  Money,
  MoneyField,
  moneyField,
  MoneyInput,
  moneyToMinor,
  normalizeAmount,
  toMinor,
} from './money';
import { Public } from './public';
import { buildSubgraph, defineSubgraph } from './subgraph';

/** The 400 a call throws: its field issues. */
function issuesOf(call: () => unknown) {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_ERROR');
    return (err as AppError).details;
  }
  throw new Error('expected a validation error');
}

describe('minor units per currency (ISO 4217)', () => {
  // currency, decimals, an amount as a client writes it, its minor units, the amount as answered
  it.each([
    ['KES', 2, '125.5', 12550n, '125.50'],
    ['USD', 2, '19.99', 1999n, '19.99'],
    ['UGX', 0, '5000', 5000n, '5000'],
    ['RWF', 0, '1500', 1500n, '1500'],
    ['KWD', 3, '1.25', 1250n, '1.250'],
    ['JPY', 0, '1200', 1200n, '1200'],
    ['EUR', 2, '0.5', 50n, '0.50'],
    ['NGN', 2, '2500', 250000n, '2500.00'],
    ['GHS', 2, '35.50', 3550n, '35.50'],
    ['ZAR', 2, '999999999999.99', 99999999999999n, '999999999999.99'],
  ])('%s has %i decimals: "%s" is %d minor units, answered "%s"', (currency, decimals, amount, minor, answered) => {
    expect(decimalsOf(currency)).toBe(decimals);
    expect(toMinor(amount, currency)).toBe(minor);
    expect(fromMinor(minor, currency)).toBe(answered);
    expect(normalizeAmount(amount, currency)).toBe(answered);
    expect(toMinor(answered, currency)).toBe(minor);
  });

  it('refuses more decimals than the currency has, naming the field', () => {
    expect(issuesOf(() => toMinor('1.005', 'KES', 'items.0.unitPrice'))).toEqual([
      { field: 'items.0.unitPrice', message: 'KES amounts have at most 2 decimals' },
    ]);
    expect(issuesOf(() => toMinor('5000.5', 'UGX', 'consultationFee'))).toEqual([
      { field: 'consultationFee', message: 'UGX amounts have no decimals' },
    ]);
    expect(issuesOf(() => toMinor('0.1', 'RWF'))).toEqual([{ field: 'amount', message: 'RWF amounts have no decimals' }]);
    expect(issuesOf(() => toMinor('1.2345', 'KWD'))).toEqual([{ field: 'amount', message: 'KWD amounts have at most 3 decimals' }]);
    expect(issuesOf(() => toMinor('100.5', 'JPY'))).toEqual([{ field: 'amount', message: 'JPY amounts have no decimals' }]);
  });

  it('takes zeros past the currency decimals, which lose nothing', () => {
    expect(toMinor('5000.00', 'UGX')).toBe(5000n);
    expect(normalizeAmount('125.500', 'KES')).toBe('125.50');
    expect(normalizeAmount('1.2500', 'KWD')).toBe('1.250');
  });

  it('refuses negative amounts and anything that is not a plain decimal', () => {
    for (const bad of ['-5', '-0.01', '1e3', '12,50', '', ' 1', '1.', '.5', '0x10', '1234567890123', '1.23456']) {
      expect([bad, issuesOf(() => toMinor(bad, 'KES'))]).toEqual([
        bad,
        [{ field: 'amount', message: 'must be a non-negative amount such as "125.50"' }],
      ]);
    }
  });

  it('writes negative minor units (differences, refunds) with the sign', () => {
    expect(fromMinor(-150n, 'KES')).toBe('-1.50');
    expect(fromMinor(-5n, 'KWD')).toBe('-0.005');
    expect(fromMinor(-5000n, 'UGX')).toBe('-5000');
    expect(fromMinor(0n, 'KWD')).toBe('0.000');
  });

  it('keeps amounts beyond floating point exactly', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; in minor units it is 30.
    expect(fromMinor(toMinor('0.1', 'USD') + toMinor('0.2', 'USD'), 'USD')).toBe('0.30');
    expect(fromMinor(toMinor('999999999999.99', 'KES') * 100000n, 'KES')).toBe('99999999999999000.00');
  });

  it('knows current ISO 4217 currencies only: no XXX, XTS, gold or withdrawn codes', () => {
    for (const code of ['KES', 'UGX', 'TZS', 'RWF', 'ETB', 'XOF', 'XAF', 'ZWG', 'XCG', 'MGA'])
      expect([code, isCurrencyCode(code)]).toEqual([code, true]);
    for (const code of ['XXX', 'XTS', 'XAU', 'XDR', 'ANG', 'SLL', 'HRK', 'ZWL', 'kes', 'QQQ', '', 42])
      expect([code, isCurrencyCode(code)]).toEqual([code, false]);
    expect(issuesOf(() => toMinor('1', 'XXX'))).toEqual([{ field: 'currency', message: 'must be an ISO 4217 currency code such as KES' }]);
  });

  it('gives MGA and MRU, which dinero.js counts in fifths, the two decimals ISO 4217 lists', () => {
    expect(decimalsOf('MGA')).toBe(2);
    expect(normalizeAmount('1000.5', 'MRU')).toBe('1000.50');
  });

  it('names the problem without throwing, per currency when it is known', () => {
    expect(amountProblem('1.005')).toBeNull();
    expect(amountProblem('1.005', 'KES')).toBe('KES amounts have at most 2 decimals');
    expect(amountProblem('1.005', 'XXX')).toBeNull();
    expect(amountProblem(1.5, 'KES')).toBe('must be a non-negative amount such as "125.50"');
  });
});

describe('allocate', () => {
  it('splits a total so that the parts add up to it exactly', () => {
    expect(allocate(10000n, [1, 1, 1], 'KES')).toEqual([3334n, 3333n, 3333n]);
    expect(allocate(100n, [1, 1, 1], 'UGX')).toEqual([34n, 33n, 33n]);
    expect(allocate(1000n, [1, 1, 1], 'KWD')).toEqual([334n, 333n, 333n]);
    // An insurer pays 80%, the patient 20%, of KES 1,234.57.
    expect(allocate(123457n, [80, 20], 'KES')).toEqual([98766n, 24691n]);
    // The leftover unit goes to the largest share, not to the first.
    expect(allocate(5n, [1, 3], 'JPY')).toEqual([1n, 4n]);
    expect(allocate(7n, [0, 1n, 2n], 'RWF')).toEqual([0n, 2n, 5n]);
  });

  it('adds up for any total and ratios', () => {
    let seed = 7;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    for (let run = 0; run < 500; run++) {
      const total = BigInt(next(10_000_000));
      const ratios = Array.from({ length: 1 + next(6) }, () => next(100));
      if (!ratios.some((r) => r > 0)) ratios[0] = 1;
      const parts = allocate(total, ratios, 'KES');
      expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
      parts.forEach((part, i) => expect(part >= 0n && (ratios[i] > 0 || part === 0n)).toBe(true));
    }
  });

  it('refuses ratios that split nothing', () => {
    expect(() => allocate(100n, [], 'KES')).toThrow(RangeError);
    expect(() => allocate(100n, [0, 0], 'KES')).toThrow(RangeError);
    expect(() => allocate(100n, [1, -1], 'KES')).toThrow(RangeError);
  });
});

describe('applyRate (half-even rounding to the minor unit)', () => {
  it('rounds a half to the even minor unit', () => {
    expect(applyRate(25n, '0.5', 'KES')).toBe(12n); // 0.125 -> 0.12
    expect(applyRate(35n, '0.5', 'KES')).toBe(18n); // 0.175 -> 0.18
    expect(applyRate(5n, '0.5', 'UGX')).toBe(2n); // 2.5 -> 2
    expect(applyRate(15n, '0.5', 'UGX')).toBe(8n); // 7.5 -> 8
    expect(applyRate(1001n, '0.5', 'KWD')).toBe(500n); // 0.5005 -> 0.500
  });

  it('rounds anything else to the nearest minor unit', () => {
    expect(applyRate(10150n, '0.125', 'KES')).toBe(1269n); // 12.6875 -> 12.69
    expect(applyRate(10000n, '0.16', 'NGN')).toBe(1600n);
    expect(applyRate(999n, '0.333', 'JPY')).toBe(333n); // 332.667 -> 333
    expect(applyRate(12345n, '1', 'GHS')).toBe(12345n);
  });

  it('refuses a rate that is not a plain non-negative decimal', () => {
    for (const rate of ['-0.5', '1e-2', '', 'half']) expect(() => applyRate(100n, rate, 'KES')).toThrow(RangeError);
  });
});

describe('the Decimal scalar', () => {
  it('takes strings and numbers and answers strings', () => {
    expect(Decimal.parseValue('125.50')).toBe('125.50');
    expect(Decimal.parseValue(' 5000 ')).toBe('5000');
    expect(Decimal.parseValue(1500.5)).toBe('1500.5');
    expect(Decimal.serialize('1.250')).toBe('1.250');
    expect(() => Decimal.parseValue(true)).toThrow('Decimal must be a string or a number');
  });
});

describe('Money and MoneyInput', () => {
  const fieldsOf = async (input: object) =>
    (await validate(Object.assign(new MoneyInput(), input))).map((e) => [e.property, Object.values(e.constraints ?? {})]);

  it('validates the amount against the currency it comes with', async () => {
    expect(await fieldsOf({ amount: '1.250', currencyCode: 'KWD' })).toEqual([]);
    expect(await fieldsOf({ amount: '5000', currencyCode: 'UGX' })).toEqual([]);
    expect(await fieldsOf({ amount: '1.255', currencyCode: 'KES' })).toEqual([['amount', ['KES amounts have at most 2 decimals']]]);
    expect(await fieldsOf({ amount: '5000.5', currencyCode: 'UGX' })).toEqual([['amount', ['UGX amounts have no decimals']]]);
    expect(await fieldsOf({ amount: '-1', currencyCode: 'KES' })).toEqual([['amount', ['must be a non-negative amount such as "125.50"']]]);
    // A bad currency is reported once, on its own field; the amount is held to the general rule meanwhile.
    expect(await fieldsOf({ amount: '1.5', currencyCode: 'XXX' })).toEqual([
      ['currencyCode', ['must be an ISO 4217 currency code such as KES']],
    ]);
  });

  it('converts to and from minor units', () => {
    expect(moneyToMinor(Object.assign(new MoneyInput(), { amount: '1.25', currencyCode: 'KWD' }), 'price')).toBe(1250n);
    expect(issuesOf(() => moneyToMinor(Object.assign(new MoneyInput(), { amount: '1.5', currencyCode: 'RWF' }), 'price'))).toEqual([
      { field: 'price.amount', message: 'RWF amounts have no decimals' },
    ]);
    expect(money(500000n, 'UGX')).toEqual({ amount: '500000', currencyCode: 'UGX' });
  });

  it('are shareable GraphQL types with descriptions that answer decimal strings and refuse extra decimals', async () => {
    @Resolver()
    class PriceResolver {
      @Public()
      @Query(() => Money, { description: 'Twice the price' })
      double(@Arg('input', () => MoneyInput) input: MoneyInput): Money {
        return money(moneyToMinor(input, 'input') * 2n, input.currencyCode);
      }
    }
    const schema = await buildSubgraph(
      defineSubgraph({
        name: 'pricing',
        description: 'test',
        modules: [{ name: 'prices', description: 'test', resolvers: [PriceResolver], migrations: [] }],
        entities: [],
        migrations: [],
      }),
    );
    const sdl = printSchemaWithDirectives(schema);
    expect(sdl).toMatch(/"""An exact amount of money in a currency"""\ntype Money @shareable \{/);
    expect(sdl).toMatch(/"""An exact amount of money in a currency"""\ninput MoneyInput \{/);
    expect(sdl).toMatch(/amount: Decimal!\n/);
    expect(sdl).toMatch(/currencyCode: String!\n/);
    const ask = (amount: string | number, currencyCode: string) =>
      graphql({
        schema,
        source: 'query($i: MoneyInput!) { double(input: $i) { amount currencyCode } }',
        variableValues: { i: { amount, currencyCode } },
      });
    expect((await ask('0.6', 'KWD')).data).toEqual({ double: { amount: '1.200', currencyCode: 'KWD' } });
    expect((await ask(2500, 'UGX')).data).toEqual({ double: { amount: '5000', currencyCode: 'UGX' } });
    const refused = await ask('2500.5', 'UGX');
    expect(refused.errors?.[0].extensions).toEqual({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'amount', message: 'UGX amounts have no decimals' }],
    });
  });
});

describe('MoneyField', () => {
  @ObjectType('Bill', { description: 'test' })
  class Bill {
    @Field()
    currency!: string;

    @MoneyField<Bill>({ currency: 'currency', description: 'What is owed' })
    total!: string;

    @MoneyField<Bill>({ currency: (bill) => bill.currency, nullable: true, description: 'A tip, if any' })
    tip?: string | null;
  }
  moneyField(Bill, 'half', {
    currency: 'currency',
    description: 'Half of the total',
    amount: (bill) => fromMinor(toMinor(bill.total, bill.currency) / 2n, bill.currency),
  });

  it('answers Money under the public name and the bare decimal under an internal twin', async () => {
    @Resolver()
    class BillResolver {
      @Public()
      @Query(() => Bill, { description: 'A bill' })
      bill(): Bill {
        // A plain object, as JSON columns answer: the fields work without an instance.
        return { currency: 'KES', total: '125.50', tip: null } as Bill;
      }
    }
    const schema = await buildSubgraph(
      defineSubgraph({
        name: 'billing-test',
        description: 'test',
        modules: [{ name: 'bills', description: 'test', resolvers: [BillResolver], migrations: [] }],
        entities: [],
        migrations: [],
      }),
    );
    const sdl = printSchemaWithDirectives(schema);
    expect(sdl).toMatch(/total: Money!\n/);
    expect(sdl).toMatch(/totalDecimal: Decimal! @inaccessible\n/);
    expect(sdl).toMatch(/tip: Money\n/);
    expect(sdl).toMatch(/tipDecimal: Decimal @inaccessible\n/);
    const res = await graphql({
      schema,
      source: '{ bill { total { amount currencyCode } totalAmount: totalDecimal tip { amount } tipDecimal half { amount } halfDecimal } }',
    });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      bill: {
        total: { amount: '125.50', currencyCode: 'KES' },
        totalAmount: '125.50',
        tip: null,
        tipDecimal: null,
        half: { amount: '62.75' },
        halfDecimal: '62.75',
      },
    });
  });
});
