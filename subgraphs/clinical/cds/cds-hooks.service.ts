import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditPatientRead } from '../../../shared/audit/audit-trail';
import { logger } from '../../../shared/logger';
import { readablePatient } from '../access/patient-access';
import type { Patient } from '../patients/patient.entity';
import { raiseCriticalCards, type CriticalCard } from './alerts';
import { News2RiskBand } from './cds.entity';
import {
  CdsActionType,
  CdsIndicator,
  type CdsCard,
  type CdsHookRequestInput,
  type CdsHookResponse,
  type CdsService,
  type CdsServiceDiscovery,
} from './cds-hooks.types';
import {
  ALLERGY_SOURCE,
  resolveMedication,
  type AllergyConflict,
  type FoundInteraction,
  type RecordedAllergy,
  type ResolvedMedication,
  type Severity,
} from './drug-knowledge';
import { activeAllergies, activePrescriptions, findAllergyConflicts, interactionsAmong } from './medication-context';
import { NEWS2_SOURCE } from './news2';
import { criticalResultsPending, describeDose, describeResult, latestNews2, missedImmunizations } from './patient-findings';
import { SCHEDULE_SOURCE } from '../immunizations/vaccine-schedule';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

const PREFETCH = {
  allergies: 'AllergyIntolerance?patient={{context.patientId}}',
  medications: 'MedicationRequest?patient={{context.patientId}}&status=active',
};

/** The services of the platform (CDS Hooks discovery). */
export const CDS_SERVICES: CdsService[] = [
  {
    hook: 'patient-view',
    id: 'patient-risk-review',
    title: 'Patient risk review',
    description:
      'When a chart opens: a medium or high NEWS2 score, critical lab results awaiting review, missed immunizations, and interactions or allergy conflicts among the active medications.',
    prefetch: PREFETCH,
  },
  {
    hook: 'order-select',
    id: 'medication-safety-select',
    title: 'Medication safety on selection',
    description:
      'When medications are selected for ordering: drug-drug interactions with the other draft orders and the active medications, and conflicts with recorded allergies.',
    prefetch: PREFETCH,
  },
  {
    hook: 'order-sign',
    id: 'medication-safety-sign',
    title: 'Medication safety before signing',
    description:
      'Before draft medication orders are signed: drug-drug interactions among them and with the active medications, and conflicts with recorded allergies.',
    prefetch: PREFETCH,
  },
];

const bundle = z
  .object({ resourceType: z.literal('Bundle'), entry: z.array(z.object({ resource: z.unknown().optional() }).loose()).optional() })
  .loose();
const baseContext = {
  userId: z.string().min(1).max(500),
  patientId: z.string().min(1).max(500),
  encounterId: z.string().max(500).optional(),
};
const CONTEXT: Record<string, z.ZodType> = {
  'patient-view': z.object(baseContext).loose(),
  'order-select': z.object({ ...baseContext, selections: z.array(z.string().min(1)).min(1), draftOrders: bundle }).loose(),
  'order-sign': z.object({ ...baseContext, draftOrders: bundle }).loose(),
};

type HookContext = { userId: string; patientId: string; encounterId?: string; selections?: string[]; draftOrders?: z.infer<typeof bundle> };

/** A CDS Hooks summary is one sentence under 140 characters. */
export function summary(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length < 140 ? clean : `${clean.slice(0, 138).trimEnd()}…`;
}

const shortHash = (parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 22);

interface FhirResource {
  resourceType?: unknown;
  id?: unknown;
  [k: string]: unknown;
}

type CodeableConcept = { text?: unknown; coding?: { system?: unknown; code?: unknown; display?: unknown }[] };

function conceptText(c: CodeableConcept | undefined): { text: string | null; rxcui: string | null } {
  if (!c || typeof c !== 'object') return { text: null, rxcui: null };
  const codings = Array.isArray(c.coding) ? c.coding : [];
  const rx = codings.find((x) => x?.system === RXNORM && typeof x.code === 'string');
  const display = codings.map((x) => x?.display).find((d): d is string => typeof d === 'string' && !!d.trim());
  return {
    text: typeof c.text === 'string' && c.text.trim() ? c.text : (display ?? null),
    rxcui: (rx?.code as string | undefined) ?? null,
  };
}

