import { importSummaryOf } from './reportsys.adapter';
import { NOTIFIABLE_DISEASES } from './diseases';
import { ageBandOf, defaultMapping, mappingIssues, parseReportsysMapping } from './reportsys.mapping';

const ORG = '3f2b8a4e-1c7d-4e9a-9b1f-2d3c4e5f6a7b';
const base = {
  dataSet: 'QX4ZTUbOt3a',
  orgUnits: { [ORG]: 'DiszpKrYNg8' },
  ageBands: [{ code: 'under_5', maxYears: 4 }, { code: '5_and_over' }],
  diseases: { cholera: { cases: 'UsSUX0cpKsH', categoryOptionCombos: { under_5: 'Prlt0C1RF0s', '5_and_over': 'V6L425pT3A0' } } },
};
const problems = (mapping: object) => {
  try {
    parseReportsysMapping(JSON.stringify(mapping));
    return '';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('the reporting mapping', () => {
  it('reads a mapping and puts ages in their bands', () => {
    const m = parseReportsysMapping(JSON.stringify(base));
    expect(m.syndromes).toEqual({});
    expect([0, 4, 5, 90, null].map((age) => ageBandOf(m, age))).toEqual(['under_5', 'under_5', '5_and_over', '5_and_over', null]);
  });

  it('says what is wrong, by path', () => {
    expect(problems({ ...base, orgUnits: { 'not-an-id': 'x' } })).toMatch(/^orgUnits\.not-an-id is not an organization id/);
    expect(problems({ ...base, orgUnits: { [ORG]: 'A', '4f2b8a4e-1c7d-4e9a-9b1f-2d3c4e5f6a7b': 'A' } })).toMatch(
      /orgUnits must give each organization its own org unit/,
    );
    expect(
      problems({
        ...base,
        ageBands: [
          { code: 'under_5', maxYears: 4 },
          { code: 'old', maxYears: 120 },
        ],
      }),
    ).toMatch(/ageBands\.1\.maxYears must be absent on the last band/);
    expect(problems({ ...base, ageBands: [{ code: 'a', maxYears: 4 }, { code: 'b', maxYears: 2 }, { code: 'c' }] })).toMatch(
      /ageBands\.1\.maxYears must be above/,
    );
    expect(problems({ ...base, diseases: { gout: { cases: 'x', categoryOptionCombo: 'y' } } })).toMatch(
      /diseases\.gout is not a notifiable disease code/,
    );
    expect(problems({ ...base, diseases: { cholera: { cases: 'x', categoryOptionCombos: { under_5: 'y' } } } })).toMatch(
      /diseases\.cholera\.categoryOptionCombos\.5_and_over is missing/,
    );
    expect(problems({ ...base, diseases: { cholera: { cases: 'x' } } })).toMatch(
      /needs either categoryOptionCombo or categoryOptionCombos/,
    );
    expect(problems({ orgUnits: {} })).toMatch(/^dataSet/);
  });
});

describe('the built-in mapping', () => {
  it("names the organization's org unit by its id, and every notifiable disease's cases and deaths by code", () => {
    const m = defaultMapping(ORG);
    expect(m).toMatchObject({ idScheme: 'code', orgUnit: ORG, dataSet: 'NOTIFIABLE_DISEASES', ageBands: [] });
    expect(Object.keys(m.diseases)).toHaveLength(NOTIFIABLE_DISEASES.length);
    expect(m.diseases.cholera).toEqual({ cases: 'CHOLERA_CASES', deaths: 'CHOLERA_DEATHS', categoryOptionCombo: 'HllvX50cXC0' });
    expect(m.syndromes.ili).toEqual({ dataElement: 'SYNDROME_ILI', categoryOptionCombo: 'HllvX50cXC0' });
    expect(mappingIssues(m)).toEqual([]);
  });
});

describe('DHIS2 import summaries', () => {
  const summary = {
    responseType: 'ImportSummary',
    status: 'WARNING',
    importCount: { imported: 3, updated: 1, ignored: 1, deleted: 0 },
    conflicts: [{ object: 'fbfJHSPpUQD', value: 'Data element not found or not accessible: `fbfJHSPpUQD`', errorCode: 'E7610' }],
  };

  it('reads the summary wrapped in a WebMessage (DHIS2 2.38 and later) and bare (earlier)', () => {
    const wrapped = importSummaryOf({ httpStatus: 'Conflict', httpStatusCode: 409, status: 'WARNING', response: summary });
    const bare = importSummaryOf(summary);
    for (const s of [wrapped, bare]) {
      expect(s).toMatchObject({
        status: 'WARNING',
        importCount: { imported: 3, updated: 1, ignored: 1, deleted: 0 },
        conflicts: [{ object: 'fbfJHSPpUQD', errorCode: 'E7610' }],
      });
    }
    expect(importSummaryOf({ responseType: 'ImportSummary', status: 'SUCCESS', conflicts: [{ object: 'x', value: 'y' }] })).toMatchObject({
      importCount: { imported: 0, updated: 0, ignored: 0, deleted: 0 },
      conflicts: [{ object: 'x', value: 'y', errorCode: null }],
    });
  });

  it('finds none in other answers', () => {
    expect(importSummaryOf(null)).toBeNull();
    expect(importSummaryOf({ httpStatus: 'Unauthorized' })).toBeNull();
    expect(importSummaryOf({ response: { responseType: 'ObjectReport' } })).toBeNull();
  });
});
