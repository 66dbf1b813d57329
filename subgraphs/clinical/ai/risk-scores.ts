/**
 * Validated, published risk scores, each exactly as its source defines it. Pure: inputs in, score out.
 */

export interface ScoreResult {
  score: 'pooled_cohort_equations' | 'cha2ds2_vasc' | 'qsofa' | 'lace';
  value: number;
  unit: string | null;
  category: string;
  interpretation: string;
  source: string;
  /** The inputs as the formula used them. */
  inputs: Record<string, unknown>;
}

// ---- Pooled cohort equations (10-year risk of a first hard ASCVD event) ----

export const PCE_SOURCE =
  'Goff DC Jr, Lloyd-Jones DM, Bennett G, et al. 2013 ACC/AHA guideline on the assessment of cardiovascular risk. Circulation 2014;129(25 Suppl 2):S49-73 (Table A and the equation parameters of the pooled cohort equations); risk categories from Grundy SM, et al. 2018 AHA/ACC guideline on the management of blood cholesterol. Circulation 2019;139:e1082-e1143';

export interface PooledCohortInput {
  /** 40 to 79 years. */
  age: number;
  sex: 'female' | 'male';
  /** The equations exist for African American and for white adults; others are scored with the white equations. */
  race: 'african_american' | 'white' | 'other';
  /** mg/dL, 130 to 320. */
  totalCholesterol: number;
  /** mg/dL, 20 to 100. */
  hdlCholesterol: number;
  /** mmHg, 90 to 200. */
  systolicBloodPressure: number;
  treatedForHypertension: boolean;
  smoker: boolean;
  diabetes: boolean;
}

interface PceCoefficients {
  lnAge: number;
  lnAgeSq: number;
  lnTc: number;
  lnAgeLnTc: number;
  lnHdl: number;
  lnAgeLnHdl: number;
  lnTreatedSbp: number;
  lnAgeLnTreatedSbp: number;
  lnUntreatedSbp: number;
  lnAgeLnUntreatedSbp: number;
  smoker: number;
  lnAgeSmoker: number;
  diabetes: number;
  baseline: number;
  mean: number;
}

const Z = { lnAgeSq: 0, lnAgeLnTc: 0, lnAgeLnHdl: 0, lnAgeLnTreatedSbp: 0, lnAgeLnUntreatedSbp: 0, lnAgeSmoker: 0 };

/** Goff et al. 2013, Table A: equation parameters by race and sex. */
const PCE: Record<'white_female' | 'african_american_female' | 'white_male' | 'african_american_male', PceCoefficients> = {
  white_female: {
    ...Z,
    lnAge: -29.799,
    lnAgeSq: 4.884,
    lnTc: 13.54,
    lnAgeLnTc: -3.114,
    lnHdl: -13.578,
    lnAgeLnHdl: 3.149,
    lnTreatedSbp: 2.019,
    lnUntreatedSbp: 1.957,
    smoker: 7.574,
    lnAgeSmoker: -1.665,
    diabetes: 0.661,
    baseline: 0.9665,
    mean: -29.18,
  },
  african_american_female: {
    ...Z,
    lnAge: 17.114,
    lnTc: 0.94,
    lnHdl: -18.92,
    lnAgeLnHdl: 4.475,
    lnTreatedSbp: 29.291,
    lnAgeLnTreatedSbp: -6.432,
    lnUntreatedSbp: 27.82,
    lnAgeLnUntreatedSbp: -6.087,
    smoker: 0.691,
    diabetes: 0.874,
    baseline: 0.9533,
    mean: 86.61,
  },
  white_male: {
    ...Z,
    lnAge: 12.344,
    lnTc: 11.853,
    lnAgeLnTc: -2.664,
    lnHdl: -7.99,
    lnAgeLnHdl: 1.769,
    lnTreatedSbp: 1.797,
    lnUntreatedSbp: 1.764,
    smoker: 7.837,
    lnAgeSmoker: -1.795,
    diabetes: 0.658,
    baseline: 0.9144,
    mean: 61.18,
  },
  african_american_male: {
    ...Z,
    lnAge: 2.469,
    lnTc: 0.302,
    lnHdl: -0.307,
    lnTreatedSbp: 1.916,
    lnUntreatedSbp: 1.809,
    smoker: 0.549,
    diabetes: 0.645,
    baseline: 0.8954,
    mean: 19.54,
  },
};