function resourcesOf(b: unknown, type: string): FhirResource[] {
  if (!b || typeof b !== 'object') return [];
  const value = b as { resourceType?: unknown; entry?: unknown };
  if (value.resourceType === type) return [value as FhirResource];
  if (value.resourceType !== 'Bundle' || !Array.isArray(value.entry)) return [];
  return value.entry
    .map((e) => (e && typeof e === 'object' ? (e as { resource?: unknown }).resource : undefined))
    .filter((r): r is FhirResource => !!r && typeof r === 'object' && (r as FhirResource).resourceType === type);
}

/** A medication of a FHIR MedicationRequest (R4 medicationCodeableConcept, or R5 medication.concept). */
interface OrderedMedication {
  ref: string | null;
  name: string | null;
  rxcui: string | null;
  /** draft (this order), or active (a medication the patient is on). */
  origin: 'draft' | 'active';
}

function medicationOf(r: FhirResource, origin: OrderedMedication['origin']): OrderedMedication {
  const r4 = r.medicationCodeableConcept as CodeableConcept | undefined;
  const r5 = (r.medication as { concept?: CodeableConcept } | undefined)?.concept;
  const { text, rxcui } = conceptText(r4 ?? r5);
  const display = (r.medicationReference as { display?: unknown } | undefined)?.display;
  return {
    ref: typeof r.id === 'string' ? `MedicationRequest/${r.id}` : null,
    name: text ?? (typeof display === 'string' ? display : null),
    rxcui,
    origin,
  };
}

function allergyOf(r: FhirResource, i: number): RecordedAllergy | null {
  const status =
    conceptText(r.clinicalStatus as CodeableConcept).text ??
    ((r.clinicalStatus as CodeableConcept)?.coding?.[0]?.code as string | undefined);
  const codes = ((r.clinicalStatus as CodeableConcept)?.coding ?? []).map((c) => c?.code);
  if (codes.length && !codes.includes('active')) return null;
  if (!codes.length && status && status !== 'active') return null;
  const verification = ((r.verificationStatus as CodeableConcept)?.coding ?? []).map((c) => c?.code);
  if (verification.includes('entered-in-error') || verification.includes('refuted')) return null;
  const substance = conceptText(r.code as CodeableConcept).text;
  if (!substance) return null;
  const reactions = Array.isArray(r.reaction) ? (r.reaction as { manifestation?: unknown[] }[]) : [];
  const manifestation = reactions[0]?.manifestation?.[0] as (CodeableConcept & { concept?: CodeableConcept }) | undefined;
  const reaction = conceptText(manifestation?.concept ?? manifestation).text;
  return {
    id: typeof r.id === 'string' ? r.id : `prefetch-${i}`,
    substance,
    type: r.type === 'intolerance' ? 'intolerance' : 'allergy',
    reaction,
    criticality: typeof r.criticality === 'string' ? r.criticality : null,
  };
}

const INTERACTION_INDICATOR: Record<Severity, CdsIndicator> = {
  contraindicated: CdsIndicator.critical,
  major: CdsIndicator.warning,
  moderate: CdsIndicator.info,
  minor: CdsIndicator.info,
};
const CONFLICT_INDICATOR: Record<Severity, CdsIndicator> = {
  contraindicated: CdsIndicator.critical,
  major: CdsIndicator.warning,
  moderate: CdsIndicator.warning,
  minor: CdsIndicator.info,
};

const OVERRIDE_REASONS = [
  { code: 'benefit-outweighs-risk', display: 'Benefit outweighs the risk' },
  { code: 'patient-tolerated-before', display: 'Patient has tolerated this medication before' },
  { code: 'allergy-not-confirmed', display: 'Allergy or interaction not confirmed' },
];

interface Built {
  card: CdsCard;
  /** Set on critical cards: the finding, for raising it once. */
  critical?: CriticalCard;
}

