import {
  blockingKeys,
  classify,
  compare,
  compareBirthDates,
  matchParameters,
  normalizeName,
  normalizePhone,
  possibleTwins,
  toMatchRecord,
  type RawDemographics,
} from './matcher';

const params = matchParameters();
const amina: RawDemographics = {
  firstName: 'Amina',
  lastName: 'Odhiambo',
  dateOfBirth: '1988-06-15',
  gender: 'female',
  phone: '+254712345678',
  nationalId: '12345678',
  nationalIdCountry: 'KE',
};
const rec = (d: Partial<RawDemographics> = {}) => toMatchRecord({ ...amina, ...d });
const score = (a: Partial<RawDemographics>, b: Partial<RawDemographics>) => compare(rec(a), rec(b), params);

describe('matcher', () => {
  it('normalizes names, phones and national ids', () => {
    expect(normalizeName("  N'Diaye-Sarr  ")).toBe('ndiaye sarr');
    expect(normalizeName('Zoë  Ngozí')).toBe('zoe ngozi');
    expect(normalizePhone('0712 345 678', 'KE')).toBe('+254712345678');
    expect(normalizePhone('+254 712-345-678')).toBe('+254712345678');
    expect(normalizePhone('+254 100')).toBeNull();
    expect(rec({ nationalId: 'gha-123456789-0', nationalIdCountry: 'GH' }).nationalId).toBe('GHA1234567890');
  });

  it('scores identical records 1 and wholly different ones 0, in [0, 1], with contributions adding up to the score', () => {
    const same = score({}, {});
    expect(same.score).toBe(1);
    const other = score(
      {},
      { firstName: 'Kwame', lastName: 'Mensah', dateOfBirth: '1950-01-02', gender: 'male', phone: '+233241234567', nationalId: '87654321' },
    );
    expect(other.score).toBe(0);
    const some = score({}, { firstName: 'Amna', phone: null });
    expect(some.score).toBeGreaterThan(0);
    expect(some.score).toBeLessThan(1);
    const sum = some.fields.reduce((s, f) => s + f.contribution, 0);
    expect(Math.abs(sum - some.score)).toBeLessThan(0.001);
    expect(some.fields.find((f) => f.field === 'givenName')).toMatchObject({ outcome: 'partial', similarity: expect.any(Number) });
    expect(some.fields.find((f) => f.field === 'phone')).toMatchObject({ outcome: 'missing', weight: 0 });
  });

  it('ranks a typo in the given name above a different given name, and both above a stranger', () => {
    const base = { phone: null, nationalId: null };
    const typo = score(base, { ...base, firstName: 'Amna' }).score;
    const differentGiven = score(base, { ...base, firstName: 'Aisha' }).score;
    const stranger = score(base, { ...base, firstName: 'Kwame', lastName: 'Mensah', dateOfBirth: '1950-01-02', gender: 'male' }).score;
    expect(typo).toBeGreaterThan(differentGiven);
    expect(differentGiven).toBeGreaterThan(stranger);
    expect(classify(typo, params)).toBe('review');
    expect(classify(stranger, params)).toBe('none');
  });

  it('classifies an exact match with an agreeing phone for auto-linking', () => {
    const s = score({ nationalId: null }, { nationalId: null }).score;
    expect(classify(s, params)).toBe('auto_link');
  });

  it('treats swapped day and month, one mistyped digit and a year off by one as partial agreement', () => {
    expect(compareBirthDates('1988-06-11', '1988-11-06').outcome).toBe('partial');
    expect(compareBirthDates('1988-06-15', '1988-06-16').outcome).toBe('partial');
    expect(compareBirthDates('1988-06-15', '1988-06-51').outcome).toBe('partial');
    expect(compareBirthDates('1988-06-15', '1989-06-15').outcome).toBe('partial');
    expect(compareBirthDates('1988-06-15', '1972-03-01').outcome).toBe('disagree');
  });

  it('recognizes given and family names written the other way round', () => {
    const c = score({}, { firstName: 'Odhiambo', lastName: 'Amina' });
    expect(c.namesSwapped).toBe(true);
    expect(c.score).toBeGreaterThan(0.8);
  });

  it('ignores national ids issued by different countries', () => {
    const c = score({}, { nationalIdCountry: 'UG' });
    expect(c.fields.find((f) => f.field === 'nationalId')!.outcome).toBe('missing');
  });

  it('flags possible twins: same birth date and family name, different given names, no shared national id', () => {
    expect(possibleTwins(rec({ nationalId: null }), rec({ firstName: 'Aisha', nationalId: null }))).toBe(true);
    expect(possibleTwins(rec(), rec({ firstName: 'Amna' }))).toBe(false);
    expect(possibleTwins(rec({ nationalId: null }), rec({ nationalId: null }))).toBe(false);
  });

  it('gives records that should meet a shared blocking key, including a transposed birth date', () => {
    const shared = (a: Partial<RawDemographics>, b: Partial<RawDemographics>) => {
      const stored = new Set(blockingKeys(rec(b)));
      return blockingKeys(rec(a), true).some((k) => stored.has(k));
    };
    expect(shared({}, { firstName: 'Amna', phone: null, nationalId: null })).toBe(true);
    expect(
      shared(
        { phone: null, nationalId: null, dateOfBirth: '1988-06-11' },
        { firstName: 'Amna', lastName: 'Odiambo', phone: null, nationalId: null, dateOfBirth: '1988-11-06' },
      ),
    ).toBe(true);
    expect(
      shared(
        { phone: null, nationalId: null },
        { firstName: 'Kwame', lastName: 'Mensah', dateOfBirth: '1950-01-02', phone: null, nationalId: null },
      ),
    ).toBe(false);
  });

  it('refuses thresholds out of order', () => {
    expect(() => matchParameters({ autoLink: 0.5, review: 0.6 })).toThrow(/thresholds/);
  });
});