export function pooledCohort(input: PooledCohortInput): ScoreResult {
  const equation = `${input.race === 'african_american' ? 'african_american' : 'white'}_${input.sex}` as keyof typeof PCE;
  const k = PCE[equation];
  const lnAge = Math.log(input.age);
  const lnTc = Math.log(input.totalCholesterol);
  const lnHdl = Math.log(input.hdlCholesterol);
  const lnSbp = Math.log(input.systolicBloodPressure);
  const treated = input.treatedForHypertension;
  const smoker = input.smoker ? 1 : 0;
  const sum =
    k.lnAge * lnAge +
    k.lnAgeSq * lnAge * lnAge +
    k.lnTc * lnTc +
    k.lnAgeLnTc * lnAge * lnTc +
    k.lnHdl * lnHdl +
    k.lnAgeLnHdl * lnAge * lnHdl +
    (treated
      ? k.lnTreatedSbp * lnSbp + k.lnAgeLnTreatedSbp * lnAge * lnSbp
      : k.lnUntreatedSbp * lnSbp + k.lnAgeLnUntreatedSbp * lnAge * lnSbp) +
    k.smoker * smoker +
    k.lnAgeSmoker * lnAge * smoker +
    k.diabetes * (input.diabetes ? 1 : 0);
  const risk = 1 - Math.pow(k.baseline, Math.exp(sum - k.mean));
  const percent = Math.round(risk * 1000) / 10;
  const category = percent < 5 ? 'low' : percent < 7.5 ? 'borderline' : percent < 20 ? 'intermediate' : 'high';
  const meaning: Record<string, string> = {
    low: 'Low 10-year risk (<5%): emphasise lifestyle.',
    borderline: 'Borderline 10-year risk (5% to <7.5%): discuss statin therapy if risk enhancers are present.',
    intermediate: 'Intermediate 10-year risk (7.5% to <20%): a moderate-intensity statin is recommended after a risk discussion.',
    high: 'High 10-year risk (≥20%): a high-intensity statin is recommended.',
  };
  return {
    score: 'pooled_cohort_equations',
    value: percent,
    unit: '% 10-year risk of a first hard ASCVD event',
    category,
    interpretation:
      meaning[category] +
      (input.race === 'other'
        ? ' The equations were derived for African American and white adults; the white equations were used and may over- or underestimate risk.'
        : ''),
    source: PCE_SOURCE,
    inputs: { ...input, equation, individualSum: Math.round(sum * 100) / 100 },
  };
}

// ---- CHA2DS2-VASc (stroke risk in atrial fibrillation) ----

export const CHA2DS2_VASC_SOURCE =
  'Lip GYH, Nieuwlaat R, Pisters R, Lane DA, Crijns HJGM. Refining clinical risk stratification for predicting stroke and thromboembolism in atrial fibrillation using a novel risk factor-based approach: the Euro Heart Survey on atrial fibrillation. Chest 2010;137(2):263-72; adjusted stroke rates as tabled in the 2010 ESC atrial fibrillation guidelines (Camm AJ, et al. Eur Heart J 2010;31:2369-429); treatment thresholds from Hindricks G, et al. 2020 ESC guidelines for atrial fibrillation. Eur Heart J 2021;42:373-498';

export interface Cha2ds2VascInput {
  age: number;
  sex: 'female' | 'male';
  congestiveHeartFailure: boolean;
  hypertension: boolean;
  diabetes: boolean;
  /** Prior stroke, transient ischaemic attack or thromboembolism. */
  strokeOrTia: boolean;
  /** Prior myocardial infarction, peripheral artery disease or aortic plaque. */
  vascularDisease: boolean;
}

/** Adjusted stroke rate, % per year, by score 0-9 (ESC 2010 table, from Lip et al. 2010). */
const STROKE_RATE = [0, 1.3, 2.2, 3.2, 4.0, 6.7, 9.8, 9.6, 6.7, 15.2];

