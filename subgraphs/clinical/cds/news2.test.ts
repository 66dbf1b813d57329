import { news2, news2OfRecord, riskOf, type News2Input, type News2Parameter } from './news2';

/** A patient scoring 0 on every parameter of the chart. */
const NORMAL: News2Input = {
  respiratoryRate: 16,
  oxygenSaturation: 97,
  spo2Scale: 1,
  supplementalOxygen: false,
  systolicBloodPressure: 120,
  heartRate: 70,
  consciousness: 'alert',
  temperature: 37.0,
};

const scoreOf = (input: Partial<News2Input>, parameter: News2Parameter) =>
  news2({ ...NORMAL, ...input }).parameters.find((p) => p.parameter === parameter)!.score;

/** Every band of chart 1, at both of its edges (RCP 2017). */
describe('NEWS2 chart 1: each parameter band', () => {
  it.each([
    [3, 3],
    [8, 3],
    [9, 1],
    [11, 1],
    [12, 0],
    [20, 0],
    [21, 2],
    [24, 2],
    [25, 3],
    [40, 3],
  ])('respiration rate %d per minute scores %d', (value, expected) => {
    expect(scoreOf({ respiratoryRate: value }, 'respiratoryRate')).toBe(expected);
  });

  it.each([
    [85, 3],
    [91, 3],
    [92, 2],
    [93, 2],
    [94, 1],
    [95, 1],
    [96, 0],
    [100, 0],
  ])('SpO2 scale 1: %d%% scores %d', (value, expected) => {
    expect(scoreOf({ oxygenSaturation: value }, 'oxygenSaturation')).toBe(expected);
    // Scale 1 does not depend on oxygen (oxygen scores separately).
    expect(scoreOf({ oxygenSaturation: value, supplementalOxygen: true }, 'oxygenSaturation')).toBe(expected);
  });

  it.each([
    [80, false, 3],
    [83, true, 3],
    [84, false, 2],
    [85, true, 2],
    [86, false, 1],
    [87, true, 1],
    [88, false, 0],
    [92, true, 0],
    [92, false, 0],
    [93, false, 0],
    [100, false, 0],
    [93, true, 1],
    [94, true, 1],
    [95, true, 2],
    [96, true, 2],
    [97, true, 3],
    [100, true, 3],
  ])('SpO2 scale 2: %d%% (on oxygen: %s) scores %d', (value, onOxygen, expected) => {
    expect(scoreOf({ oxygenSaturation: value, spo2Scale: 2, supplementalOxygen: onOxygen }, 'oxygenSaturation')).toBe(expected);
  });

  it('air scores 0 and oxygen 2', () => {
    expect(scoreOf({ supplementalOxygen: false }, 'supplementalOxygen')).toBe(0);
    expect(scoreOf({ supplementalOxygen: true }, 'supplementalOxygen')).toBe(2);
  });

  it.each([
    [70, 3],
    [90, 3],
    [91, 2],
    [100, 2],
    [101, 1],
    [110, 1],
    [111, 0],
    [219, 0],
    [220, 3],
    [250, 3],
  ])('systolic blood pressure %d mmHg scores %d', (value, expected) => {
    expect(scoreOf({ systolicBloodPressure: value }, 'systolicBloodPressure')).toBe(expected);
  });

  it.each([
    [30, 3],
    [40, 3],
    [41, 1],
    [50, 1],
    [51, 0],
    [90, 0],
    [91, 1],
    [110, 1],
    [111, 2],
    [130, 2],
    [131, 3],
    [180, 3],
  ])('pulse %d per minute scores %d', (value, expected) => {
    expect(scoreOf({ heartRate: value }, 'heartRate')).toBe(expected);
  });

  it.each([
    ['alert', 0],
    ['new_confusion', 3],
    ['voice', 3],
    ['pain', 3],
    ['unresponsive', 3],
  ] as const)('consciousness %s scores %d', (value, expected) => {
    expect(scoreOf({ consciousness: value }, 'consciousness')).toBe(expected);
  });

  it.each([
    [34.0, 3],
    [35.0, 3],
    [35.1, 1],
    [36.0, 1],
    [36.1, 0],
    [38.0, 0],
    [38.1, 1],
    [39.0, 1],
    [39.1, 2],
    [41.0, 2],
  ])('temperature %d °C scores %d', (value, expected) => {
    expect(scoreOf({ temperature: value }, 'temperature')).toBe(expected);
  });

  it('reads values as the chart does: whole numbers, temperature in tenths', () => {
    expect(scoreOf({ respiratoryRate: 20.4 }, 'respiratoryRate')).toBe(0);
    expect(scoreOf({ respiratoryRate: 20.5 }, 'respiratoryRate')).toBe(2);
    expect(scoreOf({ temperature: 36.04 }, 'temperature')).toBe(1);
    expect(scoreOf({ temperature: 36.05 }, 'temperature')).toBe(0);
  });
});

