import { ValidateBy, type ValidationArguments } from 'class-validator';
import {
  allocate as allocateDinero,
  dinero,
  halfEven,
  multiply,
  toDecimal,
  toSnapshot,
  transformScale,
  type Dinero,
  type DineroCurrency,
} from 'dinero.js/bigint';
import * as ISO4217 from 'dinero.js/bigint/currencies';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { Directive, Field, InputType, ObjectType } from 'type-graphql';
import { errors } from './errors';

/**
 * Money is exact: amounts travel as decimal strings written with their currency's minor units ("125.50" KES,
 * "5000" UGX, "1.250" KWD) and are computed in integer minor units (bigint), never in floating point.
 *
 * The minor units come from the ISO 4217 table of dinero.js 2.0.2 (`dinero.js/bigint/currencies`). dinero.js names
 * no version; its table is List One as of amendment 179 (May 2025): XAD (179), XCG and ZWG are in, ANG, HRK and SLL
 * out, and BGN, which amendment 180 withdraws in 2026, still listed. Codes without minor units (XXX, XTS, XAU, XDR)
 * are not currencies here. dinero.js also does allocation and half-even rounding. Upgrading it can change the table.
 */
const TABLE: ReadonlyMap<string, DineroCurrency<bigint>> = new Map(
  Object.values(ISO4217 as Record<string, DineroCurrency<bigint>>)
    .filter((c) => typeof c?.code === 'string')
    // dinero.js counts MGA and MRU in fifths (base 5), which a decimal string cannot carry: they get the two decimals
    // ISO 4217 lists for them.
    .map((c) => [c.code, c.base === 10n ? c : { code: c.code, base: 10n, exponent: 2n }]),
);

/** The most decimals any currency has (CLF and UYW: 4); amounts whose currency is not known yet may have this many. */
export const MAX_DECIMALS = Math.max(...[...TABLE.values()].map((c) => Number(c.exponent)));

/** A non-negative decimal amount: at most 12 whole digits and MAX_DECIMALS decimals. */
export const MONEY = new RegExp(`^\\d{1,12}(\\.\\d{1,${MAX_DECIMALS}})?$`);

export const AMOUNT_MESSAGE = 'must be a non-negative amount such as "125.50"';
export const CURRENCY_MESSAGE = 'must be an ISO 4217 currency code such as KES';

/** An ISO 4217 code (upper case) of a currency money can be kept in. */
export function isCurrencyCode(code: unknown): code is string {
  return typeof code === 'string' && TABLE.has(code);
}

function currencyOf(code: string): DineroCurrency<bigint> {
  const currency = TABLE.get(code);
  if (!currency) throw errors.invalidField('currency', CURRENCY_MESSAGE);
  return currency;
}

/** How many decimals amounts in `currency` have: KES 2, UGX and RWF 0, KWD 3. */
export function decimalsOf(currency: string): number {
  return Number(currencyOf(currency).exponent);
}

/**
 * Why `amount` is not an amount (in `currency` when that is a known currency), or null when it is. Zeros past the
 * currency's decimals lose nothing and are accepted: "5000.00" UGX is 5000.
 */
export function amountProblem(amount: unknown, currency?: unknown): string | null {
  if (typeof amount !== 'string' || !MONEY.test(amount)) return AMOUNT_MESSAGE;
  if (!isCurrencyCode(currency)) return null;
  const decimals = decimalsOf(currency);
  const used = (amount.split('.')[1] ?? '').replace(/0+$/, '').length;
  if (used <= decimals) return null;
  return decimals === 0 ? `${currency} amounts have no decimals` : `${currency} amounts have at most ${decimals} decimals`;
}

/** A decimal amount in minor units ("125.50" KES is 12550n, "5000" UGX 5000n); a bad amount is a 400 naming `field`. */
export function toMinor(amount: string, currency: string, field = 'amount'): bigint {
  const decimals = decimalsOf(currency);
  const problem = amountProblem(amount, currency);
  if (problem) throw errors.invalidField(field, problem);
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
}

const inMinor = (minor: bigint, currency: string): Dinero<bigint> => dinero({ amount: minor, currency: currencyOf(currency) });

