import { IsEmail, Matches, MaxLength, ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { clock } from './clock';
import { MONEY } from './money';

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

export function IsPhone(): PropertyDecorator {
  return Matches(E164, { message: 'must be in international format, for example +254712345678' });
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
        defaultMessage: buildMessage(
          () => `must be a date in YYYY-MM-DD format${opts.notFuture ? ', not in the future' : ''}`,
          options,
        ),
      },
    },
    options,
  );
}

/** One of a fixed list of strings; with `ignoreCase` the service is expected to store the canonical spelling. */
export function IsOneOf(
  values: readonly string[],
  opts: { ignoreCase?: boolean } = {},
  options?: ValidationOptions,
): PropertyDecorator {
  const accepted = opts.ignoreCase ? values.map((v) => v.toLowerCase()) : values;
  return ValidateBy(
    {
      name: 'isOneOf',
      constraints: [values],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && accepted.includes(opts.ignoreCase ? value.toLowerCase() : value),
        defaultMessage: buildMessage(
          (each) => `${each ? 'must only contain' : 'must be one of'}: ${values.join(', ')}`,
          options,
        ),
      },
    },
    options,
  );
}

/** ISO 3166-1 alpha-2 country code, upper case. */
export function IsCountryCode(): PropertyDecorator {
  return Matches(/^[A-Z]{2}$/, { message: 'must be a two-letter country code such as KE' });
}

/** A password the platform accepts: 8 to 128 characters with at least one letter and one digit. */
export function IsStrongPassword(): PropertyDecorator {
  return (target, key) => {
    Matches(/^(?=.*[A-Za-z])(?=.*\d)[\s\S]{8,128}$/, {
      message: 'must be 8 to 128 characters and contain at least one letter and one digit',
    })(target, key);
  };
}

/** A non-negative amount with at most two decimals, as a string ("125.50"). */
export function IsMoney(): PropertyDecorator {
  return ValidateBy({
    name: 'isMoney',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && MONEY.test(value),
      defaultMessage: () => 'must be a non-negative amount with at most two decimals, such as "125.50"',
    },
  });
}

/** ISO 4217 currency code, upper case. */
export function IsCurrency(): PropertyDecorator {
  return Matches(/^[A-Z]{3}$/, { message: 'must be a three-letter currency code such as KES' });
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
        validate: (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime()) && value.getTime() <= clock.nowMs() + CLOCK_SKEW_MS,
        defaultMessage: buildMessage(() => 'must not be in the future', options),
      },
    },
    options,
  );
}
