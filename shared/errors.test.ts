import { GraphQLError } from 'graphql';
import { isUnreachable, toPublicError, wasRefused } from './errors';

const publicOf = (original: Error) => toPublicError(new GraphQLError(original.message, { originalError: original }), () => undefined);

describe('errors a client sees', () => {
  it.each([
    [
      'an administrator shutdown (57P01)',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a connection failure (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a dropped socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a terminated client', new Error('Connection terminated unexpectedly')],
  ])('answer %s with 503 SERVICE_UNAVAILABLE that says the change may or may not have been saved', (_what, err) => {
    const out = publicOf(err);
    expect(out.extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    expect(out.message).toMatch(/may or may not have been saved.*Idempotency-Key/);
  });

  it('keep a data exception a 400 and anything unknown a 500 without its text', () => {
    expect(publicOf(Object.assign(new Error('invalid input syntax for type uuid: "x"'), { code: '22P02' })).extensions).toEqual({
      code: 'VALIDATION_ERROR',
    });
    const unknown = publicOf(new Error('select * from secrets'));
    expect(unknown).toEqual({ message: 'Internal server error', path: undefined, extensions: { code: 'INTERNAL_ERROR' } });
  });
});

describe('another service not answering', () => {
  const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', type: 'system' });
  const proxy = new GraphQLError('503: Service Unavailable', { extensions: { response: { status: 503 } } });

  it('is told from its own errors: refused, reset, timed out or a proxy 502-504', () => {
    expect([refused, reset, proxy, Object.assign(new Error('t'), { name: 'TimeoutError' })].map(isUnreachable)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(isUnreachable(new Error('Expected "data._entities" to contain 2 elements'))).toBe(false);
    expect(isUnreachable(new GraphQLError('400: Bad Request', { extensions: { response: { status: 400 } } }))).toBe(false);
  });

  it('knows a refused connection never reached the other side, unlike a dropped one', () => {
    expect(wasRefused(refused)).toBe(true);
    expect(wasRefused(reset)).toBe(false);
  });
});
