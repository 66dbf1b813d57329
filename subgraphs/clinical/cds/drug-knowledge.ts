import allergyData from './data/drug-allergy-classes.json';
import interactionData from './data/drug-interactions.json';
import vocabulary from './data/drug-vocabulary.json';

/**
 * The drug knowledge decision support checks against: a vocabulary of ingredients (RxNorm names and codes, brand
 * names, classes), interaction rules between ingredients or classes, and drug allergy classes with their
 * cross-reactivity. Everything here is pure; the rules themselves live in the database (seeded from
 * data/drug-interactions.json, upserted by administrators) and are passed in.
 */

export const SEVERITIES = ['contraindicated', 'major', 'moderate', 'minor'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** Higher is worse. */
export const severityRank = (s: Severity): number => SEVERITIES.length - SEVERITIES.indexOf(s);

export interface Ingredient {
  key: string;
  name: string;
  rxcui: string[];
  classes: string[];
  brands: string[];
  synonyms: string[];
}

export const INGREDIENTS: readonly Ingredient[] = vocabulary.ingredients;
export const DRUG_CLASSES: Readonly<Record<string, string>> = vocabulary.classes;
export const VOCABULARY_SOURCE = { source: vocabulary.source, licence: vocabulary.licence };
export const INTERACTION_SOURCE = { source: interactionData.source, licence: interactionData.licence };
export const ALLERGY_SOURCE = { source: allergyData.source, licence: allergyData.licence };

const byKey = new Map(INGREDIENTS.map((i) => [i.key, i]));
const byRxcui = new Map(INGREDIENTS.flatMap((i) => i.rxcui.map((code) => [code, i] as const)));

export function ingredient(key: string): Ingredient | undefined {
  return byKey.get(key);
}

/** Lower case, accents and apostrophes dropped, anything else that is not a letter or digit a space. */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Every name a drug is written by (ingredient, key, synonym, brand, product) -> its ingredients. */
const TERMS = new Map<string, string[]>();
const addTerm = (term: string, keys: string[]) => {
  const t = normalizeName(term);
  if (t && !TERMS.has(t)) TERMS.set(t, keys);
};
for (const i of INGREDIENTS) {
  for (const term of [i.name, i.key.replace(/_/g, ' '), ...i.synonyms, ...i.brands]) addTerm(term, [i.key]);
}
for (const p of vocabulary.products) addTerm(p.name, p.ingredients);
const LONGEST_TERM = Math.max(...[...TERMS.keys()].map((t) => t.split(' ').length));

/** The known drug names found in a free text ("Warfarin 5 mg tablets", "Augmentin 625"), longest first, in order. */
export function findTerms(text: string, terms: Map<string, string[]> = TERMS, longest = LONGEST_TERM): string[][] {
  const words = normalizeName(text).split(' ').filter(Boolean);
  const found: string[][] = [];
  for (let i = 0; i < words.length;) {
    let matched = 0;
    for (let n = Math.min(longest, words.length - i); n > 0; n--) {
      const hit = terms.get(words.slice(i, i + n).join(' '));
      if (hit) {
        found.push(hit);
        matched = n;
        break;
      }
    }
    i += matched || 1;
  }
  return found;
}

export interface ResolvedMedication {
  /** Position in the request. */
  index: number;
  name: string | null;
  rxcui: string | null;
  ingredients: Ingredient[];
  matchedBy: 'rxcui' | 'name' | null;
}

/**
 * A medication entry's ingredients: by its RxNorm code when the vocabulary knows it, else by the drug names found
 * in its name (ingredient, brand or product, any letter case, strength and form ignored). None: unrecognised.
 */
export function resolveMedication(index: number, name: string | null | undefined, rxcui: string | null | undefined): ResolvedMedication {
  const code = rxcui?.trim() || null;
  const text = name?.trim() || null;
  const base = { index, name: text, rxcui: code };
  const byCode = code ? byRxcui.get(code) : undefined;
  if (byCode) return { ...base, ingredients: [byCode], matchedBy: 'rxcui' };
  const keys = [...new Set(text ? findTerms(text).flat() : [])];
  if (keys.length) return { ...base, ingredients: keys.map((k) => byKey.get(k)!), matchedBy: 'name' };
  return { ...base, ingredients: [], matchedBy: null };
}

/** What a side of a rule names: an ingredient key, or `class:<class>`. */
export const classSide = (c: string) => `class:${c}`;

/** A rule side as written by an administrator (ingredient, brand, RxNorm code or class) -> its canonical key. */
export function canonicalSide(text: string): { key: string; known: boolean } | null {
  const raw = text.trim();
  if (!raw) return null;
  const lower = raw.toLowerCase();
  if (lower.startsWith('class:')) {
    const c = lower
      .slice(6)
      .trim()
      .replace(/[\s-]+/g, '_');
    return c in DRUG_CLASSES ? { key: classSide(c), known: true } : null;
  }
  const code = byRxcui.get(raw);
  if (code) return { key: code.key, known: true };
  const whole = TERMS.get(normalizeName(raw));
  if (whole?.length === 1) return { key: whole[0], known: true };
  if (whole) return null; // a product of several ingredients names no single side
  // A drug the vocabulary does not know yet: its normalized name becomes the key, matched by name in checks.
  const key = normalizeName(raw).replace(/ /g, '_');
  return /^[a-z0-9_]{2,80}$/.test(key) ? { key, known: false } : null;
}

/** The unordered pair a rule is stored under. */
export function pairKey(a: string, b: string): string {
  return a <= b ? `${a}|${b}` : `${b}|${a}`;
}

/** The sides a drug matches rules on: itself, then each of its classes. */
export function sidesOf(i: Pick<Ingredient, 'key' | 'classes'>): string[] {
  return [i.key, ...i.classes.map(classSide)];
}

export interface InteractionRule {
  id: string;
  sideA: string;
  sideB: string;
  severity: Severity;
  description: string;
  recommendation: string;
  source: string;
}

export interface FoundInteraction {
  rule: InteractionRule;
  severity: Severity;
  /** The two medication entries, as the caller named them. */
  entries: [ResolvedMedication, ResolvedMedication];
  ingredients: [Ingredient, Ingredient];
  /** Whether the rule names both ingredients, one of them, or only classes. */
  basis: 'ingredients' | 'ingredient_and_class' | 'classes';
}

const BASIS = ['classes', 'ingredient_and_class', 'ingredients'] as const;

/**
 * The interactions between medication entries. For each pair of ingredients of two different entries, the most
 * specific rule wins (one naming both ingredients over one naming a class, over two classes: an administrator's
 * rule for a pair overrides the class rules), then the most severe, then the first by key.
 */
export function findInteractions(meds: ResolvedMedication[], rules: Map<string, InteractionRule>): FoundInteraction[] {
  const found: FoundInteraction[] = [];
  for (let i = 0; i < meds.length; i++) {
    for (let j = i + 1; j < meds.length; j++) {
      for (const x of meds[i].ingredients) {
        for (const y of meds[j].ingredients) {
          if (x.key === y.key) continue; // the same drug twice is a duplicate, not an interaction
          let best: { rule: InteractionRule; specificity: number; key: string } | undefined;
          for (const sx of sidesOf(x)) {
            for (const sy of sidesOf(y)) {
              const key = pairKey(sx, sy);
              const rule = rules.get(key);
              if (!rule) continue;
              const specificity = Number(!sx.startsWith('class:')) + Number(!sy.startsWith('class:'));
              const better =
                !best ||
                specificity > best.specificity ||
                (specificity === best.specificity &&
                  (severityRank(rule.severity) > severityRank(best.rule.severity) ||
                    (rule.severity === best.rule.severity && key < best.key)));
              if (better) best = { rule, specificity, key };
            }
          }
          if (best) {
            found.push({
              rule: best.rule,
              severity: best.rule.severity,
              entries: [meds[i], meds[j]],
              ingredients: [x, y],
              basis: BASIS[best.specificity],
            });
          }
        }
      }
    }
  }
  return found.sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
}

/** Every key a set of medications may meet rules on, to load only those rules. */
export function ruleSides(meds: ResolvedMedication[]): string[] {
  return [...new Set(meds.flatMap((m) => m.ingredients.flatMap(sidesOf)))];
}

/** Entries naming the same ingredient more than once (duplicate therapy). */
export function findDuplicates(meds: ResolvedMedication[]): { ingredient: Ingredient; entries: ResolvedMedication[] }[] {
  const by = new Map<string, ResolvedMedication[]>();
  for (const m of meds) for (const i of m.ingredients) by.set(i.key, [...(by.get(i.key) ?? []), m]);
  return [...by.entries()].filter(([, list]) => list.length > 1).map(([key, entries]) => ({ ingredient: byKey.get(key)!, entries }));
}

// ---- Drug allergies ----

interface AllergyGroup {
  class: string;
  terms: string[];
  recommendation: string;
  cross_reactive: { class: string; severity: string; description: string; recommendation: string }[];
}

const GROUPS: readonly AllergyGroup[] = allergyData.groups;
const groupByClass = new Map(GROUPS.map((g) => [g.class, g]));
const GROUP_TERMS = new Map<string, string[]>();
for (const g of GROUPS) for (const t of g.terms) GROUP_TERMS.set(normalizeName(t), [g.class]);
const LONGEST_GROUP_TERM = Math.max(...[...GROUP_TERMS.keys()].map((t) => t.split(' ').length));

export interface RecordedAllergy {
  id: string;
  substance: string;
  /** allergy or intolerance */
  type: string;
  reaction?: string | null;
  criticality?: string | null;
}

export interface AllergenProfile {
  ingredients: Ingredient[];
  /** Allergy classes (those with a group) the allergy covers. */
  classes: string[];
}

/** What a recorded allergy covers: the drugs it names, and the allergy classes of those drugs or named outright. */
export function allergenOf(substance: string): AllergenProfile {
  const named = findTerms(substance, GROUP_TERMS, LONGEST_GROUP_TERM).flat();
  const ingredients = [...new Set(findTerms(substance).flat())].map((k) => byKey.get(k)!);
  const classes = new Set(named);
  for (const i of ingredients) for (const c of i.classes) if (groupByClass.has(c)) classes.add(c);
  return { ingredients, classes: [...classes] };
}

export interface AllergyConflict {
  allergy: RecordedAllergy;
  entry: ResolvedMedication;
  ingredient: Ingredient;
  severity: Severity;
  /** same_drug, same_class or cross_reactive */
  basis: 'same_drug' | 'same_class' | 'cross_reactive';
  allergyClass: string | null;
  description: string;
  recommendation: string;
}

/**
 * Medications that conflict with recorded allergies: the allergen itself or a drug of its class is contraindicated
 * (major when the record is an intolerance rather than an allergy); a drug of a cross-reactive class takes the
 * severity the guidance gives. One conflict per medication and allergy, the most severe.
 */
export function findAllergyConflicts(meds: ResolvedMedication[], allergies: RecordedAllergy[]): AllergyConflict[] {
  const out: AllergyConflict[] = [];
  for (const allergy of allergies) {
    const profile = allergenOf(allergy.substance);
    if (!profile.ingredients.length && !profile.classes.length) continue;
    const intolerance = allergy.type === 'intolerance';
    const direct = (s: Severity): Severity => (intolerance && s === 'contraindicated' ? 'major' : s);
    for (const entry of meds) {
      let best: AllergyConflict | undefined;
      const consider = (c: AllergyConflict) => {
        if (!best || severityRank(c.severity) > severityRank(best.severity)) best = c;
      };
      for (const ing of entry.ingredients) {
        const what = `${ing.name} (${entry.name ?? ing.name})`;
        if (profile.ingredients.some((a) => a.key === ing.key)) {
          consider({
            allergy,
            entry,
            ingredient: ing,
            severity: direct('contraindicated'),
            basis: 'same_drug',
            allergyClass: null,
            description: `${what} is the substance of the recorded ${allergy.type}: ${allergy.substance}${allergy.reaction ? ` (${allergy.reaction})` : ''}.`,
            recommendation: `Do not give ${ing.name}; choose a drug of another class.`,
          });
        }
        for (const c of ing.classes) {
          const group = groupByClass.get(c);
          if (group && profile.classes.includes(c)) {
            consider({
              allergy,
              entry,
              ingredient: ing,
              severity: direct('contraindicated'),
              basis: 'same_class',
              allergyClass: c,
              description: `${what} belongs to the ${DRUG_CLASSES[c].toLowerCase()}; the patient has a recorded ${allergy.type} to ${allergy.substance}${allergy.reaction ? ` (${allergy.reaction})` : ''}.`,
              recommendation: group.recommendation,
            });
          }
          for (const ac of profile.classes) {
            const cross = groupByClass.get(ac)?.cross_reactive.find((x) => x.class === c);
            if (cross) {
              consider({
                allergy,
                entry,
                ingredient: ing,
                severity: cross.severity as Severity,
                basis: 'cross_reactive',
                allergyClass: ac,
                description: `${what} belongs to the ${DRUG_CLASSES[c].toLowerCase()}, which may cross-react with the recorded ${allergy.type} to ${allergy.substance}. ${cross.description}`,
                recommendation: cross.recommendation,
              });
            }
          }
        }
      }
      if (best) out.push(best);
    }
  }
  return out.sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
}

// ---- The shipped rules, seeded into the database ----

export interface ShippedRule {
  a: string;
  b: string;
  severity: Severity;
  description: string;
  recommendation: string;
  source: string;
}

export const SHIPPED_RULES: readonly ShippedRule[] = interactionData.rules as ShippedRule[];
export const SEVERITY_MEANINGS: Readonly<Record<Severity, string>> = interactionData.severities;
