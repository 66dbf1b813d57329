import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { paginate, type PageResult } from '../../../shared/model';
import { readableById } from '../../../shared/refs';
import { requirePlatformPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditChange, auditPatientRead } from '../../../shared/audit/audit-trail';
import { readablePatient } from '../access/patient-access';
import { DrugInteractionRule, InteractionRuleOrigin } from './cds.entity';
import type {
  CheckedMedication,
  DrugInteractionCheck,
  DrugInteractionCheckInput,
  DrugInteractionRuleListArgs,
  DrugInteractionUpsert,
  UpsertDrugInteractionInput,
} from './cds.types';
import { canonicalSide, findDuplicates, pairKey, resolveMedication, sidesOf, type ResolvedMedication } from './drug-knowledge';
import {
  KNOWLEDGE_SOURCES,
  activeAllergies,
  activePrescriptions,
  conflictOut,
  findAllergyConflicts,
  interactionOut,
  interactionsAmong,
} from './medication-context';

const RULE_RESOURCE = 'drug_interaction_rule';

function checked(m: ResolvedMedication, origin: CheckedMedication['origin']): CheckedMedication {
  return {
    index: m.index,
    name: m.name,
    rxcui: m.rxcui,
    matchedBy: m.matchedBy ?? 'none',
    ingredients: m.ingredients.map((i) => ({ key: i.key, name: i.name, rxcui: i.rxcui, classes: i.classes })),
    origin,
  };
}

export class InteractionService {
  /**
   * Checks medications against each other (and, with a patient, against their active allergies and, on request,
   * their active prescriptions). Any signed-in caller may check a list; a patient's data needs read access to it.
   */
  async check(ctx: SubgraphContext, input: DrugInteractionCheckInput): Promise<DrugInteractionCheck> {
    requireViewer(ctx.viewer);
    const issues: FieldIssue[] = [];
    input.medications.forEach((m, i) => {
      if (!m.name?.trim() && !m.rxcui?.trim()) issues.push({ field: `medications.${i}.name`, message: 'or rxcui is required' });
    });
    if (issues.length) throw errors.validation(issues);
    const given = input.medications.map((m, i) => resolveMedication(i, m.name, m.rxcui));
    const patient = input.patientId ? await readablePatient(ctx, input.patientId) : null;
    if (!patient && input.includeActiveMedications) throw errors.invalidField('includeActiveMedications', 'needs patientId');
    const active: ResolvedMedication[] = [];
    if (patient && input.includeActiveMedications) {
      const rows = await activePrescriptions(ctx.em, patient.id, clock.now());
      rows.forEach((p, i) => active.push(resolveMedication(given.length + i, p.medication, null)));
    }
    const all = [...given, ...active];
    const found = await interactionsAmong(ctx.em, all);
    // Interactions among the active prescriptions alone are the patient's risk, not this check's.
    const interactions = found.filter((f) => f.entries.some((e) => e.index < given.length));
    const allergies = patient ? await activeAllergies(ctx.em, patient.id) : [];
    const conflicts = patient ? findAllergyConflicts(given, allergies) : [];
    if (patient) {
      auditPatientRead(ctx, 'check', 'drug_interactions', patient, {
        medications: given.length,
        activePrescriptions: active.length,
        allergies: allergies.length,
        interactions: interactions.length,
        allergyConflicts: conflicts.length,
      });
    }
    return {
      interactions: interactions.map(interactionOut),
      allergyConflicts: conflicts.map(conflictOut),
      duplicates: findDuplicates(all).map((d) => ({
        ingredient: d.ingredient.name,
        drugs: d.entries.map((e) => e.name ?? d.ingredient.name),
      })),
      unrecognized: given.filter((m) => !m.ingredients.length).map((m) => ({ index: m.index, name: m.name, rxcui: m.rxcui })),
      medications: [...given.map((m) => checked(m, 'request')), ...active.map((m) => checked(m, 'active_prescription'))],
      patientId: patient?.id ?? null,
      sources: KNOWLEDGE_SOURCES,
    };
  }

