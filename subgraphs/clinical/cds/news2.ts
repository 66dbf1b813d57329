/**
 * NEWS2, the National Early Warning Score 2, exactly as the Royal College of Physicians' chart: Royal College of
 * Physicians. National Early Warning Score (NEWS) 2: Standardising the assessment of acute-illness severity in the
 * NHS. Updated report of a working party. London: RCP, 2017. Chart 1 (the scoring bands), chart 2 (the thresholds
 * and triggers) and chart 4 (the clinical response). Pure: no clock, no database.
 */

export const NEWS2_SOURCE =
  'Royal College of Physicians. National Early Warning Score (NEWS) 2: Standardising the assessment of acute-illness severity in the NHS. Updated report of a working party. London: RCP, 2017 (charts 1, 2 and 4)';

/** ACVPU: alert, new confusion, or responding only to voice or pain, or unresponsive. */
export const CONSCIOUSNESS_LEVELS = ['alert', 'new_confusion', 'voice', 'pain', 'unresponsive'] as const;
export type Consciousness = (typeof CONSCIOUSNESS_LEVELS)[number];

export interface News2Input {
  respiratoryRate: number;
  oxygenSaturation: number;
  /** SpO2 scale 2 is for patients with hypercapnic respiratory failure and a prescribed target of 88-92%. */
  spo2Scale: 1 | 2;
  /** Breathing supplemental oxygen (any device), as opposed to room air. */
  supplementalOxygen: boolean;
  systolicBloodPressure: number;
  heartRate: number;
  consciousness: Consciousness;
  /** Degrees Celsius. */
  temperature: number;
}

export const NEWS2_PARAMETERS = [
  'respiratoryRate',
  'oxygenSaturation',
  'supplementalOxygen',
  'systolicBloodPressure',
  'heartRate',
  'consciousness',
  'temperature',
] as const;
export type News2Parameter = (typeof NEWS2_PARAMETERS)[number];

export type News2Risk = 'low' | 'low_medium' | 'medium' | 'high';

export interface News2ParameterScore {
  parameter: News2Parameter;
  /** The value scored, rounded as the chart is read (whole numbers; temperature to 0.1 °C). */
  value: string;
  score: number;
  /** The chart's band the value falls in, such as "21-24" or "≤91". */
  band: string;
}

export interface News2Result {
  total: number;
  parameters: News2ParameterScore[];
  risk: News2Risk;
  /** A single parameter scored 3 (the "red score"): an urgent ward-based response. */
  redScore: boolean;
  monitoringFrequency: string;
  response: string;
  spo2Scale: 1 | 2;
}

/** One band of a chart row: values from `min` to `max` inclusive (after rounding) score `score`. */
interface Band {
  max: number;
  score: number;
  label: string;
}

/** Chart 1, row by row, as upper bounds (inclusive) in increasing order; the last band is open. */
const RESPIRATION: Band[] = [
  { max: 8, score: 3, label: '≤8' },
  { max: 11, score: 1, label: '9-11' },
  { max: 20, score: 0, label: '12-20' },
  { max: 24, score: 2, label: '21-24' },
  { max: Infinity, score: 3, label: '≥25' },
];
const SPO2_SCALE_1: Band[] = [
  { max: 91, score: 3, label: '≤91' },
  { max: 93, score: 2, label: '92-93' },
  { max: 95, score: 1, label: '94-95' },
  { max: Infinity, score: 0, label: '≥96' },
];
const SYSTOLIC: Band[] = [
  { max: 90, score: 3, label: '≤90' },
  { max: 100, score: 2, label: '91-100' },
  { max: 110, score: 1, label: '101-110' },
  { max: 219, score: 0, label: '111-219' },
  { max: Infinity, score: 3, label: '≥220' },
];
const PULSE: Band[] = [
  { max: 40, score: 3, label: '≤40' },
  { max: 50, score: 1, label: '41-50' },
  { max: 90, score: 0, label: '51-90' },
  { max: 110, score: 1, label: '91-110' },
  { max: 130, score: 2, label: '111-130' },
  { max: Infinity, score: 3, label: '≥131' },
];
const TEMPERATURE: Band[] = [
  { max: 35.0, score: 3, label: '≤35.0' },
  { max: 36.0, score: 1, label: '35.1-36.0' },
  { max: 38.0, score: 0, label: '36.1-38.0' },
  { max: 39.0, score: 1, label: '38.1-39.0' },
  { max: Infinity, score: 2, label: '≥39.1' },
];

