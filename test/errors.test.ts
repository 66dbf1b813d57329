import { GraphQLError } from 'graphql';
import { AppError, errors, issuesFromClassValidator, toPublicError } from '../shared/errors';

describe('toPublicError', () => {
  const logged: unknown[] = [];
  const log = (err: unknown) => void logged.push(err);

  it('passes errors from the closed list through with their details', () => {
    const err = new GraphQLError('x', { originalError: errors.validation([{ field: 'dateOfBirth', message: 'is bad' }]) });
    const out = toPublicError(errors.validation([{ field: 'dateOfBirth', message: 'is bad' }]), log);
    expect(out.extensions).toEqual({ code: 'VALIDATION_ERROR', details: [{ field: 'dateOfBirth', message: 'is bad' }] });
    expect(err.originalError).toBeInstanceOf(AppError);
  });

  it('hides the message of anything unexpected and logs it', () => {
    const original = new Error('duplicate key value violates unique constraint "users_pkey" (select * from org.users)');
    const out = toPublicError(new GraphQLError(original.message, { originalError: original }), log);
    expect(out).toEqual({ message: 'Internal server error', path: undefined, extensions: { code: 'INTERNAL_ERROR' } });
    expect(logged).toContain(original);
  });

  it('turns a unique violation the service did not foresee into CONFLICT, reason DUPLICATE', () => {
    const original = Object.assign(new Error('duplicate key'), { name: 'UniqueConstraintViolationException' });
    const out = toPublicError(new GraphQLError(original.message, { originalError: original }), log);
    expect(out.extensions).toEqual({ code: 'CONFLICT', reason: 'DUPLICATE' });
    expect(out.message).not.toMatch(/duplicate key/);
  });
});

describe('issuesFromClassValidator', () => {
  it('names nested fields and drops the property name from the message', () => {
    const issues = issuesFromClassValidator([
      { property: 'email', constraints: { isEmail: 'email must be an email' } },
      { property: 'items', children: [{ property: '0', children: [{ property: 'unitPrice', constraints: { m: 'must be money' } }] }] },
    ]);
    expect(issues).toEqual([
      { field: 'email', message: 'must be an email' },
      { field: 'items.0.unitPrice', message: 'must be money' },
    ]);
  });
});
