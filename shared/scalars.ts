import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/**
 * Scalars for values that are not instants (those are `DateTimeISO`): a calendar date and a time of day. Both travel
 * as the strings the REST wire already uses, so REST clients see no change; GraphQL clients get a type that says
 * what the string is. Invalid values are a VALIDATION_ERROR naming what was expected.
 */
/** What a REST client reads when a date field is not a date (the same words as `IsCalendarDate`). */
export const CALENDAR_DATE_MESSAGE = 'must be a date in YYYY-MM-DD format';

const invalid = (message: string) => new GraphQLError(message, { extensions: { code: 'VALIDATION_ERROR' } });

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

function stringScalar(name: string, description: string, valid: (v: string) => boolean, expected: string) {
  const parse = (value: unknown): string => {
    if (typeof value !== 'string' || !valid(value)) throw invalid(`${name} must be ${expected}`);
    return value;
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    serialize: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)),
    parseValue: parse,
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw invalid(`${name} must be ${expected}`);
      return parse(ast.value);
    },
  });
}

/** A calendar date, `YYYY-MM-DD` (a birth date, a leave day, a roster's first day). */
export const LocalDate = stringScalar(
  'LocalDate',
  'A calendar date without a time zone, `YYYY-MM-DD`',
  isCalendarDate,
  'a date written YYYY-MM-DD',
);

/** A time of day, `HH:MM` in 24 hours (a shift's start, a clinic's opening hour). */
export const LocalTime = stringScalar(
  'LocalTime',
  'A time of day without a date or time zone, `HH:MM` (24 hours)',
  (v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v),
  'a time of day written HH:MM',
);
