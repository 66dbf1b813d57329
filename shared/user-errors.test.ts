import { errors } from './errors';
import { userErrorsOf } from './user-errors';

const ARGS = ['id', 'input'];

describe('expected failures as userErrors', () => {
  it('turns each field issue into an INVALID error under input, or under the argument it names', () => {
    const error = errors.validation([
      { field: 'dateOfBirth', message: 'must be a date' },
      { field: 'address.city', message: 'is required' },
      { field: 'id', message: 'is not yours' },
    ]);
    expect(userErrorsOf(error, ARGS)).toEqual([
      { field: ['input', 'dateOfBirth'], message: 'must be a date', code: 'INVALID' },
      { field: ['input', 'address', 'city'], message: 'is required', code: 'INVALID' },
      { field: ['id'], message: 'is not yours', code: 'INVALID' },
    ]);
    // A mutation without `input` (arguments only) names its arguments as they are.
    expect(userErrorsOf(errors.invalidField('code', 'is wrong'), ['code'])).toEqual([
      { field: ['code'], message: 'is wrong', code: 'INVALID' },
    ]);
  });

  it('gives a CONFLICT its reason as the code, BUSINESS_RULE by default, and a unique index DUPLICATE', () => {
    expect(userErrorsOf(errors.staleVersion('record', 3, 2), ARGS)).toEqual([
      { field: null, message: 'The record is at version 3, not 2; reload it and try again', code: 'STALE_VERSION' },
    ]);
    expect(userErrorsOf(errors.conflict('Out of stock'), ARGS)).toEqual([{ field: null, message: 'Out of stock', code: 'BUSINESS_RULE' }]);
    expect(userErrorsOf(errors.illegalTransition('Cannot edit', 'signed', 'edit'), ARGS)?.[0].code).toBe('ILLEGAL_TRANSITION');
    const unique = Object.assign(new Error('duplicate key value violates unique constraint'), {
      name: 'UniqueConstraintViolationException',
    });
    expect(userErrorsOf(unique, ARGS)).toEqual([{ field: null, message: 'A record with these values already exists', code: 'DUPLICATE' }]);
  });

  it('leaves everything else a top-level error', () => {
    for (const error of [errors.unauthorized(), errors.forbidden(), errors.notFound('Note'), errors.rateLimited(5), new Error('boom')]) {
      expect(userErrorsOf(error, ARGS)).toBeNull();
    }
  });
});