function band(bands: Band[], value: number): Band {
  return bands.find((b) => value <= b.max)!;
}

/** Half up, to `decimals`: the chart is read in whole numbers (temperature in tenths). */
function chartRound(value: number, decimals = 0): number {
  const f = 10 ** decimals;
  return Math.round(value * f + Number.EPSILON) / f;
}

/**
 * SpO2 scale 2 (chart 1): on air, 88% and above scores 0 (no penalty above the target range on air); on oxygen,
 * values above 92% score 1 (93-94), 2 (95-96) or 3 (≥97), because over-oxygenation risks hypercapnia.
 */
function spo2Scale2(spo2: number, onOxygen: boolean): Band {
  if (spo2 <= 83) return { max: 83, score: 3, label: '≤83' };
  if (spo2 <= 85) return { max: 85, score: 2, label: '84-85' };
  if (spo2 <= 87) return { max: 87, score: 1, label: '86-87' };
  if (spo2 <= 92 || !onOxygen) return { max: 92, score: 0, label: onOxygen ? '88-92' : '88-92, or ≥93 on air' };
  if (spo2 <= 94) return { max: 94, score: 1, label: '93-94 on oxygen' };
  if (spo2 <= 96) return { max: 96, score: 2, label: '95-96 on oxygen' };
  return { max: 100, score: 3, label: '≥97 on oxygen' };
}

/** Chart 4: the clinical response to each trigger. */
const RESPONSE: Record<News2Risk | 'zero', { monitoring: string; response: string }> = {
  zero: {
    monitoring: 'Minimum 12-hourly',
    response: 'Continue routine NEWS monitoring.',
  },
  low: {
    monitoring: 'Minimum 4-6-hourly',
    response:
      'Inform a registered nurse, who must assess the patient; the registered nurse decides whether increased frequency of clinical monitoring or an escalation of care is required.',
  },
  low_medium: {
    monitoring: 'Minimum 1-hourly',
    response:
      'Registered nurse to inform the medical team caring for the patient, who will review and decide whether escalation of care is necessary.',
  },
  medium: {
    monitoring: 'Minimum 1-hourly',
    response:
      'Registered nurse to immediately inform the medical team caring for the patient. Registered nurse to request urgent assessment by a clinician or team with core competencies in the care of acutely ill patients. Provide clinical care in an environment with monitoring facilities.',
  },
  high: {
    monitoring: 'Continuous monitoring of vital signs',
    response:
      'Registered nurse to immediately inform the medical team caring for the patient; this should be at least at specialist registrar level. Emergency assessment by a team with critical care competencies, including practitioner(s) with advanced airway management skills. Consider transfer of care to a level 2 or 3 clinical care facility, ie higher-dependency unit or ICU. Clinical care in an environment with monitoring facilities.',
  },
};