/** Minor units as a decimal string with the currency's decimals (12550n KES is "125.50", -5n KWD "-0.005"). */
export function fromMinor(minor: bigint, currency: string): string {
  return toDecimal(inMinor(minor, currency));
}

/** The amount written with its currency's decimals ("1500.5" KES is "1500.50"); a bad amount is a 400 naming `field`. */
export function normalizeAmount(amount: string, currency: string, field = 'amount'): string {
  return fromMinor(toMinor(amount, currency, field), currency);
}

/**
 * Splits `total` minor units in proportion to whole-number `ratios` (a bill between payers, a total across lines).
 * The parts always add up to the total: dinero.js hands the leftover minor units to the largest ratios first.
 */
export function allocate(total: bigint, ratios: readonly (bigint | number)[], currency: string): bigint[] {
  const whole = ratios.map((r) => (typeof r === 'bigint' ? r : BigInt(r)));
  if (!whole.length || whole.some((r) => r < 0n) || !whole.some((r) => r > 0n)) {
    throw new RangeError('allocate needs non-negative ratios, at least one above zero');
  }
  return allocateDinero(inMinor(total, currency), whole).map((part) => toSnapshot(part).amount);
}

/**
 * `minor` times a decimal `rate` ("0.8" for an 80% share, "0.16" for a tax), rounded half-even (banker's rounding,
 * no drift upward over many lines) to the currency's minor unit.
 */
export function applyRate(minor: bigint, rate: string, currency: string): bigint {
  if (!/^\d{1,12}(\.\d{1,12})?$/.test(rate)) throw new RangeError(`not a non-negative decimal rate: ${rate}`);
  const [whole, fraction = ''] = rate.split('.');
  const product = multiply(inMinor(minor, currency), { amount: BigInt(whole + fraction), scale: BigInt(fraction.length) });
  return toSnapshot(transformScale(product, currencyOf(currency).exponent, halfEven)).amount;
}

export const Decimal = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description:
    'An exact decimal amount, returned as a string with its currency\'s ISO 4217 decimals ("125.50" KES, "5000" UGX, "1.250" KWD); numbers are accepted on input',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return value.trim();
    throw new GraphQLError('Decimal must be a string or a number', { extensions: { code: 'VALIDATION_ERROR' } });
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.FLOAT || ast.kind === Kind.INT) return ast.value;
    throw new GraphQLError('Decimal must be a string or a number', { extensions: { code: 'VALIDATION_ERROR' } });
  },
});

/*
 * The field rules for money live here, beside the currency table, rather than in validation.ts (which re-exports
 * them): MoneyInput below needs them, and the two files importing each other would break on load order.
 */

/** ISO 4217 currency code, upper case, of a currency in the table above. */
export function IsCurrency(): PropertyDecorator {
  return ValidateBy({
    name: 'isCurrency',
    validator: { validate: (value: unknown) => isCurrencyCode(value), defaultMessage: () => CURRENCY_MESSAGE },
  });
}

/**
 * A non-negative decimal amount as a string ("125.50"). With `currencyField`, the input's property holding the
 * currency, it has at most that currency's decimals ("KES amounts have at most 2 decimals"); without one (or while
 * the currency is missing or invalid, which its own rule reports) at most MAX_DECIMALS, and the service checks it
 * against the currency with toMinor.
 */
export function IsMoney(opts: { currencyField?: string } = {}): PropertyDecorator {
  const currency = (args?: ValidationArguments) =>
    opts.currencyField && args ? (args.object as Record<string, unknown>)[opts.currencyField] : undefined;
  return ValidateBy({
    name: 'isMoney',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => amountProblem(value, currency(args)) === null,
      defaultMessage: (args?: ValidationArguments) => amountProblem(args?.value, currency(args)) ?? AMOUNT_MESSAGE,
    },
  });
}

/** An amount in a currency, as GraphQL answers it. Shareable: any subgraph may answer money. */
@ObjectType('Money', { description: 'An exact amount of money in a currency' })
@Directive('@shareable')
export class Money {
  @Field(() => Decimal, { description: 'Decimal string with the currency\'s ISO 4217 decimals: "125.50" KES, "5000" UGX, "1.250" KWD' })
  amount!: string;

