import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import jaroWinkler from 'talisman/metrics/jaro-winkler';
import doubleMetaphone from 'talisman/phonetics/double-metaphone';
import parameters from './matching.json';

/**
 * Probabilistic record linkage in the Fellegi-Sunter model, as the OpenHIE client registry (OpenCR) and HAPI MDM do
 * it: each field compared with its own comparator gives a log-likelihood weight (agreement log2(m/u), disagreement
 * log2((1-m)/(1-u)), partial agreement in between, nothing when a side lacks the field); the weights add up. The total
 * is rescaled to [0, 1] between the all-disagree and all-agree totals, so each field's share of the score is additive
 * and reported. Candidates are found through blocking keys, never by scanning every record. Pure code: no database.
 */

export const MATCH_FIELDS = ['givenName', 'familyName', 'birthDate', 'gender', 'phone', 'nationalId'] as const;
export type MatchFieldName = (typeof MATCH_FIELDS)[number];

export type Outcome = 'agree' | 'partial' | 'disagree' | 'missing';

export interface FieldParameters {
  m: number;
  u: number;
  /** For string comparators: the similarity at which partial agreement starts (below it: disagreement). */
  partialFrom?: number;
}

export interface MatchParameters {
  thresholds: { autoLink: number; review: number };
  fields: Record<MatchFieldName, FieldParameters>;
  maxBlockedCandidates: number;
}

/** The parameters shipped in matching.json, with thresholds a deployment may override. */
export function matchParameters(overrides: { autoLink?: number; review?: number } = {}): MatchParameters {
  const p = parameters as unknown as MatchParameters;
  const thresholds = { autoLink: overrides.autoLink ?? p.thresholds.autoLink, review: overrides.review ?? p.thresholds.review };
  if (!(thresholds.review > 0 && thresholds.review < thresholds.autoLink && thresholds.autoLink <= 1)) {
    throw new Error(`MPI thresholds must satisfy 0 < review (${thresholds.review}) < auto-link (${thresholds.autoLink}) <= 1`);
  }
  for (const f of MATCH_FIELDS) {
    const { m, u } = p.fields[f];
    if (!(m > u && m < 1 && u > 0)) throw new Error(`MPI field ${f}: need 0 < u < m < 1`);
  }
  return { ...p, thresholds };
}

/** A record as the matcher compares it: normalized once, when it is indexed (or when a query arrives). */
export interface MatchRecord {
  givenName: string;
  familyName: string;
  /** YYYY-MM-DD */
  birthDate: string;
  gender: 'male' | 'female' | null;
  /** E.164 */
  phone: string | null;
  nationalId: string | null;
  nationalIdCountry: string | null;
}

export interface RawDemographics {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender?: string | null;
  phone?: string | null;
  nationalId?: string | null;
  nationalIdCountry?: string | null;
}

