import kb from './data/symptom-conditions.json';
import { findTerms, normalizeName } from '../cds/drug-knowledge';

/**
 * The built-in differential: conditions ranked by weighted symptom overlap with a knowledge base shipped as data
 * (data/symptom-conditions.json, compiled from the WHO fact sheets named on each condition). Transparent and
 * explainable, not a probability: half of the score is how much of the condition's picture is present, half how
 * much of the patient's picture the condition explains; a condition none of whose defining features is present
 * counts half. Pure.
 */

export const KB_SOURCE = kb.source;
export const KB_LICENCE = kb.licence;
export const KB_VALIDATION = kb.validation;
const WEIGHT: Record<string, number> = kb.weights;

/** How soon a condition needs care, most urgent first (the ranking's tie-break). */
export const URGENCIES = ['emergency', 'urgent', 'routine'] as const;

interface Condition {
  key: string;
  name: string;
  icd10: string | null;
  urgency: string;
  source: string;
  symptoms: Record<string, string>;
  red_flags: string[];
  advice: string;
}

const CONDITIONS = kb.conditions as unknown as Condition[];
for (const c of CONDITIONS) {
  if (!(URGENCIES as readonly string[]).includes(c.urgency))
    throw new Error(`symptom-conditions.json: ${c.key} has the unknown urgency ${c.urgency}`);
}
const SYMPTOM_TERMS = new Map<string, string[]>();
const SYMPTOM_NAME = new Map<string, string>();
for (const s of kb.symptoms) {
  SYMPTOM_NAME.set(s.key, s.terms[0]);
  for (const t of s.terms) SYMPTOM_TERMS.set(normalizeName(t), [s.key]);
}
const LONGEST = Math.max(...[...SYMPTOM_TERMS.keys()].map((t) => t.split(' ').length));

export const SYMPTOM_KEYS = kb.symptoms.map((s) => s.key);

/** The symptoms the knowledge base recognises in each text ("3 weeks of cough with night sweats"), and those it does not. */
export function recognizeSymptoms(texts: string[]): { symptoms: string[]; unrecognized: string[] } {
  const found = new Set<string>();
  const unrecognized: string[] = [];
  for (const text of texts) {
    const keys = findTerms(text, SYMPTOM_TERMS, LONGEST).flat();
    const direct = SYMPTOM_NAME.has(text.trim()) ? [text.trim()] : [];
    if (!keys.length && !direct.length) unrecognized.push(text);
    for (const k of [...keys, ...direct]) found.add(k);
  }
  return { symptoms: [...found], unrecognized };
}

export interface DifferentialItem {
  condition: string;
  icd10: string | null;
  /** 0 to 1; a ranking score, not a probability. */
  matchScore: number;
  matchedSymptoms: string[];
  /** Defining features of the condition the patient does not report. */
  missingKeySymptoms: string[];
  /** Reported symptoms that are warning signs for this condition. */
  redFlags: string[];
  urgency: string;
  advice: string;
  source: string;
}

export function differential(symptoms: string[], max = 5): DifferentialItem[] {
  const reported = new Set(symptoms);
  if (!reported.size) return [];
  const ranked: DifferentialItem[] = [];
  for (const c of CONDITIONS) {
    const entries = Object.entries(c.symptoms);
    const matched = entries.filter(([s]) => reported.has(s));
    if (!matched.length) continue;
    const total = entries.reduce((sum, [, w]) => sum + WEIGHT[w], 0);
    const coverage = matched.reduce((sum, [, w]) => sum + WEIGHT[w], 0) / total;
    const explained = matched.length / reported.size;
    const keys = entries.filter(([, w]) => w === 'key').map(([s]) => s);
    const anyKey = keys.some((k) => reported.has(k));
    const score = (0.5 * coverage + 0.5 * explained) * (anyKey ? 1 : 0.5);
    ranked.push({
      condition: c.name,
      icd10: c.icd10,
      matchScore: Math.round(score * 100) / 100,
      matchedSymptoms: matched.map(([s]) => SYMPTOM_NAME.get(s)!),
      missingKeySymptoms: keys.filter((k) => !reported.has(k)).map((k) => SYMPTOM_NAME.get(k)!),
      redFlags: c.red_flags.filter((s) => reported.has(s)).map((s) => SYMPTOM_NAME.get(s)!),
      urgency: c.urgency,
      advice: c.advice,
      source: c.source,
    });
  }
  const URGENCY: readonly string[] = URGENCIES;
  return ranked
    .sort(
      (a, b) =>
        b.matchScore - a.matchScore || URGENCY.indexOf(a.urgency) - URGENCY.indexOf(b.urgency) || a.condition.localeCompare(b.condition),
    )
    .slice(0, max);
}
