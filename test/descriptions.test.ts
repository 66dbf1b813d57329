import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coverageOfSdl, MISSING_LIST } from '../scripts/schema-descriptions';
import { SCHEMA_DIR } from '../shared/paths';

/**
 * Every public type, enum, root field and root argument has a description (docs/graphql.md). The ones missing from
 * before this rule are listed in schema/descriptions-missing.txt: a new gap fails, and so does a listed one that now
 * has its description (remove its line, or rewrite the list with `npm run descriptions -- --write`).
 */
const LIST = join(SCHEMA_DIR, MISSING_LIST);
const listed = () =>
  readFileSync(LIST, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

describe('descriptions in the public schema', () => {
  it('has one on every type, enum, root field and root argument but the listed old gaps', () => {
    const { required } = coverageOfSdl(readFileSync(join(SCHEMA_DIR, 'public.graphql'), 'utf8'));
    const known = new Set(listed());
    const added = required.filter((r) => !known.has(r));
    const stale = [...known].filter((r) => !required.includes(r));
    expect({ withoutDescription: added, describedNowRemoveFromList: stale }).toEqual({
      withoutDescription: [],
      describedNowRemoveFromList: [],
    });
  });
});