export function cha2ds2Vasc(input: Cha2ds2VascInput): ScoreResult {
  const points = {
    congestiveHeartFailure: input.congestiveHeartFailure ? 1 : 0,
    hypertension: input.hypertension ? 1 : 0,
    age: input.age >= 75 ? 2 : input.age >= 65 ? 1 : 0,
    diabetes: input.diabetes ? 1 : 0,
    strokeOrTia: input.strokeOrTia ? 2 : 0,
    vascularDisease: input.vascularDisease ? 1 : 0,
    sexCategory: input.sex === 'female' ? 1 : 0,
  };
  const value = Object.values(points).reduce((a, b) => a + b, 0);
  // ESC 2020: the female sex point alone does not raise risk; thresholds are one higher for women.
  const withoutSex = value - points.sexCategory;
  const category = withoutSex === 0 ? 'low' : withoutSex === 1 ? 'intermediate' : 'high';
  const interpretation = {
    low: 'Low stroke risk: oral anticoagulation is not recommended.',
    intermediate: 'One non-sex risk factor: oral anticoagulation should be considered, weighing bleeding risk and patient preference.',
    high: 'Two or more non-sex risk factors: oral anticoagulation is recommended.',
  }[category];
  return {
    score: 'cha2ds2_vasc',
    value,
    unit: 'points (0-9)',
    category,
    interpretation: `${interpretation} Adjusted stroke rate in the derivation cohorts: ${STROKE_RATE[value]}% per year.`,
    source: CHA2DS2_VASC_SOURCE,
    inputs: { ...input, points },
  };
}

// ---- qSOFA (sepsis: risk of poor outcome outside the ICU) ----

export const QSOFA_SOURCE =
  'Seymour CW, Liu VX, Iwashyna TJ, et al. Assessment of clinical criteria for sepsis: for the Third International Consensus Definitions for Sepsis and Septic Shock (Sepsis-3). JAMA 2016;315(8):762-74; Singer M, et al. The Third International Consensus Definitions for Sepsis and Septic Shock (Sepsis-3). JAMA 2016;315(8):801-10';

export interface QsofaInput {
  /** Breaths per minute. */
  respiratoryRate: number;
  /** mmHg. */
  systolicBloodPressure: number;
  /** Altered mentation (Glasgow Coma Scale below 15). */
  alteredMentation: boolean;
}

export function qsofa(input: QsofaInput): ScoreResult {
  const points = {
    respiratoryRate: input.respiratoryRate >= 22 ? 1 : 0,
    systolicBloodPressure: input.systolicBloodPressure <= 100 ? 1 : 0,
    alteredMentation: input.alteredMentation ? 1 : 0,
  };
  const value = points.respiratoryRate + points.systolicBloodPressure + points.alteredMentation;
  const high = value >= 2;
  return {
    score: 'qsofa',
    value,
    unit: 'points (0-3)',
    category: high ? 'high' : 'low',
    interpretation: high
      ? 'qSOFA 2 or more: with suspected infection, a higher risk of death or prolonged ICU stay; assess for organ dysfunction (SOFA), treat sepsis and escalate care.'
      : 'qSOFA below 2: does not rule out sepsis; keep monitoring and reassess if the patient deteriorates.',
    source: QSOFA_SOURCE,
    inputs: { ...input, points },
  };
}

// ---- LACE index (death or unplanned readmission within 30 days of discharge) ----

export const LACE_SOURCE =
  'van Walraven C, Dhalla IA, Bell C, et al. Derivation and validation of an index to predict early death or unplanned readmission after discharge from hospital to the community. CMAJ 2010;182(6):551-7';

export interface LaceInput {
  /** Length of stay, days. */
  lengthOfStayDays: number;
  /** Admitted acutely (emergent), rather than electively. */
  acuteAdmission: boolean;
  /** Charlson comorbidity index score. */
  charlsonIndex: number;
  /** Emergency department visits in the 6 months before admission (not counting the index visit). */
  emergencyVisits: number;
}

export function lace(input: LaceInput): ScoreResult {
  const los = input.lengthOfStayDays;
  const points = {
    lengthOfStay: los < 1 ? 0 : los < 4 ? Math.floor(los) : los <= 6 ? 4 : los <= 13 ? 5 : 7,
    acuity: input.acuteAdmission ? 3 : 0,
    comorbidity: input.charlsonIndex >= 4 ? 5 : Math.floor(input.charlsonIndex),
    emergencyVisits: Math.min(Math.floor(input.emergencyVisits), 4),
  };
  const value = points.lengthOfStay + points.acuity + points.comorbidity + points.emergencyVisits;
  const category = value >= 10 ? 'high' : value >= 5 ? 'moderate' : 'low';
  return {
    score: 'lace',
    value,
    unit: 'points (0-19)',
    category,
    interpretation: {
      high: 'LACE 10 or more: high risk of death or unplanned readmission within 30 days; plan follow-up and transitional care before discharge.',
      moderate: 'LACE 5-9: moderate risk of death or unplanned readmission within 30 days.',
      low: 'LACE below 5: low risk of death or unplanned readmission within 30 days.',
    }[category],
    source: LACE_SOURCE,
    inputs: { ...input, points },
  };
}
