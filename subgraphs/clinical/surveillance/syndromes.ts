import { bestIcd10Match, normalizeIcd10 } from '../public-health/icd10';
import raw from './syndromes.json';

/** A monitored syndrome from the reference list (syndromes.json names its sources). */
export interface SyndromeData {
  code: string;
  name: string;
  definition: string;
  icd10: string[];
  /** Groups of terms; a complaint holding every term of one group (as whole words) counts. */
  complaints: string[][];
  /** Terms that rule the syndrome out. */
  exclude: string[];
}

export const SYNDROMES: readonly SyndromeData[] = raw.syndromes;

const byCode = new Map(SYNDROMES.map((s) => [s.code, s]));

export function syndromeByCode(code: string): SyndromeData | undefined {
  return byCode.get(code);
}

/** Lower case, letters and digits only, single spaces, padded: whole-word search is a substring search of ` term `. */
function words(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

const compiled = SYNDROMES.map((s) => ({
  code: s.code,
  groups: s.complaints.map((group) => group.map(words)),
  exclude: s.exclude.map(words),
}));

/** The syndromes a chief complaint speaks of (several may: fever, cough and difficulty breathing is ILI and SARI). */
export function syndromesOfComplaint(complaint: string): string[] {
  const text = words(complaint);
  return compiled
    .filter((s) => !s.exclude.some((t) => text.includes(t)) && s.groups.some((group) => group.every((t) => text.includes(t))))
    .map((s) => s.code);
}

/** The syndrome an ICD-10 code belongs to (the most specific prefix), or null. */
export function syndromeOfIcd10(code: string): string | null {
  const canonical = normalizeIcd10(code);
  return canonical ? (bestIcd10Match(SYNDROMES, (s) => s.icd10, canonical)?.code ?? null) : null;
}
