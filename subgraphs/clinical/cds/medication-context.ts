import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../../../shared/db';
import { Allergy, AllergyStatus } from '../allergies/allergy.entity';
import { Prescription, PrescriptionStatus } from '../prescriptions/prescription.entity';
import { DrugInteractionRule, InteractionRuleOrigin, type InteractionSeverity } from './cds.entity';
import {
  ALLERGY_SOURCE,
  DRUG_CLASSES,
  INTERACTION_SOURCE,
  SHIPPED_RULES,
  VOCABULARY_SOURCE,
  findAllergyConflicts,
  findInteractions,
  normalizeName,
  pairKey,
  ruleSides,
  type AllergyConflict as FoundConflict,
  type FoundInteraction,
  type InteractionRule,
  type RecordedAllergy,
  type ResolvedMedication,
} from './drug-knowledge';
import type { AllergyConflict, DrugInteraction } from './cds.types';

/**
 * What decision support reads about medications: the interaction rules in the database (seeded from the shipped
 * data, upserted by administrators), a patient's active prescriptions and active allergies, and the wire shapes of
 * what the checks find. Shared by the interaction check, the patient risk and the CDS Hooks services.
 */

export const KNOWLEDGE_SOURCES = [
  `Drug vocabulary: ${VOCABULARY_SOURCE.source} Licence: ${VOCABULARY_SOURCE.licence}`,
  `Interaction rules: ${INTERACTION_SOURCE.source} Licence: ${INTERACTION_SOURCE.licence}`,
  `Drug allergy classes: ${ALLERGY_SOURCE.source} Licence: ${ALLERGY_SOURCE.licence}`,
];

const toRule = (r: DrugInteractionRule): InteractionRule => ({
  id: r.id,
  sideA: r.sideA,
  sideB: r.sideB,
  severity: r.severity,
  description: r.description,
  recommendation: r.recommendation,
  source: r.source,
});

/** The keys an unrecognised name could be stored under by an administrator: its word runs, up to four words. */
function candidateKeys(name: string): string[] {
  const words = normalizeName(name).split(' ').filter(Boolean);
  const out: string[] = [];
  for (let n = Math.min(4, words.length); n > 0; n--) {
    for (let i = 0; i + n <= words.length; i++) out.push(words.slice(i, i + n).join('_'));
  }
  return out;
}

/**
 * Gives entries the vocabulary does not know the drug an administrator's rule names, when one does ("Newdrugamab
 * 10 mg" matches a rule for newdrugamab). Entries stay unrecognised otherwise.
 */
async function recognizeByRules(em: EntityManager, meds: ResolvedMedication[]): Promise<void> {
  const unknown = meds.filter((m) => !m.ingredients.length && m.name).map((m) => ({ m, keys: candidateKeys(m.name!) }));
  const keys = [...new Set(unknown.flatMap((u) => u.keys))];
  if (!keys.length) return;
  const rows = await em.find(
    DrugInteractionRule,
    { $or: [{ sideA: { $in: keys } }, { sideB: { $in: keys } }] },
    { fields: ['sideA', 'sideB'] },
  );
  const known = new Set(rows.flatMap((r) => [r.sideA, r.sideB]));
  for (const { m, keys: mine } of unknown) {
    const key = mine.find((k) => known.has(k)); // longest first
    if (key) {
      m.ingredients = [{ key, name: key.replace(/_/g, ' '), rxcui: [], classes: [], brands: [], synonyms: [] }];
      m.matchedBy = 'name';
    }
  }
}

/** The rules that may apply between these medications, by pair. */
export async function rulesFor(em: EntityManager, meds: ResolvedMedication[]): Promise<Map<string, InteractionRule>> {
  await recognizeByRules(em, meds);
  const sides = ruleSides(meds);
  if (!sides.length) return new Map();
  const rows = await em.find(DrugInteractionRule, { sideA: { $in: sides }, sideB: { $in: sides } });
  return new Map(rows.map((r) => [r.pairKey, toRule(r)]));
}

/** Interactions between the medications, from the rules in the database. */
export async function interactionsAmong(em: EntityManager, meds: ResolvedMedication[]): Promise<FoundInteraction[]> {
  return findInteractions(meds, await rulesFor(em, meds));
}

const nameOf = (m: ResolvedMedication) => m.name ?? (m.ingredients.length ? m.ingredients.map((i) => i.name).join(' + ') : (m.rxcui ?? ''));

