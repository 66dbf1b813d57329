import { VITAL_SIGNS } from '../vitals/vital.entity';
import allergens from './terminology/allergens.json';
import medicines from './terminology/essential-medicines.json';
import icd10 from './terminology/icd10-subset.json';

/**
 * The built-in extractor: deterministic, offline, from the terminology in ./terminology (each file names its source
 * and licence). It reads a consultation's text and proposes structured facts, each with the span of text it came from
 * and a confidence between 0 and 1: vital signs, allergies (with the reaction), medications (dose, unit, route,
 * frequency, duration), problems with ICD-10-CM codes, and planned follow-ups. It proposes; a clinician decides.
 *
 * What it does not propose: what is negated ("no fever", "not allergic to ..."), a family history, a medicine being
 * stopped, a medicine without a dose and a frequency (no prescription could be written from it), and values outside
 * the plausible ranges the vitals module holds measurements to.
 */
export const EXTRACTOR_VERSION = 'builtin-2026.1';

export type ItemKind = 'medication' | 'allergy' | 'vital_sign' | 'problem' | 'follow_up';
export type VitalSignKind = 'blood_pressure' | 'heart_rate' | 'temperature' | 'respiratory_rate' | 'oxygen_saturation' | 'weight';
export type MedicationAction = 'start' | 'continue' | 'unspecified';
export type AllergyCategory = 'food' | 'medication' | 'environment' | 'biologic';

export interface TextSpan {
  start: number;
  end: number;
  text: string;
}

export interface ProposedMedication {
  name: string;
  rxnormCode: string;
  dose: number;
  unit: string;
  route: string | null;
  frequency: string;
  frequencyCode: string;
  duration: string | null;
  action: MedicationAction;
}

export interface ProposedAllergy {
  substance: string;
  reaction: string | null;
  category: AllergyCategory | null;
  codeSystem: 'RxNorm' | 'ATC' | null;
  code: string | null;
}

export interface ProposedVitalSign {
  sign: VitalSignKind;
  value: number;
  /** The diastolic pressure of a blood pressure. */
  secondValue: number | null;
  unit: string;
}

export interface ProposedProblem {
  name: string;
  icd10Code: string;
  icd10Display: string;
}

export interface ProposedFollowUp {
  description: string;
  intervalDays: number;
  dueDate: string;
}

export interface ProposedItem {
  kind: ItemKind;
  span: TextSpan;
  confidence: number;
  display: string;
  medication: ProposedMedication | null;
  allergy: ProposedAllergy | null;
  vitalSign: ProposedVitalSign | null;
  problem: ProposedProblem | null;
  followUp: ProposedFollowUp | null;
}

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Lowercases ASCII letters only, so every offset in the copy is the same offset in the text. */
const lowerSameLength = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
};
const NUMBER = `(\\d+|${Object.keys(NUMBER_WORDS).join('|')})`;
const numberOf = (word: string) => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word]);

/** A vocabulary term and what it stands for, matched as a whole word. */
interface Term<T> {
  term: string;
  value: T;
}