/** Lower case, accents and punctuation removed, inner whitespace collapsed: "  N'Diaye-Sarr " -> "ndiaye sarr". */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[-_.,]+/g, ' ')
    .replace(/[^\p{L}\s]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** E.164 when the number is valid (numbers without a country code are read as `defaultCountry`'s). */
export function normalizePhone(phone: string | null | undefined, defaultCountry?: string | null): string | null {
  if (!phone) return null;
  const parsed = parsePhoneNumberFromString(phone, (defaultCountry ?? undefined) as never);
  return parsed?.isValid() ? parsed.number : null;
}

/** Upper case, without spaces, dashes, dots and slashes: "GHA-123456789-0" -> "GHA1234567890". */
export function normalizeNationalId(id: string | null | undefined): string | null {
  const v = id?.toUpperCase().replace(/[\s\-./]+/g, '') ?? '';
  return v || null;
}

export function toMatchRecord(d: RawDemographics): MatchRecord {
  const gender = d.gender?.toLowerCase();
  const nationalId = normalizeNationalId(d.nationalId);
  return {
    givenName: normalizeName(d.firstName),
    familyName: normalizeName(d.lastName),
    birthDate: d.dateOfBirth,
    gender: gender === 'male' || gender === 'female' ? gender : null,
    phone: normalizePhone(d.phone, d.nationalIdCountry),
    nationalId,
    nationalIdCountry: nationalId ? (d.nationalIdCountry?.toUpperCase() ?? null) : null,
  };
}

/** Double Metaphone codes of every word of a name, primary and alternate, without repeats. */
export function phoneticCodes(name: string): string[] {
  const codes = new Set<string>();
  for (const word of name.split(' ')) {
    if (!word) continue;
    const [primary, alternate] = doubleMetaphone(word);
    if (primary) codes.add(primary);
    if (alternate) codes.add(alternate);
  }
  return [...codes];
}

/**
 * Blocking keys: a record is compared only with records sharing one of them. Phonetic family name with birth year,
 * phonetic given name with birth year (a married name), both phonetic names (a wrong birth year), the birth date
 * itself (typos in both names), the phone and the national id. `forQuery` adds the birth date with day and month
 * swapped, so a transposed date still meets its record.
 */
export function blockingKeys(r: MatchRecord, forQuery = false): string[] {
  const keys = new Set<string>();
  const year = r.birthDate.slice(0, 4);
  const family = phoneticCodes(r.familyName);
  const given = phoneticCodes(r.givenName);
  for (const f of family) keys.add(`fy:${f}:${year}`);
  for (const g of given) keys.add(`gy:${g}:${year}`);
  for (const f of family) for (const g of given) keys.add(`fg:${f}:${g}`);
  keys.add(`d:${r.birthDate}`);
  if (forQuery) {
    const swapped = swapDayMonth(r.birthDate);
    if (swapped) keys.add(`d:${swapped}`);
  }
  if (r.phone) keys.add(`p:${r.phone}`);
  if (r.nationalId) keys.add(`n:${r.nationalIdCountry ?? ''}:${r.nationalId}`);
  return [...keys];
}

function swapDayMonth(date: string): string | null {
  const [y, m, d] = date.split('-');
  if (!d || m === d || Number(d) > 12) return null;
  return `${y}-${d}-${m}`;
}

/** Damerau-Levenshtein distance of at most one (one substitution, insertion, deletion or adjacent transposition). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff: number[] = [];
    for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

interface Compared {
  outcome: Outcome;
  /** Similarity in [0, 1] (1 for agreement, 0 for disagreement); null when missing. */
  similarity: number | null;
  /** Where between the disagreement (0) and agreement (1) weights the field lands. */
  level: number | null;
}

const missing: Compared = { outcome: 'missing', similarity: null, level: null };
const agree: Compared = { outcome: 'agree', similarity: 1, level: 1 };
const disagree = (similarity = 0): Compared => ({ outcome: 'disagree', similarity, level: 0 });
const partial = (similarity: number, level: number): Compared => ({ outcome: 'partial', similarity, level });

/** Jaro-Winkler of the whole names and of their best pair of words; partial agreement rises linearly from `from`. */
function compareNames(a: string, b: string, from: number): Compared {
  if (!a || !b) return missing;
  if (a === b) return agree;
  let best = jaroWinkler(a, b);
  const wa = a.split(' ');
  const wb = b.split(' ');
  if (wa.length > 1 || wb.length > 1) {
    // "mary jane" against "mary": a shared word is strong evidence, a little less than the whole name.
    for (const x of wa) for (const y of wb) best = Math.max(best, jaroWinkler(x, y) * 0.95);
  }
  const similarity = Math.round(best * 10000) / 10000;
  if (similarity >= 0.9999) return agree;
  if (similarity < from) return disagree(similarity);
  return partial(similarity, (similarity - from) / (1 - from));
}

/**
 * Birth dates: equal, or the kinds of error people make writing them: day and month swapped, one digit wrong or
 * two neighbours swapped, the year alone off by one. Anything else disagrees.
 */
export function compareBirthDates(a: string, b: string): Compared {
  if (!a || !b) return missing;
  if (a === b) return agree;
  if (swapDayMonth(a) === b) return partial(0.9, 0.85);
  const da = a.replace(/-/g, '');
  const db = b.replace(/-/g, '');
  if (da.length === db.length && withinOneEdit(da, db)) return partial(0.8, 0.7);
  if (a.slice(4) === b.slice(4) && Math.abs(Number(a.slice(0, 4)) - Number(b.slice(0, 4))) === 1) return partial(0.6, 0.5);
  return disagree();
}

function compareExact(a: string | null, b: string | null): Compared {
  if (!a || !b) return missing;
  return a === b ? agree : disagree();
}

function compareNationalIds(a: MatchRecord, b: MatchRecord): Compared {
  if (!a.nationalId || !b.nationalId) return missing;
  // Numbers issued by different countries say nothing about each other.
  if (a.nationalIdCountry && b.nationalIdCountry && a.nationalIdCountry !== b.nationalIdCountry) return missing;
  if (a.nationalId === b.nationalId) return agree;
  if (a.nationalId.length === b.nationalId.length && withinOneEdit(a.nationalId, b.nationalId)) return partial(0.9, 0.3);
  return disagree();
}

export interface FieldContribution {
  field: MatchFieldName;
  outcome: Outcome;
  similarity: number | null;
  /** Log-likelihood weight (bits): positive is evidence for the same person, negative against, 0 none. */
  weight: number;
  /** This field's share of the score; the shares add up to the score. */
  contribution: number;
}

export interface Comparison {
  /** In [0, 1]: 0 when every field disagrees, 1 when every field agrees. */
  score: number;
  /** The total log-likelihood weight, in bits. */
  weight: number;
  fields: FieldContribution[];
  /** Given and family names were written the other way round in one of the records. */
  namesSwapped: boolean;
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

function weights(p: FieldParameters) {
  return { agree: Math.log2(p.m / p.u), disagree: Math.log2((1 - p.m) / (1 - p.u)) };
}

/** Compares two records field by field. */
export function compare(a: MatchRecord, b: MatchRecord, params: MatchParameters): Comparison {
  const f = params.fields;
  let given = compareNames(a.givenName, b.givenName, f.givenName.partialFrom ?? 0.7);
  let family = compareNames(a.familyName, b.familyName, f.familyName.partialFrom ?? 0.7);
  let namesSwapped = false;
  if (given.outcome === 'disagree' && family.outcome === 'disagree') {
    const g2 = compareNames(a.givenName, b.familyName, f.givenName.partialFrom ?? 0.7);
    const f2 = compareNames(a.familyName, b.givenName, f.familyName.partialFrom ?? 0.7);
    if ((g2.level ?? 0) >= 0.8 && (f2.level ?? 0) >= 0.8) {
      // The same names in the other order: counted, a little below plain agreement.
      given = partial(g2.similarity!, g2.level! * 0.9);
      family = partial(f2.similarity!, f2.level! * 0.9);
      namesSwapped = true;
    }
  }
  const compared: Record<MatchFieldName, Compared> = {
    givenName: given,
    familyName: family,
    birthDate: compareBirthDates(a.birthDate, b.birthDate),
    gender: compareExact(a.gender, b.gender),
    phone: compareExact(a.phone, b.phone),
    nationalId: compareNationalIds(a, b),
  };
  let min = 0;
  let max = 0;
  let total = 0;
  const raw = MATCH_FIELDS.map((field) => {
    const w = weights(f[field]);
    min += w.disagree;
    max += w.agree;
    const c = compared[field];
    const weight = c.level === null ? 0 : w.disagree + (w.agree - w.disagree) * c.level;
    total += weight;
    return { field, c, weight, floor: w.disagree };
  });
  const range = max - min;
  return {
    score: round((total - min) / range),
    weight: round(total, 3),
    namesSwapped,
    fields: raw.map(({ field, c, weight, floor }) => ({
      field,
      outcome: c.outcome,
      similarity: c.similarity === null ? null : round(c.similarity),
      weight: round(weight, 3),
      contribution: round((weight - floor) / range),
    })),
  };
}

export type Classification = 'auto_link' | 'review' | 'none';

/**
 * What the score alone suggests; the index decides with more (identifiers, twins, earlier human decisions):
 * above the auto-link threshold a link may be made without a person, between the thresholds a person reviews.
 */
export function classify(score: number, params: MatchParameters): Classification {
  if (score >= params.thresholds.autoLink) return 'auto_link';
  if (score >= params.thresholds.review) return 'review';
  return 'none';
}

/**
 * Possible twins: the same birth date and family name, different given names, and no shared national id (twins
 * never share one). Such a pair is never linked without a person, whatever its score.
 */
export function possibleTwins(a: MatchRecord, b: MatchRecord): boolean {
  if (a.nationalId && a.nationalId === b.nationalId && (a.nationalIdCountry ?? '') === (b.nationalIdCountry ?? '')) return false;
  return a.birthDate === b.birthDate && a.familyName === b.familyName && a.givenName !== b.givenName;
}
