import reference from './data/reference-intervals.json';
import { normalizeName } from '../cds/drug-knowledge';
import { PANIC_LIMITS, checkPanic } from '../cds/panic';

/**
 * The built-in lab interpreter: each result against its reference interval (the laboratory's own when it sends
 * one, else the platform's, data/reference-intervals.json) and the panic limits, then patterns across results
 * (anaemia classified by red cell size, cytopenias, electrolyte disorders, hyperglycaemia, liver and kidney
 * markers). Rules, not statistics: every statement names the threshold and source it comes from. Pure.
 */

export const REFERENCE_SOURCE = reference.source;
export const WHO_ANAEMIA_SOURCE =
  'WHO. Haemoglobin concentrations for the diagnosis of anaemia and assessment of severity. Vitamin and Mineral Nutrition Information System. WHO/NMH/NHD/MNM/11.1. Geneva: World Health Organization, 2011';
export const WHO_HBA1C_SOURCE =
  'WHO. Use of glycated haemoglobin (HbA1c) in the diagnosis of diabetes mellitus. Abbreviated report of a WHO consultation. Geneva: WHO, 2011';
export const WHO_DIABETES_SOURCE =
  'WHO/IDF. Definition and diagnosis of diabetes mellitus and intermediate hyperglycaemia. Geneva: WHO, 2006 (random plasma glucose ≥11.1 mmol/L with symptoms)';

type Range = [number | null, number | null];
interface Interval {
  loinc: string;
  name: string;
  unit: string;
  any?: Range;
  male?: Range;
  female?: Range;
  pregnant?: Range;
}
const INTERVALS = reference.intervals as Interval[];

export interface LabInput {
  code?: string | null;
  name?: string | null;
  value: number;
  unit: string;
  /** The laboratory's reference range as reported, such as "3.5-5.1", "<200" or ">40". */
  referenceRange?: string | null;
}

export interface Subject {
  sex?: 'female' | 'male' | null;
  pregnant?: boolean | null;
}

export type LabStatus = 'critical_low' | 'low' | 'normal' | 'high' | 'critical_high' | 'unknown';

export interface InterpretedResult {
  index: number;
  code: string | null;
  name: string | null;
  value: number;
  unit: string;
  status: LabStatus;
  low: number | null;
  high: number | null;
  /** Where the interval came from: laboratory (sent with the result), platform, or none. */
  referenceSource: 'laboratory' | 'platform' | null;
  critical: boolean;
  comment: string;
}

export interface LabPattern {
  key: string;
  name: string;
  /** The results that show it. */
  evidence: string[];
  suggestion: string;
  source: string;
}

const sameUnit = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** "3.5-5.1", "3.5 - 5.1", "<200", "≤ 5.6", ">40", "≥ 40". */
export function parseRange(text: string | null | undefined): Range | null {
  if (!text) return null;
  const t = text.replace(/\s+/g, '').replace(/,/g, '.');
  const between = /^(-?\d+(?:\.\d+)?)[-–](-?\d+(?:\.\d+)?)$/.exec(t);
  if (between) return [Number(between[1]), Number(between[2])];
  const below = /^(?:<|≤|<=)(\d+(?:\.\d+)?)$/.exec(t);
  if (below) return [null, Number(below[1])];
  const above = /^(?:>|≥|>=)(\d+(?:\.\d+)?)$/.exec(t);
  if (above) return [Number(above[1]), null];
  return null;
}

/** The LOINC code of a result named instead of coded (Potassium, hemoglobin, "Haemoglobin"). */
function codeOf(input: LabInput): string | null {
  if (input.code?.trim()) return input.code.trim();
  const n = normalizeName((input.name ?? '').replace(/haem/gi, 'hem'));
  if (!n) return null;
  const hit = [...INTERVALS, ...PANIC_LIMITS.map((p) => ({ loinc: p.loinc, name: p.name }))].find(
    (i) => normalizeName(i.name) === n || normalizeName(i.name).split(' ')[0] === n,
  );
  return hit?.loinc ?? null;
}