/** Every occurrence of any term in `lower`, longest first, never two overlapping. */
function findTerms<T>(lower: string, terms: Term<T>[]): { start: number; end: number; value: T; term: string }[] {
  const sorted = [...terms].sort((a, b) => b.term.length - a.term.length);
  const taken: { start: number; end: number; value: T; term: string }[] = [];
  for (const t of sorted) {
    const re = new RegExp(`(?<![a-z0-9])${escape(t.term)}(?![a-z0-9])`, 'g');
    for (const m of lower.matchAll(re)) {
      const start = m.index!;
      const end = start + t.term.length;
      if (taken.some((x) => start < x.end && end > x.start)) continue;
      taken.push({ start, end, value: t.value, term: t.term });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

interface Medicine {
  name: string;
  rxcui: string;
  synonyms: string[];
  class?: string;
}
const MEDICINES: Medicine[] = medicines.entries;
const MEDICINE_TERMS: Term<Medicine>[] = MEDICINES.flatMap((m) =>
  [m.name, ...m.synonyms].map((term) => ({ term: term.toLowerCase(), value: m })),
);

interface AllergyClass {
  class: string;
  name: string;
  terms: string[];
  atc: string;
}
interface Substance {
  name: string;
  category: string;
  terms: string[];
}
type Allergen =
  { kind: 'class'; cls: AllergyClass } | { kind: 'medicine'; medicine: Medicine } | { kind: 'substance'; substance: Substance };
const ALLERGEN_TERMS: Term<Allergen>[] = [
  ...(allergens.classes as AllergyClass[]).flatMap((cls) => cls.terms.map((term) => ({ term, value: { kind: 'class', cls } as Allergen }))),
  ...MEDICINE_TERMS.map((t) => ({ term: t.term, value: { kind: 'medicine', medicine: t.value } as Allergen })),
  ...(allergens.substances as Substance[]).flatMap((substance) =>
    substance.terms.map((term) => ({ term, value: { kind: 'substance', substance } as Allergen })),
  ),
];
const REACTIONS: string[] = [...allergens.reactions].sort((a, b) => b.length - a.length);

interface Diagnosis {
  code: string;
  display: string;
  terms: string[];
  uncertain?: string[];
}
const DIAGNOSES: Diagnosis[] = icd10.entries;
const DIAGNOSIS_TERMS: Term<Diagnosis>[] = DIAGNOSES.flatMap((d) => d.terms.map((term) => ({ term, value: d })));

/** Sentence boundaries: a full stop, question or exclamation mark before a space or the end, a semicolon, a new line. */
function sentenceAt(lower: string, index: number): { start: number; end: number } {
  const boundary = /[.!?](?=\s|$)|[;\n]/g;
  let start = 0;
  for (const m of lower.matchAll(boundary)) {
    const at = m.index!;
    if (at < index) start = at + 1;
    else return { start, end: at };
  }
  return { start, end: lower.length };
}

const NEGATION =
  /\b(no|not|denies|denied|without|negative for|ruled out|rule out|r\/o|no history of|no signs of|no evidence of|never had)\b[^.;\n]{0,25}$/;
const FAMILY = /\b(family history of|mother|father|sister|brother|parents?)\b[^.;\n]{0,30}$/;

function span(text: string, start: number, end: number): TextSpan {
  return { start, end, text: text.slice(start, end) };
}

function item(kind: ItemKind, s: TextSpan, confidence: number, display: string, detail: Partial<ProposedItem>): ProposedItem {
  return {
    kind,
    span: s,
    confidence: round(Math.min(confidence, 0.99)),
    display,
    medication: null,
    allergy: null,
    vitalSign: null,
    problem: null,
    followUp: null,
    ...detail,
  };
}

// --- vital signs ---------------------------------------------------------------------------------------------------

/** Words allowed between a vital sign's name and its value ("BP is 150/95", "pulse of 88", "SpO2: 97%"). */
const GAP = String.raw`\s*(?:(?:is|was|of|at|reads|reading|measured|now|today|around|about|approximately|[:=~-])\s*){0,3}`;

const within = (sign: keyof typeof VITAL_SIGNS, value: number) => value >= VITAL_SIGNS[sign].min && value <= VITAL_SIGNS[sign].max;

function vitalSigns(text: string, lower: string): ProposedItem[] {
  const out: ProposedItem[] = [];
  const push = (m: RegExpMatchArray, confidence: number, vital: ProposedVitalSign, display: string) => {
    const start = m.index!;
    if (out.some((o) => start < o.span.end && start + m[0].length > o.span.start)) return;
    out.push(item('vital_sign', span(text, start, start + m[0].length), confidence, display, { vitalSign: vital }));
  };
  const bp = (systolic: number, diastolic: number) =>
    within('bloodPressureSystolic', systolic) && within('bloodPressureDiastolic', diastolic) && diastolic < systolic;
  for (const m of lower.matchAll(
    new RegExp(String.raw`\b(?:bp|b\.p\.|blood pressure)${GAP}(\d{2,3})\s*(?:\/|over)\s*(\d{2,3})(?:\s*mm\s*hg)?`, 'g'),
  )) {
    const [s, d] = [Number(m[1]), Number(m[2])];
    if (bp(s, d)) push(m, 0.95, { sign: 'blood_pressure', value: s, secondValue: d, unit: 'mmHg' }, `Blood pressure ${s}/${d} mmHg`);
  }
  for (const m of lower.matchAll(/\b(\d{2,3})\s*\/\s*(\d{2,3})\s*mm\s*hg\b/g)) {
    const [s, d] = [Number(m[1]), Number(m[2])];
    if (bp(s, d)) push(m, 0.8, { sign: 'blood_pressure', value: s, secondValue: d, unit: 'mmHg' }, `Blood pressure ${s}/${d} mmHg`);
  }
  for (const m of lower.matchAll(
    new RegExp(
      String.raw`\b(?:pulse(?: rate)?|heart rate|hr)${GAP}(\d{2,3})(?:\s*(?:bpm|beats per minute|beats a minute|\/min|per minute))?`,
      'g',
    ),
  )) {
    const v = Number(m[1]);
    if (within('heartRate', v)) push(m, 0.9, { sign: 'heart_rate', value: v, secondValue: null, unit: '/min' }, `Pulse ${v}/min`);
  }
  const temperature = new RegExp(
    String.raw`\b(?:temperature|temp)${GAP}(\d{2,3}(?:\.\d+)?)(?:\s*(?:°|degrees?))?(?:\s*(celsius|centigrade|fahrenheit|c|f)\b)?`,
    'g',
  );
  for (const m of lower.matchAll(temperature)) {
    const raw = Number(m[1]);
    const fahrenheit = m[2] === 'f' || m[2] === 'fahrenheit' || (!m[2] && raw > 45);
    const v = fahrenheit ? round(((raw - 32) * 5) / 9, 1) : raw;
    if (within('temperature', v))
      push(m, m[2] || !fahrenheit ? 0.9 : 0.75, { sign: 'temperature', value: v, secondValue: null, unit: 'Cel' }, `Temperature ${v} °C`);
  }
  for (const m of lower.matchAll(
    new RegExp(String.raw`\b(?:respiratory rate|resp(?:iration)? rate|rr|respirations?|breathing rate)${GAP}(\d{1,2})\b`, 'g'),
  )) {
    const v = Number(m[1]);
    if (within('respiratoryRate', v))
      push(m, 0.85, { sign: 'respiratory_rate', value: v, secondValue: null, unit: '/min' }, `Respiratory rate ${v}/min`);
  }
  const saturation = new RegExp(
    String.raw`\b(?:spo2|sp02|sao2|o2 sats?|o2 saturation|oxygen saturation|oxygen sats?|sats|saturating|saturation)${GAP}(\d{2,3})\s*(?:%|percent)?`,
    'g',
  );
  for (const m of lower.matchAll(saturation)) {
    const v = Number(m[1]);
    if (within('oxygenSaturation', v)) push(m, 0.9, { sign: 'oxygen_saturation', value: v, secondValue: null, unit: '%' }, `SpO2 ${v}%`);
  }
  for (const m of lower.matchAll(
    new RegExp(String.raw`\b(?:weight|weighs|weighing|wt)${GAP}(\d{1,3}(?:\.\d+)?)\s*(kgs?|kilos?|kilograms?|lbs?|pounds?)\b`, 'g'),
  )) {
    const raw = Number(m[1]);
    const v = /^(lb|pound)/.test(m[2]) ? round(raw * 0.45359237, 1) : raw;
    if (within('weightKg', v)) push(m, 0.9, { sign: 'weight', value: v, secondValue: null, unit: 'kg' }, `Weight ${v} kg`);
  }
  return out;
}

// --- allergies -----------------------------------------------------------------------------------------------------

const ALLERGY_TRIGGER =
  /\b(?:is |are |was )?(?:allergic (?:reaction )?to|allerg(?:y|ies) to|known allerg(?:y|ies) to|allergies(?: include)?\s*:)\s*/g;
const SEPARATOR = /^(?:\s*(?:,|and|or|&|\/)\s*|\s+)/;

function allergenItem(a: Allergen, said: string): Omit<ProposedAllergy, 'reaction'> {
  switch (a.kind) {
    case 'class':
      return { substance: capitalize(said), category: 'medication', codeSystem: 'ATC', code: a.cls.atc };
    case 'medicine':
      return { substance: capitalize(a.medicine.name), category: 'medication', codeSystem: 'RxNorm', code: a.medicine.rxcui };
    case 'substance':
      return { substance: capitalize(a.substance.name), category: a.substance.category as AllergyCategory, codeSystem: null, code: null };
  }
}

function allergies(text: string, lower: string): ProposedItem[] {
  const out: ProposedItem[] = [];
  for (const m of lower.matchAll(ALLERGY_TRIGGER)) {
    const triggerStart = m.index!;
    const sentence = sentenceAt(lower, triggerStart);
    if (NEGATION.test(lower.slice(sentence.start, triggerStart))) continue;
    let at = triggerStart + m[0].length;
    const found: { allergy: Omit<ProposedAllergy, 'reaction'>; start: number; end: number; known: boolean }[] = [];
    while (at < sentence.end) {
      const rest = lower.slice(at, sentence.end);
      const hit = findTerms(rest, ALLERGEN_TERMS).find((t) => t.start === 0);
      if (hit) {
        found.push({ allergy: allergenItem(hit.value, text.slice(at, at + hit.end)), start: at, end: at + hit.end, known: true });
        at += hit.end;
      } else if (!found.length) {
        // A substance the terminology does not know ("allergic to kiwi"): its words, up to a comma or the clause's end.
        const unknown = /^[a-z][a-z' -]{1,40}?(?=\s*(?:,|\(|$|\b(?:and|or|with|which|causing|causes|gives|caused)\b))/.exec(rest);
        if (!unknown) break;
        found.push({
          allergy: { substance: capitalize(text.slice(at, at + unknown[0].length).trim()), category: null, codeSystem: null, code: null },
          start: at,
          end: at + unknown[0].length,
          known: false,
        });
        at += unknown[0].length;
      } else break;
      const sep = SEPARATOR.exec(lower.slice(at, sentence.end));
      const after = at + (sep?.[0].length ?? 0);
      // Another substance follows only after a separator; a comma may also end the list ("..., start amoxicillin").
      if (!sep || !findTerms(lower.slice(after, sentence.end), ALLERGEN_TERMS).some((t) => t.start === 0)) break;
      at = after;
    }
    if (!found.length) continue;
    // The reaction: in brackets or after a linking word, before the next clause.
    const tail = lower.slice(found[found.length - 1].end, sentence.end);
    const clause = /^[^,]*/.exec(tail)![0];
    let reaction: string | null = null;
    let end = found[found.length - 1].end;
    for (const r of REACTIONS) {
      const re = new RegExp(`(?<![a-z])${escape(r)}(?![a-z])`);
      const rm = re.exec(clause);
      if (
        rm &&
        /\(|\b(causes?|caused|causing|gives?|gave|gets?|got|with|reaction|results? in|leads? to|-|:)\b|[-:(]/.test(
          clause.slice(0, rm.index) || ' -',
        )
      ) {
        reaction = text.slice(end + rm.index, end + rm.index + r.length);
        end = end + rm.index + r.length + (clause[rm.index + r.length] === ')' ? 1 : 0);
        break;
      }
    }
    for (const f of found) {
      const allergy: ProposedAllergy = { ...f.allergy, reaction };
      const confidence = (f.known ? 0.9 : 0.55) + (reaction ? 0.05 : 0);
      out.push(
        item(
          'allergy',
          span(text, triggerStart, found.length === 1 ? end : Math.max(f.end, end)),
          confidence,
          `Allergy: ${allergy.substance}${reaction ? ` (${reaction})` : ''}`,
          {
            allergy,
          },
        ),
      );
    }
  }
  return out;
}

// --- medications ---------------------------------------------------------------------------------------------------

const DOSE =
  /(\d+(?:\.\d+)?)\s*(mg|milligrams?|mcg|micrograms?|µg|ug|g|grams?|ml|millilit(?:re|er)s?|iu|units?|tablets?|tabs?|capsules?|caps?|puffs?|drops?)\b/;
const UNITS: [RegExp, string][] = [
  [/^(mg|milligrams?)$/, 'mg'],
  [/^(mcg|micrograms?|µg|ug)$/, 'mcg'],
  [/^(g|grams?)$/, 'g'],
  [/^(ml|millilit(re|er)s?)$/, 'mL'],
  [/^iu$/, 'IU'],
  [/^units?$/, 'units'],
  [/^(tablets?|tabs?)$/, 'tablet'],
  [/^(capsules?|caps?)$/, 'capsule'],
  [/^puffs?$/, 'puff'],
  [/^drops?$/, 'drop'],
];
const FREQUENCIES: [RegExp, string, string | ((m: RegExpMatchArray) => [string, string])][] = [
  [/\b(four times (a|per) day|four times daily|qds|qid)\b/, 'four times daily', 'QID'],
  [/\b(three times (a|per) day|three times daily|thrice daily|tds|tid)\b/, 'three times daily', 'TID'],
  [/\b(twice (a|per) day|twice daily|two times (a|per) day|two times daily|bd|bid)\b/, 'twice daily', 'BID'],
  [
    new RegExp(`\\bevery ${NUMBER} hours?\\b|\\bq(\\d+)h\\b`),
    '',
    (m) => {
      const n = numberOf(m[1] ?? m[2]);
      return [`every ${n} hours`, `Q${n}H`];
    },
  ],
  [/\b(at night|at bedtime|nightly|nocte|qhs)\b/, 'at bedtime', 'QHS'],
  [/\b(once (a|per) week|once weekly|weekly)\b/, 'once weekly', 'QW'],
  [/\b(once (a|per) day|once daily|daily|every day|od|qd)\b/, 'once daily', 'QD'],
  [/\b(as needed|when needed|as required|prn)\b/, 'as needed', 'PRN'],
  [/\b(stat|single dose|one dose|once only)\b/, 'once', 'ONCE'],
];
const ROUTES: [RegExp, string][] = [
  [/\b(by mouth|orally|oral|po|per os)\b/, 'oral'],
  [/\b(intravenous(ly)?|iv)\b/, 'intravenous'],
  [/\b(intramuscular(ly)?|im)\b/, 'intramuscular'],
  [/\b(subcutaneous(ly)?|subcut|sub-?q|sc)\b/, 'subcutaneous'],
  [/\b(inhaled|inhaler|inhalation|nebuli[sz]ed)\b/, 'inhalation'],
  [/\b(topical(ly)?|to the skin)\b/, 'topical'],
  [/\b(rectal(ly)?|per rectum)\b/, 'rectal'],
  [/\b(sublingual(ly)?|under the tongue)\b/, 'sublingual'],
];
const DURATION = new RegExp(`\\bfor (?:another |a further )?${NUMBER} (days?|weeks?|months?)\\b`);
const START =
  /\b(start(?:ing|ed)?|begin|commence|prescribe[ds]?|prescribing|give|giving|add(?:ing)?|rx|trial of|put (?:him|her|them|you) on|i'll put you on)\s+(?:(?:on|with|the|her|him|them|you|patient|oral|iv)\s+)*$/;
const CONTINUE =
  /\b(continue|continuing|remain on|stay on|keep on|keep taking|currently on|already on|taking|takes|is on|on)\s+(?:(?:his|her|their|the|your)\s+)*$/;
const STOP =
  /\b(stop|stopping|stopped|discontinue[ds]?|discontinuing|hold|holding|cease|ceased|off|come off|switch from|instead of)\s+(?:(?:his|her|their|the|your)\s+)*$/;
/** Where a medicine's details end: another fact begins. */
const NEXT_FACT =
  /\b(bp|blood pressure|pulse|heart rate|temperature|temp|spo2|sats|weight|allergic|allergy|allergies|follow[- ]?up|review in|come back)\b/;

function medications(text: string, lower: string, taken: TextSpan[]): ProposedItem[] {
  const out: ProposedItem[] = [];
  const mentions = findTerms(lower, MEDICINE_TERMS).filter((t) => !taken.some((s) => t.start < s.end && t.end > s.start));
  mentions.forEach((mention, i) => {
    const sentence = sentenceAt(lower, mention.start);
    const before = lower.slice(Math.max(sentence.start, mention.start - 40), mention.start);
    if (STOP.test(before) || NEGATION.test(lower.slice(sentence.start, mention.start))) return;
    const action: MedicationAction = START.test(before) ? 'start' : CONTINUE.test(before) ? 'continue' : 'unspecified';
    let windowEnd = Math.min(sentence.end, mentions[i + 1]?.start ?? sentence.end);
    const next = NEXT_FACT.exec(lower.slice(mention.end, windowEnd));
    if (next) windowEnd = mention.end + next.index;
    const window = lower.slice(mention.end, windowEnd);
    const dose = DOSE.exec(window);
    let frequency: { text: string; code: string; end: number } | null = null;
    for (const [re, label, code] of FREQUENCIES) {
      const m = re.exec(window);
      if (!m) continue;
      const [text2, code2] = typeof code === 'function' ? code(m) : [label, code];
      frequency = { text: text2, code: code2, end: m.index + m[0].length };
      break;
    }
    if (!dose || !frequency) return;
    let route: { name: string; end: number } | null = null;
    for (const [re, name] of ROUTES) {
      const m = re.exec(window);
      if (m) {
        route = { name, end: m.index + m[0].length };
        break;
      }
    }
    const duration = DURATION.exec(window);
    const unit = UNITS.find(([re]) => re.test(dose[2]))![1];
    const medicine = mention.value;
    const ends = [dose.index + dose[0].length, frequency.end, route?.end ?? 0, duration ? duration.index + duration[0].length : 0];
    const verb = action === 'start' ? (START.exec(before) ?? null) : null;
    const start = verb ? mention.start - before.length + verb.index : mention.start;
    const durationText = duration
      ? `${numberOf(duration[1])} ${duration[2].replace(/s$/, '')}${numberOf(duration[1]) === 1 ? '' : 's'}`
      : null;
    const medication: ProposedMedication = {
      name: capitalize(medicine.name),
      rxnormCode: medicine.rxcui,
      dose: Number(dose[1]),
      unit,
      route: route?.name ?? null,
      frequency: frequency.text,
      frequencyCode: frequency.code,
      duration: durationText,
      action,
    };
    const confidence = 0.55 + 0.15 + 0.15 + (route ? 0.05 : 0) + (duration ? 0.05 : 0) + (action !== 'unspecified' ? 0.05 : 0);
    const display = [
      medication.name,
      `${medication.dose} ${unit}`,
      route?.name,
      frequency.text,
      durationText ? `for ${durationText}` : null,
    ]
      .filter(Boolean)
      .join(' ');
    out.push(item('medication', span(text, start, mention.end + Math.max(...ends)), confidence, display, { medication }));
  });
  return out;
}

// --- problems ------------------------------------------------------------------------------------------------------

function problems(text: string, lower: string, taken: TextSpan[]): ProposedItem[] {
  const out: ProposedItem[] = [];
  const seen = new Set<string>();
  for (const hit of findTerms(lower, DIAGNOSIS_TERMS)) {
    if (taken.some((s) => hit.start < s.end && hit.end > s.start)) continue;
    const sentence = sentenceAt(lower, hit.start);
    const before = lower.slice(sentence.start, hit.start);
    if (NEGATION.test(before) || FAMILY.test(before)) continue;
    const d = hit.value;
    if (seen.has(d.code)) continue;
    seen.add(d.code);
    const uncertain = d.uncertain?.includes(hit.term);
    const abbreviation = hit.term.length <= 4 && !hit.term.includes(' ');
    const confidence = uncertain ? 0.6 : abbreviation ? 0.7 : 0.85;
    out.push(
      item('problem', span(text, hit.start, hit.end), confidence, `${d.display} (${d.code})`, {
        problem: { name: capitalize(text.slice(hit.start, hit.end)), icd10Code: d.code, icd10Display: d.display },
      }),
    );
  }
  return out;
}

// --- follow-ups ----------------------------------------------------------------------------------------------------

const FOLLOW_UP = /\b(follow[- ]?up|review|come back|return|see (?:you|him|her|them) (?:again|back)|recheck|re-check|revisit)\b/g;
const INTERVAL = new RegExp(`\\b(?:in|after|within)\\s+${NUMBER}\\s+(days?|weeks?|months?)\\b`);
const DAYS_PER: Record<string, number> = { day: 1, week: 7, month: 30 };

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function followUps(text: string, lower: string, today: string): ProposedItem[] {
  const out: ProposedItem[] = [];
  for (const m of lower.matchAll(FOLLOW_UP)) {
    const sentence = sentenceAt(lower, m.index!);
    if (out.some((o) => o.span.start <= m.index! && o.span.end >= m.index!)) continue;
    const interval = INTERVAL.exec(lower.slice(m.index!, sentence.end));
    if (!interval) continue;
    const count = numberOf(interval[1]);
    const unit = interval[2].replace(/s$/, '');
    const intervalDays = count * DAYS_PER[unit];
    const s = span(text, sentence.start, sentence.end);
    const trimmed = s.text.trimStart();
    const start = sentence.start + (s.text.length - trimmed.length);
    const description = trimmed.trimEnd();
    out.push(
      item('follow_up', span(text, start, start + description.length), 0.8, `Follow-up in ${count} ${unit}${count === 1 ? '' : 's'}`, {
        followUp: { description, intervalDays, dueDate: addDays(today, intervalDays) },
      }),
    );
  }
  return out;
}

/** The facts in `text`, in the order they appear. `today` (YYYY-MM-DD) dates the follow-ups. */
export function extract(text: string, today: string): ProposedItem[] {
  const lower = lowerSameLength(text);
  const vitals = vitalSigns(text, lower);
  const allergyItems = allergies(text, lower);
  const meds = medications(
    text,
    lower,
    allergyItems.map((a) => a.span),
  );
  const taken = [...vitals, ...allergyItems, ...meds].map((i) => i.span);
  const items = [...vitals, ...allergyItems, ...meds, ...problems(text, lower, taken), ...followUps(text, lower, today)];
  return items.sort((a, b) => a.span.start - b.span.start || a.kind.localeCompare(b.kind));
}
