import { IsEmail, Matches, MaxLength, ValidateBy, buildMessage, isISO31661Alpha2, type ValidationOptions } from 'class-validator';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { clock } from './clock';
import { CALENDAR_DATE_MESSAGE } from './scalars';

// Modules take every field rule from this file; the money ones are defined in money.ts, beside the currency table.
export { IsCurrency, IsMoney } from './money';

/**
 * Field rules shared by every module's input types. Messages leave the field name out: the error names the field
 * in the caller's own spelling (camelCase in GraphQL, snake_case in REST).
 */
export function IsText(max = 200, options?: ValidationOptions): PropertyDecorator {
  return (target, key) => {
    Matches(/\S/, { message: 'must not be blank', ...options })(target, key);
    MaxLength(max, { message: `must be at most ${max} characters`, ...options })(target, key);
  };
}

export function IsEmailAddress(): PropertyDecorator {
  return (target, key) => {
    IsEmail({}, { message: 'must be a valid email address' })(target, key);
    MaxLength(254, { message: 'must be at most 254 characters' })(target, key);
  };
}

/** E.164: a leading `+`, country code, 7 to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A phone number that exists in its country's numbering plan, written exactly as E.164 (`+254712345678`: no spaces,
 * no trunk 0 after the country code), so one number is stored one way. The full ("max") metadata of libphonenumber-js
 * checks the prefixes; its default metadata checks lengths only and takes numbers such as +254131234567 or
 * +233301234567 that no network assigns.
 */
export function IsPhone(): PropertyDecorator {
  return ValidateBy({
    name: 'isPhone',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string' || !E164.test(value)) return false;
        const parsed = parsePhoneNumberFromString(value);
        return !!parsed && parsed.isValid() && parsed.number === value;
      },
      defaultMessage: () => 'must be in international format, for example +254712345678',
    },
  });
}

/** A real calendar date written `YYYY-MM-DD`; `notFuture` rejects dates after today (UTC). */
export function IsCalendarDate(opts: { notFuture?: boolean } = {}, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
          const d = new Date(`${value}T00:00:00Z`);
          if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return false;
          return !opts.notFuture || value <= new Date().toISOString().slice(0, 10);
        },
        defaultMessage: buildMessage(() => `${CALENDAR_DATE_MESSAGE}${opts.notFuture ? ', not in the future' : ''}`, options),
      },
    },
    options,
  );
}

/** One of a fixed list of strings; with `ignoreCase` the service is expected to store the canonical spelling. */
export function IsOneOf(values: readonly string[], opts: { ignoreCase?: boolean } = {}, options?: ValidationOptions): PropertyDecorator {
  const accepted = opts.ignoreCase ? values.map((v) => v.toLowerCase()) : values;
  return ValidateBy(
    {
      name: 'isOneOf',
      constraints: [values],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && accepted.includes(opts.ignoreCase ? value.toLowerCase() : value),
        defaultMessage: buildMessage((each) => `${each ? 'must only contain' : 'must be one of'}: ${values.join(', ')}`, options),
      },
    },
    options,
  );
}

/** ISO 3166-1 alpha-2 country code, upper case (stored and compared as sent): `ZZ`, `XK` and `ke` are refused. */
export function IsCountryCode(): PropertyDecorator {
  return ValidateBy({
    name: 'isCountryCode',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isISO31661Alpha2(value),
      defaultMessage: () => 'must be an ISO 3166-1 alpha-2 country code such as KE',
    },
  });
}

/** A password the platform accepts: 8 to 128 characters with at least one letter and one digit. */
export function IsStrongPassword(): PropertyDecorator {
  return (target, key) => {
    Matches(/^(?=.*[A-Za-z])(?=.*\d)[\s\S]{8,128}$/, {
      message: 'must be 8 to 128 characters and contain at least one letter and one digit',
    })(target, key);
  };
}

/** A finite number from `min` to `max` inclusive; the message names the unit ("must be between 20 and 300 /min"). */
export function IsInRange(min: number, max: number, unit?: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isInRange',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max,
        defaultMessage: buildMessage(() => `must be between ${min} and ${max}${unit ? ` ${unit}` : ''}`, options),
      },
    },
    options,
  );
}

/** Clocks of devices and of the server differ by a little; a time this far ahead still counts as now. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** A moment that has happened (a measurement, an observation): not in the future, beyond CLOCK_SKEW_MS. */
export function IsNotFuture(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotFuture',
      validator: {
        validate: (value: unknown) =>
          value instanceof Date && !Number.isNaN(value.getTime()) && value.getTime() <= clock.nowMs() + CLOCK_SKEW_MS,
        defaultMessage: buildMessage(() => 'must not be in the future', options),
      },
    },
    options,
  );
}