function platformRange(code: string, unit: string, subject: Subject): { range: Range; name: string } | null {
  const i = INTERVALS.find((x) => x.loinc === code && sameUnit(x.unit, unit));
  if (!i) return null;
  const range =
    (subject.pregnant && i.pregnant) ||
    (subject.sex === 'male' && i.male) ||
    (subject.sex === 'female' && i.female) ||
    i.any ||
    i.female ||
    i.male;
  return range ? { range, name: i.name } : null;
}

export function interpretResult(input: LabInput, index: number, subject: Subject): InterpretedResult {
  const code = codeOf(input);
  const unit = input.unit.trim();
  const lab = parseRange(input.referenceRange);
  const platform = code ? platformRange(code, unit, subject) : null;
  const range = lab ?? platform?.range ?? null;
  const panic = code ? checkPanic({ code, value: input.value, unit }) : null;
  const name = input.name?.trim() || platform?.name || panic?.name || null;
  const [low, high] = range ?? [null, null];
  let status: LabStatus = range ? 'normal' : 'unknown';
  if (range && low !== null && input.value < low) status = 'low';
  if (range && high !== null && input.value > high) status = 'high';
  if (panic?.critical) status = panic.direction === 'low' ? 'critical_low' : 'critical_high';
  const where = lab ? "the laboratory's reference range" : platform ? 'the platform reference interval' : null;
  const bounds = range ? `${low ?? '—'} to ${high ?? '—'} ${unit}` : '';
  const comment =
    status === 'critical_low' || status === 'critical_high'
      ? `${panic!.message}.`
      : status === 'unknown'
        ? `No reference interval for ${name ?? code ?? 'this test'} in ${unit}: not interpreted (units are not converted).`
        : status === 'normal'
          ? `Within ${where} (${bounds}).`
          : `${status === 'low' ? 'Below' : 'Above'} ${where} (${bounds}).`;
  return {
    index,
    code,
    name,
    value: input.value,
    unit,
    status,
    low,
    high,
    referenceSource: lab ? 'laboratory' : platform ? 'platform' : null,
    critical: !!panic?.critical,
    comment,
  };
}

/** A value of one test in a unit, converted to the unit the pattern thresholds use, when given in a known one. */
function valueOf(
  results: InterpretedResult[],
  code: string,
  units: Record<string, number>,
): { value: number; label: string; r: InterpretedResult } | null {
  for (const r of results) {
    if (r.code !== code) continue;
    const factor = Object.entries(units).find(([u]) => sameUnit(u, r.unit))?.[1];
    if (factor !== undefined) return { value: r.value * factor, label: `${r.name ?? code} ${r.value} ${r.unit}`, r };
  }
  return null;
}

/** WHO 2011 haemoglobin thresholds (g/dL) for anaemia and its severity, by group. */
function anaemiaSeverity(hb: number, subject: Subject): { anaemic: boolean; severity: string; threshold: number; group: string } {
  if (subject.pregnant) {
    return { anaemic: hb < 11, severity: hb < 7 ? 'severe' : hb < 10 ? 'moderate' : 'mild', threshold: 11, group: 'pregnant women' };
  }
  const male = subject.sex === 'male';
  const threshold = male ? 13 : 12;
  const group = male ? 'men' : subject.sex === 'female' ? 'non-pregnant women' : 'adults of unknown sex (the threshold for women is used)';
  return { anaemic: hb < threshold, severity: hb < 8 ? 'severe' : hb < 11 ? 'moderate' : 'mild', threshold, group };
}