function removeSuggestion(m: OrderedMedication, name: string): Pick<CdsCard, 'suggestions' | 'selectionBehavior'> {
  if (m.origin !== 'draft' || !m.ref) return {};
  return {
    suggestions: [
      {
        label: `Remove ${name} from the order`,
        uuid: randomUUID(),
        isRecommended: true,
        actions: [{ type: CdsActionType.delete, description: `Remove the draft order for ${name}`, resourceId: m.ref }],
      },
    ],
    selectionBehavior: 'at-most-one',
  };
}

export class CdsHooksService {
  discovery(): CdsServiceDiscovery {
    return { services: CDS_SERVICES };
  }

  /**
   * Answers a CDS Hooks call. Unknown service: 404; a request that is not one for the service's hook: 400. Data the
   * client prefetched is used; what is missing is read from the platform's own records when the patient is one the
   * caller may read (otherwise the card says what could not be checked). Critical cards about a patient of the
   * platform are raised once each (`svc.cds.critical_card`).
   */
  async invoke(ctx: SubgraphContext, id: string, request: CdsHookRequestInput): Promise<CdsHookResponse> {
    requireViewer(ctx.viewer);
    const service = CDS_SERVICES.find((s) => s.id === id);
    if (!service) throw errors.notFound('CDS service');
    if (request.hook !== service.hook) throw errors.invalidField('hook', `must be ${service.hook} for the service ${service.id}`);
    if (!request.hookInstance.trim() || request.hookInstance.length > 200)
      throw errors.invalidField('hookInstance', 'must be a UUID identifying this hook call');
    const parsed = CONTEXT[service.hook].safeParse(request.context);
    if (!parsed.success) {
      throw errors.validation(
        parsed.error.issues.map((i) => ({
          field: ['context', ...i.path].join('.'),
          message: i.path.length ? i.message : 'must be a JSON object',
        })),
      );
    }
    const context = parsed.data as HookContext;
    const given = request.prefetch ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) throw errors.invalidField('prefetch', 'must be a JSON object of prefetch keys');
    const prefetch = given as Record<string, unknown>;
    const patient = await readablePatient(ctx, context.patientId).catch((err: unknown) => {
      const code = (err as { extensions?: { code?: string } }).extensions?.code;
      if (code === 'NOT_FOUND' || code === 'FORBIDDEN') return null; // not ours to read: prefetch alone
      throw err;
    });
    const built: Built[] = [];
    const unchecked: string[] = [];

    // Medications: the draft orders, then the active ones (prefetched, or the platform's active prescriptions).
    const ordered: OrderedMedication[] = [];
    if (context.draftOrders) for (const r of resourcesOf(context.draftOrders, 'MedicationRequest')) ordered.push(medicationOf(r, 'draft'));
    if (prefetch.medications != null) {
      for (const r of resourcesOf(prefetch.medications, 'MedicationRequest')) ordered.push(medicationOf(r, 'active'));
    } else if (patient) {
      for (const p of await activePrescriptions(ctx.em, patient.id, clock.now()))
        ordered.push({ ref: null, name: p.medication, rxcui: null, origin: 'active' });
    } else {
      unchecked.push('active medications');
    }
    let allergies: RecordedAllergy[] = [];
    if (prefetch.allergies != null)
      allergies = resourcesOf(prefetch.allergies, 'AllergyIntolerance')
        .map(allergyOf)
        .filter((a): a is RecordedAllergy => !!a);
    else if (patient) allergies = await activeAllergies(ctx.em, patient.id);
    else unchecked.push('allergies');

