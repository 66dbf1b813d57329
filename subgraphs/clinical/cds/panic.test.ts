import { beyondPanicLimit } from '../labs/lab-data';
import { PANIC_LIMITS, checkPanic } from './panic';

describe('panic values', () => {
  it('flags values beyond the shipped limits, with their direction', () => {
    expect(checkPanic({ code: '2823-3', value: 6.8, unit: 'mmol/L' })).toMatchObject({
      critical: true,
      direction: 'high',
      name: 'Potassium',
      high: 6.2,
    });
    expect(checkPanic({ code: '2823-3', value: 2.5, unit: 'mmol/L' })).toMatchObject({ critical: true, direction: 'low', low: 2.8 });
    expect(checkPanic({ code: '2823-3', value: 4.1, unit: 'mmol/L' })).toMatchObject({ critical: false, direction: null, known: true });
    // Limits are exclusive: a value on the limit is not beyond it.
    expect(checkPanic({ code: '2823-3', value: 6.2, unit: 'mmol/L' }).critical).toBe(false);
    expect(checkPanic({ name: 'hemoglobin', value: 6.1, unit: 'g/dL' })).toMatchObject({ critical: true, direction: 'low', code: '718-7' });
    expect(checkPanic({ code: '2524-7', value: 0.1, unit: 'mmol/L' }).critical).toBe(false); // lactate has no low limit
  });

  it('never converts units and says so', () => {
    const f = checkPanic({ code: '2823-3', value: 9, unit: 'mg/dL' });
    expect(f).toMatchObject({ critical: false, known: false });
    expect(f.message).toMatch(/mmol\/L/);
    expect(checkPanic({ code: '9999-9', value: 1, unit: 'x' })).toMatchObject({
      known: false,
      message: expect.stringMatching(/not checked/),
    });
  });

  it('agrees with the labs module on every shipped limit', () => {
    for (const l of PANIC_LIMITS) {
      for (const v of [l.low, l.high].filter((x): x is number => x !== null).flatMap((x) => [x - 0.01, x, x + 0.01])) {
        expect({ loinc: l.loinc, v, critical: checkPanic({ code: l.loinc, value: v, unit: l.unit }).critical }).toEqual({
          loinc: l.loinc,
          v,
          critical: beyondPanicLimit(l.loinc, l.unit, v),
        });
      }
    }
  });
});
