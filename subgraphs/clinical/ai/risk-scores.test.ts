import { cha2ds2Vasc, lace, pooledCohort, qsofa, type PooledCohortInput } from './risk-scores';

describe('pooled cohort equations (Goff et al. 2013)', () => {
  /** The guideline's worked example (Table A): 55 years, TC 213, HDL 50, untreated SBP 120, non-smoker, no diabetes. */
  const example: Omit<PooledCohortInput, 'race' | 'sex'> = {
    age: 55,
    totalCholesterol: 213,
    hdlCholesterol: 50,
    systolicBloodPressure: 120,
    treatedForHypertension: false,
    smoker: false,
    diabetes: false,
  };

  it.each([
    ['white', 'female', -29.67, 2.1],
    ['african_american', 'female', 86.16, 3.0],
    ['white', 'male', 60.69, 5.3],
    ['african_american', 'male', 18.97, 6.1],
  ] as const)('Table A: %s %s: individual sum %d, 10-year risk %d%%', (race, sex, sum, percent) => {
    const r = pooledCohort({ ...example, race, sex });
    // The guideline rounds each term before summing; exact arithmetic differs in the second decimal of the sum.
    expect(Math.abs((r.inputs.individualSum as number) - sum)).toBeLessThanOrEqual(0.011);
    expect(Math.abs(r.value - percent)).toBeLessThanOrEqual(0.1 + 1e-9); // one decimal
    expect(r.category).toBe(percent < 5 ? 'low' : 'borderline');
  });

  it('raises risk with smoking, diabetes and treated blood pressure, into the guideline categories', () => {
    const base = { ...example, race: 'white', sex: 'male' } as const;
    const worse = pooledCohort({
      ...base,
      age: 65,
      smoker: true,
      diabetes: true,
      treatedForHypertension: true,
      systolicBloodPressure: 150,
    });
    expect(worse.value).toBeGreaterThan(20);
    expect(worse.category).toBe('high');
    expect(pooledCohort({ ...base, age: 62 }).category).toBe('intermediate');
    expect(pooledCohort({ ...base, race: 'other' }).interpretation).toMatch(/white equations were used/);
    expect(pooledCohort({ ...base, race: 'other' }).value).toBe(pooledCohort(base).value);
  });
});

describe('CHA2DS2-VASc (Lip et al. 2010)', () => {
  const none = { congestiveHeartFailure: false, hypertension: false, diabetes: false, strokeOrTia: false, vascularDisease: false };

  it('scores each risk factor as published', () => {
    expect(cha2ds2Vasc({ ...none, age: 50, sex: 'male' }).value).toBe(0);
    expect(cha2ds2Vasc({ ...none, age: 50, sex: 'female' }).value).toBe(1);
    expect(cha2ds2Vasc({ ...none, age: 65, sex: 'male' }).value).toBe(1);
    expect(cha2ds2Vasc({ ...none, age: 74, sex: 'male' }).value).toBe(1);
    expect(cha2ds2Vasc({ ...none, age: 75, sex: 'male' }).value).toBe(2);
    expect(cha2ds2Vasc({ ...none, age: 50, sex: 'male', strokeOrTia: true }).value).toBe(2);
    expect(
      cha2ds2Vasc({
        age: 80,
        sex: 'female',
        congestiveHeartFailure: true,
        hypertension: true,
        diabetes: true,
        strokeOrTia: true,
        vascularDisease: true,
      }).value,
    ).toBe(9);
  });

  it('worked example: a 72-year-old woman with hypertension and diabetes scores 4 (4.0% per year), anticoagulation recommended', () => {
    const r = cha2ds2Vasc({ ...none, age: 72, sex: 'female', hypertension: true, diabetes: true });
    expect(r.value).toBe(4);
    expect(r.category).toBe('high');
    expect(r.interpretation).toMatch(/4% per year/);
  });

  it('the female point alone is low risk; one other factor is intermediate', () => {
    expect(cha2ds2Vasc({ ...none, age: 50, sex: 'female' }).category).toBe('low');
    expect(cha2ds2Vasc({ ...none, age: 50, sex: 'female', hypertension: true }).category).toBe('intermediate');
    expect(cha2ds2Vasc({ ...none, age: 50, sex: 'male', hypertension: true }).category).toBe('intermediate');
    expect(cha2ds2Vasc({ ...none, age: 66, sex: 'male', hypertension: true }).category).toBe('high');
  });
});

describe('qSOFA (Seymour et al. 2016)', () => {
  it('one point each: respiratory rate 22 or more, systolic 100 or less, altered mentation; 2 or more is high', () => {
    expect(qsofa({ respiratoryRate: 22, systolicBloodPressure: 100, alteredMentation: true })).toMatchObject({
      value: 3,
      category: 'high',
    });
    expect(qsofa({ respiratoryRate: 21, systolicBloodPressure: 101, alteredMentation: false })).toMatchObject({
      value: 0,
      category: 'low',
    });
    expect(qsofa({ respiratoryRate: 24, systolicBloodPressure: 130, alteredMentation: true })).toMatchObject({
      value: 2,
      category: 'high',
    });
    expect(qsofa({ respiratoryRate: 18, systolicBloodPressure: 95, alteredMentation: false })).toMatchObject({ value: 1, category: 'low' });
  });
});

describe('LACE index (van Walraven et al. 2010)', () => {
  const base = { lengthOfStayDays: 0, acuteAdmission: false, charlsonIndex: 0, emergencyVisits: 0 };

  it.each([
    [0.5, 0],
    [1, 1],
    [2, 2],
    [3, 3],
    [4, 4],
    [6, 4],
    [7, 5],
    [13, 5],
    [14, 7],
    [40, 7],
  ])('length of stay %d days scores %d', (days, points) => {
    expect(lace({ ...base, lengthOfStayDays: days }).value).toBe(points);
  });

  it.each([
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 3],
    [4, 5],
    [9, 5],
  ])('Charlson index %d scores %d', (charlson, points) => {
    expect(lace({ ...base, charlsonIndex: charlson }).value).toBe(points);
  });

  it('acuity scores 3 and emergency visits up to 4; the maximum is 19', () => {
    expect(lace({ ...base, acuteAdmission: true }).value).toBe(3);
    expect(lace({ ...base, emergencyVisits: 3 }).value).toBe(3);
    expect(lace({ ...base, emergencyVisits: 9 }).value).toBe(4);
    expect(lace({ lengthOfStayDays: 20, acuteAdmission: true, charlsonIndex: 6, emergencyVisits: 5 }).value).toBe(19);
  });

  it('worked example: 5 days, emergent, Charlson 2, one ED visit = 4 + 3 + 2 + 1 = 10, high risk', () => {
    const r = lace({ lengthOfStayDays: 5, acuteAdmission: true, charlsonIndex: 2, emergencyVisits: 1 });
    expect(r).toMatchObject({ value: 10, category: 'high' });
    expect(r.inputs.points).toEqual({ lengthOfStay: 4, acuity: 3, comorbidity: 2, emergencyVisits: 1 });
  });
});