export function findPatterns(results: InterpretedResult[], subject: Subject): LabPattern[] {
  const out: LabPattern[] = [];
  const hb = valueOf(results, '718-7', { 'g/dL': 1, 'g/L': 0.1 });
  const mcv = valueOf(results, '787-2', { fL: 1 });
  const wbc = valueOf(results, '6690-2', { '10*3/uL': 1, '10*9/L': 1 });
  const plt = valueOf(results, '777-3', { '10*3/uL': 1, '10*9/L': 1 });

  if (hb) {
    const a = anaemiaSeverity(hb.value, subject);
    if (a.anaemic) {
      const evidence = [hb.label];
      let kind = 'Anaemia';
      let suggestion = 'Measure the MCV (red cell size) to classify it, and look for the cause.';
      if (mcv) {
        evidence.push(mcv.label);
        if (mcv.value < 80) {
          kind = 'Microcytic anaemia';
          suggestion = 'Consider iron deficiency (check ferritin), thalassaemia trait and anaemia of chronic disease.';
        } else if (mcv.value > 100) {
          kind = 'Macrocytic anaemia';
          suggestion =
            'Consider vitamin B12 or folate deficiency, alcohol, liver disease, hypothyroidism and drugs (methotrexate, hydroxyurea, zidovudine).';
        } else {
          kind = 'Normocytic anaemia';
          suggestion = 'Consider blood loss, haemolysis, chronic disease and kidney disease; check the reticulocyte count.';
        }
      }
      out.push({
        key: 'anaemia',
        name: `${kind}, ${a.severity} (WHO threshold for ${a.group}: haemoglobin below ${a.threshold} g/dL)`,
        evidence,
        suggestion,
        source: WHO_ANAEMIA_SOURCE,
      });
    }
  }
  if (hb && wbc && plt && anaemiaSeverity(hb.value, subject).anaemic && wbc.value < 4.5 && plt.value < 150) {
    out.push({
      key: 'pancytopenia',
      name: 'Pancytopenia (anaemia, leukopenia and thrombocytopenia together)',
      evidence: [hb.label, wbc.label, plt.label],
      suggestion:
        'Needs prompt haematological assessment (marrow failure or infiltration, hypersplenism, B12/folate deficiency, drugs, infection such as HIV or visceral leishmaniasis).',
      source: REFERENCE_SOURCE,
    });
  }
  if (plt && plt.value < 150) {
    out.push({
      key: 'thrombocytopenia',
      name: `Thrombocytopenia${plt.value < 50 ? ', severe (below 50 ×10³/µL)' : ''}`,
      evidence: [plt.label],
      suggestion: 'Confirm on a blood film (clumping); consider infection (malaria, dengue, HIV), drugs, immune causes and marrow disease.',
      source: REFERENCE_SOURCE,
    });
  }
  if (wbc && wbc.value > 11) {
    out.push({
      key: 'leukocytosis',
      name: 'Leukocytosis',
      evidence: [wbc.label],
      suggestion: 'Consider infection, inflammation, steroids and haematological disease; check the differential count.',
      source: REFERENCE_SOURCE,
    });
  } else if (wbc && wbc.value < 4.5) {
    out.push({
      key: 'leukopenia',
      name: 'Leukopenia',
      evidence: [wbc.label],
      suggestion: 'Check the neutrophil count; consider viral infection, drugs and marrow disease.',
      source: REFERENCE_SOURCE,
    });
  }
  const k = valueOf(results, '2823-3', { 'mmol/L': 1, 'meq/L': 1 });
  if (k && k.value > 5.0) {
    out.push({
      key: 'hyperkalaemia',
      name: 'Hyperkalaemia',
      evidence: [k.label],
      suggestion:
        'Exclude haemolysis; get an ECG if potassium is 6.0 mmol/L or more; review ACE inhibitors, ARBs, potassium-sparing diuretics and kidney function.',
      source: REFERENCE_SOURCE,
    });
  } else if (k && k.value < 3.5) {
    out.push({
      key: 'hypokalaemia',
      name: 'Hypokalaemia',
      evidence: [k.label],
      suggestion: 'Consider diuretics, vomiting or diarrhoea; check magnesium; replace potassium.',
      source: REFERENCE_SOURCE,
    });
  }
  const na = valueOf(results, '2951-2', { 'mmol/L': 1, 'meq/L': 1 });
  if (na && na.value < 136) {
    out.push({
      key: 'hyponatraemia',
      name: 'Hyponatraemia',
      evidence: [na.label],
      suggestion: 'Assess volume status and serum osmolality; review thiazides and SSRIs; correct slowly.',
      source: REFERENCE_SOURCE,
    });
  } else if (na && na.value > 145) {
    out.push({
      key: 'hypernatraemia',
      name: 'Hypernatraemia',
      evidence: [na.label],
      suggestion: 'Usually water deficit: assess intake and losses; correct slowly.',
      source: REFERENCE_SOURCE,
    });
  }
  const glucose = valueOf(results, '14749-6', { 'mmol/L': 1 }) ?? valueOf(results, '2345-7', { 'mg/dL': 1 / 18 });
  if (glucose && glucose.value >= 11.1) {
    out.push({
      key: 'hyperglycaemia',
      name: 'Hyperglycaemia at or above 11.1 mmol/L (200 mg/dL)',
      evidence: [glucose.label],
      suggestion:
        'With classic symptoms this meets the WHO criterion for diabetes; otherwise confirm with a fasting glucose or HbA1c. Check ketones if unwell.',
      source: WHO_DIABETES_SOURCE,
    });
  }
  const a1c = valueOf(results, '4548-4', { '%': 1 });
  if (a1c && a1c.value >= 6.5) {
    out.push({
      key: 'hba1c_diabetes',
      name: 'HbA1c at or above 6.5% (48 mmol/mol)',
      evidence: [a1c.label],
      suggestion: 'Meets the WHO threshold for diagnosing diabetes; repeat to confirm in a person without symptoms.',
      source: WHO_HBA1C_SOURCE,
    });
  } else if (a1c && a1c.value >= 5.7) {
    out.push({
      key: 'hba1c_prediabetes',
      name: 'HbA1c 5.7-6.4% (prediabetes range)',
      evidence: [a1c.label],
      suggestion: 'Advise on diet and physical activity; retest yearly.',
      source: REFERENCE_SOURCE,
    });
  }
  const creatinine = results.find(
    (r) => (r.code === '2160-0' || r.code === '14682-9') && (r.status === 'high' || r.status === 'critical_high'),
  );
  if (creatinine) {
    out.push({
      key: 'raised_creatinine',
      name: 'Raised creatinine',
      evidence: [`${creatinine.name ?? 'Creatinine'} ${creatinine.value} ${creatinine.unit}`],
      suggestion: 'Estimate GFR (CKD-EPI) and compare with previous values for acute kidney injury; review nephrotoxic drugs and doses.',
      source: REFERENCE_SOURCE,
    });
  }
  const liver = [valueOf(results, '1742-6', { 'U/L': 1 }), valueOf(results, '1920-8', { 'U/L': 1 })].filter(
    (x): x is NonNullable<typeof x> => !!x && x.value > 3 * 35,
  );
  if (liver.length) {
    out.push({
      key: 'hepatocellular_injury',
      name: 'Transaminases above three times the upper limit',
      evidence: liver.map((l) => l.label),
      suggestion: 'Consider viral hepatitis, drugs (including paracetamol, anti-tuberculosis drugs), alcohol and ischaemia.',
      source: REFERENCE_SOURCE,
    });
  }
  const lactate = valueOf(results, '2524-7', { 'mmol/L': 1 });
  if (lactate && lactate.value > 2) {
    out.push({
      key: 'hyperlactataemia',
      name: 'Lactate above 2 mmol/L',
      evidence: [lactate.label],
      suggestion: 'With suspected infection, a marker of hypoperfusion (Sepsis-3): assess for sepsis and septic shock.',
      source:
        'Singer M, et al. The Third International Consensus Definitions for Sepsis and Septic Shock (Sepsis-3). JAMA 2016;315(8):801-10',
    });
  }
  return out;
}

export function interpretLabs(inputs: LabInput[], subject: Subject): { results: InterpretedResult[]; patterns: LabPattern[] } {
  const results = inputs.map((r, i) => interpretResult(r, i, subject));
  return { results, patterns: findPatterns(results, subject) };
}