/** NEWS2 from a complete set of observations. */
export function news2(input: News2Input): News2Result {
  const rr = chartRound(input.respiratoryRate);
  const spo2 = chartRound(input.oxygenSaturation);
  const sbp = chartRound(input.systolicBloodPressure);
  const hr = chartRound(input.heartRate);
  const temp = chartRound(input.temperature, 1);
  const spo2Band = input.spo2Scale === 2 ? spo2Scale2(spo2, input.supplementalOxygen) : band(SPO2_SCALE_1, spo2);
  const rows: News2ParameterScore[] = [
    { parameter: 'respiratoryRate', value: String(rr), ...scoreOf(band(RESPIRATION, rr)) },
    { parameter: 'oxygenSaturation', value: String(spo2), ...scoreOf(spo2Band) },
    {
      parameter: 'supplementalOxygen',
      value: input.supplementalOxygen ? 'oxygen' : 'air',
      score: input.supplementalOxygen ? 2 : 0,
      band: input.supplementalOxygen ? 'Oxygen' : 'Air',
    },
    { parameter: 'systolicBloodPressure', value: String(sbp), ...scoreOf(band(SYSTOLIC, sbp)) },
    { parameter: 'heartRate', value: String(hr), ...scoreOf(band(PULSE, hr)) },
    {
      parameter: 'consciousness',
      value: input.consciousness,
      score: input.consciousness === 'alert' ? 0 : 3,
      band: input.consciousness === 'alert' ? 'Alert' : 'CVPU',
    },
    { parameter: 'temperature', value: temp.toFixed(1), ...scoreOf(band(TEMPERATURE, temp)) },
  ];
  const total = rows.reduce((sum, r) => sum + r.score, 0);
  const redScore = rows.some((r) => r.score === 3);
  const risk = riskOf(total, redScore);
  const response = RESPONSE[total === 0 ? 'zero' : risk];
  return {
    total,
    parameters: rows,
    risk,
    redScore,
    monitoringFrequency: response.monitoring,
    response: response.response,
    spo2Scale: input.spo2Scale,
  };
}

function scoreOf(b: Band): { score: number; band: string } {
  return { score: b.score, band: b.label };
}

/** Chart 2: aggregate 0-4 low (3 in any single parameter: low-medium), 5-6 medium, 7 or more high. */
export function riskOf(total: number, redScore: boolean): News2Risk {
  if (total >= 7) return 'high';
  if (total >= 5) return 'medium';
  return redScore ? 'low_medium' : 'low';
}

/** What a vital signs record holds of NEWS2's parameters; null (or absent) where it was not recorded. */
export interface News2Record {
  respiratoryRate?: number | null;
  oxygenSaturation?: number | null;
  bloodPressureSystolic?: number | null;
  heartRate?: number | null;
  temperature?: number | null;
  consciousness?: Consciousness | null;
  supplementalOxygen?: boolean | null;
}

/** The measurements NEWS2 cannot score without (the record's field names). */
export const NEWS2_MEASUREMENTS = ['respiratoryRate', 'oxygenSaturation', 'bloodPressureSystolic', 'heartRate', 'temperature'] as const;

/** The parameters a record may lack and still be scored: consciousness counts as alert, oxygen as air (both score 0). */
export type News2Assumed = 'consciousness' | 'supplementalOxygen';

/** NEWS2 of a record, with the parameters it assumed. */
export type RecordNews2 = News2Result & { assumed: News2Assumed[] };

/**
 * NEWS2 of one record of observations taken together, on SpO2 scale 1 (a vital signs record does not say that the
 * patient has a prescribed target of 88-92%). Null when one of the five measurements is missing: NEWS2 is not scored
 * from part of a set. A level of consciousness or an oxygen therapy not recorded scores as alert or air, and
 * `assumed` names it.
 */
export function news2OfRecord(r: News2Record): RecordNews2 | null {
  if (NEWS2_MEASUREMENTS.some((f) => r[f] === null || r[f] === undefined)) return null;
  const assumed: News2Assumed[] = [];
  if (r.consciousness === null || r.consciousness === undefined) assumed.push('consciousness');
  if (r.supplementalOxygen === null || r.supplementalOxygen === undefined) assumed.push('supplementalOxygen');
  const result = news2({
    respiratoryRate: r.respiratoryRate!,
    oxygenSaturation: r.oxygenSaturation!,
    spo2Scale: 1,
    supplementalOxygen: r.supplementalOxygen ?? false,
    systolicBloodPressure: r.bloodPressureSystolic!,
    heartRate: r.heartRate!,
    consciousness: r.consciousness ?? 'alert',
    temperature: r.temperature!,
  });
  return { ...result, assumed };
}