    const meds = ordered.map((m, i) => resolveMedication(i, m.name, m.rxcui));
    const nameOf = (m: ResolvedMedication) => {
      const o = ordered[m.index];
      return (
        o.name ?? (m.ingredients.length ? m.ingredients.map((x) => x.name).join(' + ') : o.rxcui ? `RxNorm ${o.rxcui}` : 'a medication')
      );
    };
    // Which medications the call is about: selected orders (order-select), every draft (order-sign), all (patient-view).
    const selected = new Set(context.selections ?? []);
    const inFocus = (m: ResolvedMedication) => {
      const o = ordered[m.index];
      if (service.hook === 'patient-view') return true;
      if (o.origin !== 'draft') return false;
      return service.hook === 'order-sign' || (o.ref !== null && selected.has(o.ref));
    };
    const focus = meds.filter(inFocus);
    const interactions = (await interactionsAmong(ctx.em, meds)).filter((f) => f.entries.some(inFocus));
    const conflicts = findAllergyConflicts(focus, allergies);
    for (const c of conflicts) built.push(this.conflictCard(c, ordered[c.entry.index], nameOf(c.entry)));
    for (const f of interactions) built.push(this.interactionCard(f, ordered, nameOf));
    for (const m of focus.filter((x) => !x.ingredients.length && (ordered[x.index].name || ordered[x.index].rxcui))) {
      const o = ordered[m.index];
      built.push({
        card: {
          uuid: randomUUID(),
          summary: summary(
            `${o.name ?? `RxNorm ${o.rxcui}`} is not in the drug vocabulary: its interactions and allergies were not checked`,
          ),
          indicator: CdsIndicator.info,
          source: { label: 'Clinical Care Platform drug knowledge' },
        },
      });
    }
    if (service.hook === 'patient-view' && patient) built.push(...(await this.patientViewCards(ctx, patient)));
    if (unchecked.length) {
      built.push({
        card: {
          uuid: randomUUID(),
          summary: summary(
            `Not checked: ${unchecked.join(' and ')} (not prefetched, and the patient is not one this platform can read for you)`,
          ),
          indicator: CdsIndicator.info,
          source: { label: 'Clinical Care Platform decision support' },
        },
      });
    }

