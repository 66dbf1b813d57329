import { decodeCursor, encodeCursor, windowOf } from './connection';
import { AppError } from './errors';

const ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const KEY = '2026-11-24T04:15:46.123456Z';
const field = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).details?.map((d) => d.field);
  }
  return 'no error';
};
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('cursors', () => {
  it('round-trip a position', () => {
    expect(decodeCursor(encodeCursor({ key: KEY, id: ID }), 'after')).toEqual({ key: KEY, id: ID });
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a b+c/'],
    ['not JSON', b64('{')],
    ['an object', b64({ key: KEY, id: ID })],
    ['three items', b64([KEY, ID, 1])],
    ['a number key', b64([1, ID])],
    ['a date without time', b64(['2026-11-24', ID])],
    ['31 February', b64(['2026-02-31T00:00:00.000000Z', ID])],
    ['hour 25', b64(['2026-01-01T25:00:00.000000Z', ID])],
    ['not a uuid', b64([KEY, "1'; drop table x"])],
    ['too long', 'A'.repeat(201)],
  ])('refuse %s, naming the argument', (_what, cursor) => {
    expect(field(() => decodeCursor(cursor, 'before'))).toEqual(['before']);
  });
});

describe('windowOf', () => {
  it('reads forward by default, 20 items', () => {
    expect(windowOf({})).toEqual({ forward: true, size: 20, from: undefined });
  });

  it('reads backward with last/before', () => {
    const before = encodeCursor({ key: KEY, id: ID });
    expect(windowOf({ last: 5, before })).toEqual({ forward: false, size: 5, from: { key: KEY, id: ID } });
  });

  it('refuses mixing directions', () => {
    expect(field(() => windowOf({ first: 2, last: 2 }))).toEqual(['last']);
    expect(field(() => windowOf({ after: encodeCursor({ key: KEY, id: ID }), before: encodeCursor({ key: KEY, id: ID }) }))).toEqual([
      'before',
    ]);
  });
});
