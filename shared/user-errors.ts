import type { GraphQLError } from 'graphql';
import { Directive, Field, Mutation, ObjectType, registerEnumType, UseMiddleware, type ClassType, type MiddlewareFn } from 'type-graphql';
import { CONFLICT_REASONS, DUPLICATE_VALUES_MESSAGE, isUniqueViolation, type ConflictReason, type FieldIssue } from './errors';

/**
 * Expected failures as data (docs/graphql.md, "Expected failures: userErrors"): a mutation whose failures the user
 * can fix answers a payload `XPayload { <record>: X, userErrors: [UserError!]! }`. A field rule broken
 * (VALIDATION_ERROR) is an `INVALID` user error per field, a CONFLICT one with its reason as the code, and the
 * record is then null. Everything else (no token, no permission, a missing record, limits, a fault) stays a
 * top-level error.
 */

export type UserErrorCode = 'INVALID' | ConflictReason;

/** The codes, as a GraphQL enum: INVALID and every CONFLICT reason of shared/errors.ts. */
export const UserErrorCode = Object.fromEntries(['INVALID', ...CONFLICT_REASONS].map((c) => [c, c])) as {
  [C in UserErrorCode]: C;
};

registerEnumType(UserErrorCode, {
  name: 'UserErrorCode',
  description: 'Why a mutation refused its input, for a client to branch on',
  valuesConfig: {
    INVALID: { description: 'A field breaks a rule (missing, too long, not one of the allowed values ...): see `message`' },
    ILLEGAL_TRANSITION: { description: "The record's state does not allow this action" },
    DUPLICATE: { description: 'A record with these values already exists' },
    STALE_VERSION: { description: "`expectedVersion` is not the record's current version: reload it and try again" },
    BUSINESS_RULE: { description: "Another rule of the record's current state (a time taken, stock, capacity ...)" },
  },
});

@ObjectType({ description: 'A failure the user can fix, shown next to the input field it names' })
@Directive('@shareable')
export class UserError {
  @Field(() => [String], {
    nullable: true,
    description: 'Path of the input field at fault (`["input", "dateOfBirth"]`); null when the error is about the whole input',
  })
  field!: string[] | null;

  @Field(() => String, { description: 'What is wrong, for the user' })
  message!: string;

  @Field(() => UserErrorCode, { description: 'INVALID for a field rule, otherwise the reason of the conflict' })
  code!: UserErrorCode;
}

export type Payload<K extends string, T> = { [P in K]: T | null } & { userErrors: UserError[] };

const RECORD_FIELD = Symbol('record field');

/**
 * A mutation payload: the record under `field` (null when there are user errors) and `userErrors`. Used like
 * `ConnectionOf`: `@ObjectType({ description }) export class UpdateClinicalRecordPayload extends
 * PayloadOf(ClinicalRecord, 'clinicalRecord') {}`, answered by a `@PayloadMutation`.
 */
export function PayloadOf<T extends object, K extends string>(item: ClassType<T>, field: K) {
  @ObjectType()
  abstract class PayloadType {
    static readonly [RECORD_FIELD] = field;
  }
  // Declared here, in this order, since the record's field is named by the caller.
  Field(() => item, { nullable: true, description: 'The record; null when `userErrors` is not empty' })(PayloadType.prototype, field);
  Field(() => [UserError], { description: 'What the user must fix; empty when the mutation succeeded' })(
    PayloadType.prototype,
    'userErrors',
  );
  return PayloadType as unknown as ClassType<Payload<K, T>> & { [RECORD_FIELD]: K };
}

/**
 * The user errors an error stands for, or null when it is not an expected failure. Issue fields are dotted paths
 * in the input (`dateOfBirth`, `address.city`) or name an argument (`id`); `argumentNames` are the mutation's.
 */
export function userErrorsOf(error: unknown, argumentNames: readonly string[]): UserError[] | null {
  if (isUniqueViolation(error)) return [{ field: null, message: DUPLICATE_VALUES_MESSAGE, code: 'DUPLICATE' }];
  const extensions = (error as Partial<GraphQLError> | null)?.extensions;
  const message = String((error as Error | null)?.message ?? '');
  if (extensions?.code === 'CONFLICT') {
    const reason = extensions.reason as ConflictReason | undefined;
    return [{ field: null, message, code: reason && CONFLICT_REASONS.includes(reason) ? reason : 'BUSINESS_RULE' }];
  }
  if (extensions?.code !== 'VALIDATION_ERROR') return null;
  const issues = extensions.details as FieldIssue[] | undefined;
  if (!issues?.length) return [{ field: null, message, code: 'INVALID' }];
  const underInput = argumentNames.includes('input');
  return issues.map((issue) => {
    const path = issue.field.split('.');
    const field = argumentNames.includes(path[0]) || !underInput ? path : ['input', ...path];
    return { field, message: issue.message, code: 'INVALID' as const };
  });
}

/** Runs the resolver (its input checks included) and answers its record, or the user errors it failed with. */
function expectedFailures(recordField: string): MiddlewareFn {
  return async ({ info }, next) => {
    try {
      return { [recordField]: await next(), userErrors: [] };
    } catch (error) {
      const args = info.parentType.getFields()[info.fieldName].args.map((a) => a.name);
      const userErrors = userErrorsOf(error, args);
      if (!userErrors) throw error;
      return { [recordField]: null, userErrors };
    }
  };
}

/**
 * A mutation answering `payload` (a `PayloadOf` class): the method returns the record, as any other mutation, and
 * its expected failures (its input's rules included) become the payload's `userErrors`.
 */
export function PayloadMutation(
  payload: ClassType<object> & { [RECORD_FIELD]: string },
  options: Parameters<typeof Mutation>[1] & object,
): MethodDecorator {
  const mutation = Mutation(() => payload, options);
  const middleware = UseMiddleware(expectedFailures(payload[RECORD_FIELD]));
  return (target, key, descriptor) => {
    mutation(target, key, descriptor as never);
    middleware(target, key, descriptor as never);
  };
}