    const cards = built.map((b) => b.card);
    const order = [CdsIndicator.critical, CdsIndicator.warning, CdsIndicator.info];
    cards.sort((a, b) => order.indexOf(a.indicator) - order.indexOf(b.indicator));
    if (patient) {
      auditPatientRead(ctx, 'cds_hook', 'cds_service', patient, {
        service: service.id,
        hookInstance: request.hookInstance,
        cards: cards.length,
      });
      const critical = built.map((b) => b.critical).filter((c): c is CriticalCard => !!c);
      if (critical.length) await this.raise(ctx, patient, service, request.hookInstance, critical);
    }
    return { cards };
  }

  /** Raises the critical cards once each; a concurrent call that raised them first is not an error. */
  private async raise(
    ctx: SubgraphContext,
    patient: Patient,
    service: CdsService,
    hookInstance: string,
    cards: CriticalCard[],
  ): Promise<void> {
    try {
      await raiseCriticalCards(ctx, patient, service, hookInstance, cards);
      await ctx.em.flush();
    } catch (err) {
      if ((err as { name?: string }).name !== 'UniqueConstraintViolationException') throw err;
      ctx.em.clear();
      logger.debug({ reqId: ctx.requestId }, 'critical CDS card already raised by a concurrent call');
    }
  }

  private conflictCard(c: AllergyConflict, m: OrderedMedication, name: string): Built {
    const indicator = CONFLICT_INDICATOR[c.severity];
    const text = summary(
      c.basis === 'cross_reactive'
        ? `${name}: possible cross-reactivity with the patient's ${c.allergy.type} to ${c.allergy.substance}`
        : `${name}: patient has a recorded ${c.allergy.type} to ${c.allergy.substance}`,
    );
    const card: CdsCard = {
      uuid: randomUUID(),
      summary: text,
      detail: `${c.description}\n\n**Recommendation:** ${c.recommendation}\n\n*Source:* ${ALLERGY_SOURCE.source}`,
      indicator,
      source: { label: 'Drug allergy rules (NICE CG183, AAAAI/ACAAI 2022)', topic: { code: 'drug-allergy', display: 'Drug allergy' } },
      ...removeSuggestion(m, name),
      overrideReasons: OVERRIDE_REASONS,
    };
    const key = `allergy:${shortHash([m.ref ?? m.name ?? '', c.allergy.id, c.ingredient.key])}`;
    return { card, critical: indicator === CdsIndicator.critical ? { dedupeKey: key, summary: text, detail: c.description } : undefined };
  }

  private interactionCard(f: FoundInteraction, ordered: OrderedMedication[], nameOf: (m: ResolvedMedication) => string): Built {
    const [a, b] = f.entries;
    const indicator = INTERACTION_INDICATOR[f.severity];
    const draftEntry = [b, a].find((e) => ordered[e.index].origin === 'draft');
    const text = summary(`${f.severity[0].toUpperCase()}${f.severity.slice(1)} interaction: ${nameOf(a)} with ${nameOf(b)}`);
    const card: CdsCard = {
      uuid: randomUUID(),
      summary: text,
      detail: `${f.rule.description}\n\n**Recommendation:** ${f.rule.recommendation}\n\n*Source:* ${f.rule.source}`,
      indicator,
      source: { label: 'Drug interaction rules', topic: { code: 'drug-interaction', display: 'Drug-drug interaction' } },
      ...(draftEntry ? removeSuggestion(ordered[draftEntry.index], nameOf(draftEntry)) : {}),
      ...(indicator === CdsIndicator.info ? {} : { overrideReasons: OVERRIDE_REASONS }),
    };
    const key = `interaction:${shortHash([f.rule.id, ...f.entries.map((e) => ordered[e.index].ref ?? ordered[e.index].name ?? '').sort()])}`;
    return {
      card,
      critical: indicator === CdsIndicator.critical ? { dedupeKey: key, summary: text, detail: f.rule.description } : undefined,
    };
  }

  private async patientViewCards(ctx: SubgraphContext, patient: Patient): Promise<Built[]> {
    const out: Built[] = [];
    const score = await latestNews2(ctx.em, patient.id);
    if (score && score.risk !== News2RiskBand.low) {
      const indicator = score.risk === News2RiskBand.high ? CdsIndicator.critical : CdsIndicator.warning;
      const text = summary(
        `NEWS2 ${score.total} (${score.risk.replace('_', '-')} risk): ${score.monitoringFrequency.toLowerCase()} monitoring and clinical review`,
      );
      out.push({
        card: {
          uuid: randomUUID(),
          summary: text,
          detail: `Scored at ${score.observedAt.toISOString()}.\n\n**Response:** ${score.response}\n\n*Source:* ${NEWS2_SOURCE}`,
          indicator,
          source: {
            label: 'NEWS2 (Royal College of Physicians, 2017)',
            topic: { code: 'early-warning-score', display: 'Early warning score' },
          },
        },
        critical:
          indicator === CdsIndicator.critical ? { dedupeKey: `news2:${score.id}`, summary: text, detail: score.response } : undefined,
      });
    }
    const critical = await criticalResultsPending(ctx.em, patient.id);
    if (critical.total) {
      const text = summary(
        `${critical.total} critical lab result${critical.total === 1 ? '' : 's'} awaiting review: ${critical.items.slice(0, 3).map(describeResult).join('; ')}`,
      );
      out.push({
        card: {
          uuid: randomUUID(),
          summary: text,
          detail: `Critical results not yet reviewed:\n\n${critical.items.map((r) => `- ${describeResult(r)}`).join('\n')}\n\nReview them (POST /api/lab-results/:id/review).`,
          indicator: CdsIndicator.critical,
          source: { label: 'Laboratory results', topic: { code: 'critical-result', display: 'Critical lab result' } },
        },
        critical: { dedupeKey: `labs:${shortHash(critical.items.map((r) => r.id).sort())}`, summary: text },
      });
    }
    const missed = await missedImmunizations(ctx.em, patient.id);
    if (missed.length) {
      out.push({
        card: {
          uuid: randomUUID(),
          summary: summary(
            `${missed.length} missed immunization${missed.length === 1 ? '' : 's'}: ${missed.slice(0, 3).map(describeDose).join('; ')}`,
          ),
          detail: `${missed.map((d) => `- ${describeDose(d)}`).join('\n')}\n\n*Source:* ${SCHEDULE_SOURCE}`,
          indicator: CdsIndicator.warning,
          source: { label: 'WHO immunization schedule', topic: { code: 'missed-immunization', display: 'Missed immunization' } },
        },
      });
    }
    return out;
  }
}