  /**
   * Adds a rule, or replaces the rule of the same pair (a shipped rule included: it becomes the administrator's).
   * The next check uses it. Platform administrators only.
   */
  async upsert(ctx: SubgraphContext, input: UpsertDrugInteractionInput): Promise<DrugInteractionUpsert> {
    const viewer = requirePlatformPermission(ctx.viewer, 'cds:knowledge');
    const a = canonicalSide(input.drugA);
    const b = canonicalSide(input.drugB);
    const issues: FieldIssue[] = [];
    const refuse =
      'must name one ingredient, brand, RxNorm code or class (class:<name>): a product of several ingredients or an unknown class names no single side';
    if (!a) issues.push({ field: 'drugA', message: refuse });
    if (!b) issues.push({ field: 'drugB', message: refuse });
    if (issues.length) throw errors.validation(issues);
    if (a!.key === b!.key && !a!.key.startsWith('class:'))
      throw errors.invalidField('drugB', 'must differ from drugA (a class may pair with itself)');
    const [sideA, sideB] = a!.key <= b!.key ? [a!.key, b!.key] : [b!.key, a!.key];
    const key = pairKey(sideA, sideB);
    const fields = {
      severity: input.severity,
      description: input.description.trim(),
      recommendation: input.recommendation.trim(),
      source: input.source.trim(),
      origin: InteractionRuleOrigin.administrator,
      updatedBy: viewer.userId,
    };
    const existing = await ctx.em.findOne(DrugInteractionRule, { pairKey: key });
    let rule: DrugInteractionRule;
    if (existing) {
      const previous = {
        severity: existing.severity,
        description: existing.description,
        recommendation: existing.recommendation,
        source: existing.source,
        origin: existing.origin,
      };
      ctx.em.assign(existing, fields);
      rule = existing;
      auditChange(ctx, { action: 'update', resourceType: RULE_RESOURCE, resourceId: rule.id, details: { pair: key, previous } });
    } else {
      rule = ctx.em.create(DrugInteractionRule, { pairKey: key, sideA, sideB, ...fields });
      auditChange(ctx, { action: 'create', resourceType: RULE_RESOURCE, resourceId: rule.id, details: { pair: key } });
    }
    try {
      await ctx.em.flush();
    } catch (err) {
      // Two administrators adding the same pair at once: the second replaces the first, as if it came after.
      if ((err as { name?: string }).name !== 'UniqueConstraintViolationException' || existing) throw err;
      ctx.em.clear();
      return this.upsert(ctx, input);
    }
    return {
      rule,
      created: !existing,
      unknownDrugs: [a!, b!].filter((s) => !s.known).map((s) => s.key),
    };
  }

  /** A rule under the rule of `drugInteractionRules` (any signed-in caller), batched; null otherwise or when there is none. */
  visible(ctx: SubgraphContext, id: string): Promise<DrugInteractionRule | null> {
    return readableById(ctx, DrugInteractionRule, id, () => true);
  }

  /** The rules, optionally those that apply to one drug (by itself or its classes). Any signed-in caller. */
  async list(ctx: SubgraphContext, args: DrugInteractionRuleListArgs): Promise<PageResult<DrugInteractionRule>> {
    requireViewer(ctx.viewer);
    const where: Record<string, unknown> = {};
    if (args.severity) where.severity = args.severity;
    if (args.drug !== undefined) {
      const drug = resolveMedication(0, args.drug, args.drug);
      const sides = drug.ingredients.length
        ? [...new Set(drug.ingredients.flatMap(sidesOf))]
        : [canonicalSide(args.drug)?.key].filter((k): k is string => !!k);
      if (!sides.length) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.$or = [{ sideA: { $in: sides } }, { sideB: { $in: sides } }];
    }
    return paginate(ctx.em, DrugInteractionRule, where, args, { pairKey: 'asc' });
  }
}