describe('NEWS2 charts 2 and 4: thresholds, triggers and response', () => {
  it('scores a patient with normal observations 0: low, 12-hourly monitoring', () => {
    const r = news2(NORMAL);
    expect(r).toMatchObject({ total: 0, risk: 'low', redScore: false, monitoringFrequency: 'Minimum 12-hourly' });
    expect(r.parameters).toHaveLength(7);
  });

  it('an aggregate of 1-4 is low, with 4-6-hourly monitoring', () => {
    const r = news2({ ...NORMAL, heartRate: 95, temperature: 38.5 }); // 1 + 1
    expect(r).toMatchObject({ total: 2, risk: 'low', monitoringFrequency: 'Minimum 4-6-hourly' });
  });

  it('a 3 in any single parameter is low-medium (red score), with hourly monitoring', () => {
    const r = news2({ ...NORMAL, consciousness: 'new_confusion' });
    expect(r).toMatchObject({ total: 3, risk: 'low_medium', redScore: true, monitoringFrequency: 'Minimum 1-hourly' });
    expect(r.response).toMatch(/inform the medical team/);
  });

  it('an aggregate of 5-6 is medium (urgent response), 7 or more high (emergency response)', () => {
    const medium = news2({ ...NORMAL, respiratoryRate: 22, supplementalOxygen: true, heartRate: 95 }); // 2 + 2 + 1
    expect(medium).toMatchObject({ total: 5, risk: 'medium' });
    expect(medium.response).toMatch(/urgent assessment/);
    const high = news2({
      ...NORMAL,
      respiratoryRate: 26,
      oxygenSaturation: 92,
      supplementalOxygen: true,
      heartRate: 115,
      temperature: 38.4,
    });
    // 3 + 2 + 2 + 0 + 2 + 0 + 1
    expect(high).toMatchObject({ total: 10, risk: 'high', monitoringFrequency: 'Continuous monitoring of vital signs' });
    expect(high.response).toMatch(/critical care competencies/);
  });

  it('worked example: a confused septic patient on oxygen', () => {
    // RR 24 (2), SpO2 95% scale 1 (1), oxygen (2), SBP 98 (2), pulse 118 (2), new confusion (3), 38.7 °C (1) = 13.
    const r = news2({
      respiratoryRate: 24,
      oxygenSaturation: 95,
      spo2Scale: 1,
      supplementalOxygen: true,
      systolicBloodPressure: 98,
      heartRate: 118,
      consciousness: 'new_confusion',
      temperature: 38.7,
    });
    expect(r.parameters.map((p) => p.score)).toEqual([2, 1, 2, 2, 2, 3, 1]);
    expect(r).toMatchObject({ total: 13, risk: 'high', redScore: true });
  });

  it('thresholds: riskOf', () => {
    expect(riskOf(0, false)).toBe('low');
    expect(riskOf(4, false)).toBe('low');
    expect(riskOf(3, true)).toBe('low_medium');
    expect(riskOf(4, true)).toBe('low_medium');
    expect(riskOf(5, true)).toBe('medium');
    expect(riskOf(6, false)).toBe('medium');
    expect(riskOf(7, false)).toBe('high');
    expect(riskOf(20, true)).toBe('high');
  });
});

describe('NEWS2 of a vital signs record', () => {
  const RECORD = { respiratoryRate: 26, oxygenSaturation: 90, bloodPressureSystolic: 95, heartRate: 125, temperature: 39.5 };

  it('scores alert and air when the record does not say, and names what it assumed', () => {
    expect(news2OfRecord(RECORD)).toMatchObject({
      total: 12,
      risk: 'high',
      spo2Scale: 1,
      assumed: ['consciousness', 'supplementalOxygen'],
    });
    expect(news2OfRecord({ ...RECORD, consciousness: null, supplementalOxygen: false })).toMatchObject({
      total: 12,
      assumed: ['consciousness'],
    });
    expect(news2OfRecord({ ...RECORD, consciousness: 'pain', supplementalOxygen: true })).toMatchObject({ total: 17, assumed: [] });
  });

  it('is the one chart: the same as news2() for the same observations', () => {
    const { assumed, ...result } = news2OfRecord({ ...NORMAL, bloodPressureSystolic: 95, consciousness: 'voice' })!;
    expect(assumed).toEqual([]);
    expect(result).toEqual(news2({ ...NORMAL, systolicBloodPressure: 95, consciousness: 'voice' }));
  });

  it.each(['respiratoryRate', 'oxygenSaturation', 'bloodPressureSystolic', 'heartRate', 'temperature'] as const)(
    'has no score without %s',
    (missing) => {
      expect(news2OfRecord({ ...RECORD, [missing]: null })).toBeNull();
    },
  );
});
