import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/**
 * Money is exact: amounts travel as decimal strings ("125.50") and are added up in integer minor units.
 */
export const MONEY = /^\d{1,12}(\.\d{1,2})?$/;

export const Decimal = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal amount, returned as a string such as "125.50"; numbers are accepted on input',
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

export function toMinor(amount: string): bigint {
  const [whole, frac = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
}

export function fromMinor(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