export function interactionOut(f: FoundInteraction): DrugInteraction {
  return {
    severity: f.severity as InteractionSeverity,
    description: f.rule.description,
    drugs: f.entries.map(nameOf),
    recommendation: f.rule.recommendation,
    ingredients: f.ingredients.map((i) => i.name),
    basis: f.basis,
    source: f.rule.source,
    ruleId: f.rule.id,
  };
}

export function conflictOut(c: FoundConflict): AllergyConflict {
  return {
    severity: c.severity as InteractionSeverity,
    description: c.description,
    drugs: [nameOf(c.entry)],
    recommendation: c.recommendation,
    allergyId: c.allergy.id,
    allergen: c.allergy.substance,
    reaction: c.allergy.reaction ?? null,
    basis: c.basis,
    allergyClass: c.allergyClass,
    source: ALLERGY_SOURCE.source,
  };
}

export { findAllergyConflicts };

/** A patient's active allergies and intolerances, as the checks read them. */
export async function activeAllergies(em: EntityManager, patientId: string): Promise<RecordedAllergy[]> {
  const rows = await em.find(Allergy, { patientId, status: AllergyStatus.active }, { orderBy: { createdAt: 'asc' } });
  return rows.map((a) => ({
    id: a.id,
    substance: a.substance,
    type: a.type,
    reaction: a.reaction ?? null,
    criticality: a.criticality ?? null,
  }));
}

const DURATION = /(\d{1,4})\s*(d|day|days|w|wk|wks|week|weeks|m|mo|month|months)\b/i;
const DAYS: Record<string, number> = {
  d: 1,
  day: 1,
  days: 1,
  w: 7,
  wk: 7,
  wks: 7,
  week: 7,
  weeks: 7,
  m: 30,
  mo: 30,
  month: 30,
  months: 30,
};

/** The end of a prescription's course, from a duration such as "7 days" or "2 weeks"; null when none is readable. */
export function courseEnd(start: Date, duration: string | null | undefined): Date | null {
  const m = duration ? DURATION.exec(duration) : null;
  if (!m) return null;
  return new Date(start.getTime() + Number(m[1]) * DAYS[m[2].toLowerCase()] * 86_400_000);
}

/**
 * The patient's active prescriptions: signed, not cancelled, and within their course when the duration says how
 * long it is (a prescription without a readable duration counts as ongoing).
 */
export async function activePrescriptions(em: EntityManager, patientId: string, now: Date): Promise<Prescription[]> {
  const rows = await em.find(Prescription, { patientId, status: PrescriptionStatus.signed }, { orderBy: { signedAt: 'asc', id: 'asc' } });
  return rows.filter((p) => {
    const end = courseEnd(p.signedAt ?? p.createdAt, p.duration);
    return !end || end > now;
  });
}

/** The human name of a rule side: an ingredient's, or a class's description. */
export function sideName(side: string): string {
  if (side.startsWith('class:')) return DRUG_CLASSES[side.slice(6)] ?? side;
  return side.replace(/_/g, ' ');
}

/**
 * Writes the shipped rules into the database: new pairs are added, shipped rows follow the data as it changes, and
 * a rule an administrator wrote is never overwritten. Safe to run from several replicas at once.
 */
export async function seedShippedRules(em: EntityManager): Promise<void> {
  const meta = em.getMetadata().get(DrugInteractionRule.name);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  const columns = [
    'id',
    'pair_key',
    'side_a',
    'side_b',
    'severity',
    'description',
    'recommendation',
    'source',
    'origin',
    'created_at',
    'updated_at',
  ];
  const now = new Date();
  const params: unknown[] = [];
  const rows = SHIPPED_RULES.map((r) => {
    const [a, b] = r.a <= r.b ? [r.a, r.b] : [r.b, r.a];
    params.push(
      randomUUID(),
      pairKey(a, b),
      a,
      b,
      r.severity,
      r.description,
      r.recommendation,
      r.source,
      InteractionRuleOrigin.shipped,
      now,
      now,
    );
    return `(${columns.map(() => '?').join(', ')})`;
  });
  const changed = ['severity', 'description', 'recommendation', 'source'];
  await em
    .getConnection()
    .execute(
      `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values ${rows.join(', ')} ` +
        `on conflict ("pair_key") do update set ${changed.map((c) => `"${c}" = excluded."${c}"`).join(', ')}, "updated_at" = excluded."updated_at" ` +
        `where ${table}."origin" = 'shipped' and (${changed.map((c) => `${table}."${c}"`).join(', ')}) is distinct from (${changed.map((c) => `excluded."${c}"`).join(', ')})`,
      params,
    );
}