  @Field({ description: 'ISO 4217 currency code such as KES' })
  currencyCode!: string;
}

/** An amount in a currency, as a client sends it. */
@InputType('MoneyInput', { description: 'An exact amount of money in a currency' })
export class MoneyInput {
  @Field(() => Decimal, {
    description: 'Non-negative, with at most the currency\'s ISO 4217 decimals: "125.50" KES, "5000" UGX, "1.250" KWD',
  })
  @IsMoney({ currencyField: 'currencyCode' })
  amount!: string;

  @Field({ description: 'ISO 4217 currency code such as KES' })
  @IsCurrency()
  currencyCode!: string;
}

/** Money as GraphQL answers it, from minor units. */
export function money(minor: bigint, currencyCode: string): Money {
  return { amount: fromMinor(minor, currencyCode), currencyCode };
}

/** A MoneyInput in minor units; `field` names the input in a 400 ("price" makes "price.amount"). */
export function moneyToMinor(input: MoneyInput, field: string): bigint {
  return toMinor(input.amount, input.currencyCode, `${field}.amount`);
}

/** How a Money field finds its parts on the object it belongs to. */
export interface MoneyFieldOptions<T> {
  /** What the amount is: the public field's description. */
  description: string;
  /** The property holding the ISO 4217 code, or a function of the object answering it. */
  currency: (keyof T & string) | ((root: T) => string | null | undefined);
  /** The decimal string; by default the property the field is named after. */
  amount?: (root: T) => string | null | undefined;
  /** Null when the amount (or its currency) is missing; a required field otherwise. */
  nullable?: boolean;
}

/**
 * Declares the money field `name` of the object type `target`: the public field `name` answers `Money`, and an internal
 * twin `<name>Decimal` (`@inaccessible`: not in the public schema) answers the bare decimal string for the REST
 * adapter, whose operation documents select it under the public name (`totalAmount: totalAmountDecimal`), so the
 * wire keeps `"total_amount": "125.50"`. The amount is the property `name` unless `amount` says otherwise.
 * `@MoneyField` is the same as a property decorator.
 */
export function moneyField<T>(target: abstract new (...args: never[]) => T, name: string, opts: MoneyFieldOptions<T>): void {
  const prototype = target.prototype as Record<string, unknown>;
  const amountOf = (root: T): string | null => {
    const value = opts.amount ? opts.amount(root) : (root as Record<string, unknown>)[name];
    return value === null || value === undefined ? null : String(value as string);
  };
  const currencyOf = (root: T) => (typeof opts.currency === 'function' ? opts.currency(root) : (root[opts.currency] as string | null));
  const method = (key: string, fn: (this: T) => unknown): PropertyDescriptor => {
    Object.defineProperty(prototype, key, { value: fn, configurable: true, writable: true });
    return Object.getOwnPropertyDescriptor(prototype, key)!;
  };
  const moneyKey = `${name}Money`;
  const decimalKey = `${name}Decimal`;
  Field(() => Money, { name, nullable: opts.nullable, description: opts.description })(
    prototype,
    moneyKey,
    method(moneyKey, function (this: T): Money | null {
      const amount = amountOf(this);
      const currencyCode = currencyOf(this);
      return amount === null || !currencyCode ? null : { amount, currencyCode };
    }),
  );
  const twin = method(decimalKey, function (this: T) {
    return amountOf(this);
  });
  Field(() => Decimal, { nullable: opts.nullable, description: `${opts.description}: the decimal string alone, for the REST adapter` })(
    prototype,
    decimalKey,
    twin,
  );
  Directive('@inaccessible')(prototype, decimalKey);
}

/** `moneyField` as a decorator of the property holding the decimal string. */
export function MoneyField<T>(opts: MoneyFieldOptions<T>) {
  return (prototype: T, name: string): void =>
    moneyField((prototype as { constructor: abstract new (...args: never[]) => T }).constructor, name, opts);
}
