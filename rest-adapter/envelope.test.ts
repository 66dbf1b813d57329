import { describeIssues, errors } from '../shared/errors';
import { userErrorsOf } from '../shared/user-errors';
import { userErrorsAsError } from './envelope';

const ARGS = ['id', 'input'];

describe("a payload's userErrors on REST", () => {
  it('are the error REST answered before payloads: a 400 naming the fields, or a 409 with the message', () => {
    const issues = [
      { field: 'dateOfBirth', message: 'must be a date' },
      { field: 'address.city', message: 'is required' },
      { field: 'id', message: 'is not yours' },
    ];
    const invalid = userErrorsOf(errors.validation(issues), ARGS)!;
    expect(userErrorsAsError(invalid)).toEqual({
      message: describeIssues(issues),
      extensions: { code: 'VALIDATION_ERROR', details: issues },
    });
    const stale = errors.staleVersion('note', 2, 1);
    expect(userErrorsAsError(userErrorsOf(stale, ARGS)!)).toEqual({
      message: stale.message,
      extensions: { code: 'CONFLICT', reason: 'STALE_VERSION' },
    });
  });
});
