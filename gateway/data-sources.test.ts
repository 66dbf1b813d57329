import { parse } from 'graphql';
import { fieldPaths } from './data-sources';

describe('the paths a failed subgraph fetch leaves empty', () => {
  it('are the root fields of a root fetch, by their response keys', () => {
    const doc = parse('query Q__revenue__0($id: ID!) { invoice(id: $id) { id } other: claims(page: 1, limit: 1) { total } __typename }');
    expect(fieldPaths(doc, { id: 'x' })).toEqual([['invoice'], ['other']]);
  });

  it("are each asked field of each entity of an _entities fetch, following the entity's type", () => {
    const doc = parse(
      `query Q__revenue__1($representations: [_Any!]!) {
        _entities(representations: $representations) {
          ... on Patient { __typename invoices { id } ...More }
          ... on Organization { subscription { id } }
        }
      }
      fragment More on Patient { total: invoices { id } }`,
    );
    const representations = [
      { __typename: 'Patient', id: '1' },
      { __typename: 'Organization', id: '2' },
    ];
    expect(fieldPaths(doc, { representations })).toEqual([
      ['_entities', 0, 'invoices'],
      ['_entities', 0, 'total'],
      ['_entities', 1, 'subscription'],
    ]);
  });

  it('are none without a document', () => {
    expect(fieldPaths(undefined, {})).toEqual([]);
  });
});
