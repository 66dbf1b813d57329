import { clock } from '../../../shared/clock';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditPatientRead } from '../../../shared/audit/audit-trail';
import { readablePatient } from '../access/patient-access';
import { News2RiskBand } from './cds.entity';
import type { News2Score, PatientRisk, RiskReason } from './cds.types';
import { resolveMedication, type Severity } from './drug-knowledge';
import { scoreOut, vitalScoreOut } from './early-warning.service';
import {
  activeAllergies,
  activePrescriptions,
  conflictOut,
  findAllergyConflicts,
  interactionOut,
  interactionsAmong,
} from './medication-context';
import {
  criticalResultsPending,
  currentNews2,
  describeDose,
  describeResult,
  missedImmunizations,
  recentSeriousReactions,
} from './patient-findings';

export const LEVELS = ['low', 'medium', 'high'] as const;
type Level = (typeof LEVELS)[number];
const rank = (l: string) => LEVELS.indexOf(l as Level);

const NEWS2_LEVEL: Record<News2RiskBand, Level> = { high: 'high', medium: 'high', low_medium: 'medium', low: 'low' };
const INTERACTION_LEVEL: Record<Severity, Level> = { contraindicated: 'high', major: 'high', moderate: 'medium', minor: 'low' };
const CONFLICT_LEVEL: Record<Severity, Level> = { contraindicated: 'high', major: 'high', moderate: 'medium', minor: 'low' };
const DAY_MS = 86_400_000;
const SERIOUS_REACTIONS_SINCE_DAYS = 365;

const ASSUMED: Record<string, [string, string]> = {
  consciousness: ['consciousness', 'alert'],
  supplementalOxygen: ['supplemental oxygen', 'air'],
};

/**
 * The NEWS2 reason: the kept score, or the vital signs record it was computed from, saying what was not recorded and
 * how it was scored.
 */
function news2Reason(score: News2Score, now: Date): RiskReason {
  const hours = Math.round((now.getTime() - score.observedAt.getTime()) / 3_600_000);
  const ago = `${hours < 1 ? 'less than an hour' : `${hours} hour${hours === 1 ? '' : 's'}`} ago`;
  const assumed = score.assumed.map((p) => ASSUMED[p]);
  const source = score.id
    ? `, ${ago}`
    : ` from the vital signs recorded ${ago}` +
      (assumed.length
        ? ` (${assumed.map(([what]) => what).join(' and ')} not recorded: scored as ${assumed.map(([, as]) => as).join(' and ')})`
        : '');
  const monitoring = score.monitoringFrequency.toLowerCase();
  return {
    kind: 'news2',
    level: NEWS2_LEVEL[score.risk],
    summary: `NEWS2 ${score.total} (${score.risk.replace('_', '-')} risk)${source}: ${monitoring}${monitoring.includes('monitoring') ? '' : ' monitoring'}`,
    at: score.observedAt,
    resourceType: score.id ? 'early_warning_score' : 'vital',
    resourceId: score.id ?? score.vitalId ?? null,
  };
}

/**
 * One answer to "how worried should we be about this patient?", from the platform's own records, each reason named:
 * NEWS2 (high or medium: high; a red score: medium), the latest kept score or that of vital signs taken after it;
 * unreviewed critical lab results (high), interactions among and allergy conflicts of active prescriptions (by
 * severity), active allergies (high criticality: medium), serious adverse reactions in the last year (medium) and
 * missed immunizations (low). The level is the highest reason's.
 */
export class PatientRiskService {
  async assess(ctx: SubgraphContext, patientId: string): Promise<PatientRisk> {
    const patient = await readablePatient(ctx, patientId);
    const now = clock.now();
    const em = ctx.em;
    const current = await currentNews2(em, patient.id);
    const score = current && (current.kept ? scoreOut(current.kept) : vitalScoreOut(current.vital, current.result));
    const critical = await criticalResultsPending(em, patient.id);
    const prescriptions = await activePrescriptions(em, patient.id, now);
    const allergies = await activeAllergies(em, patient.id);
    const missed = await missedImmunizations(em, patient.id);
    const reactions = await recentSeriousReactions(em, patient.id, new Date(now.getTime() - SERIOUS_REACTIONS_SINCE_DAYS * DAY_MS));
    const meds = prescriptions.map((p, i) => resolveMedication(i, p.medication, null));
    const interactions = await interactionsAmong(em, meds);
    const conflicts = findAllergyConflicts(meds, allergies);
    const reasons: RiskReason[] = [];

    if (score) reasons.push(news2Reason(score, now));
    for (const r of critical.items) {
      reasons.push({
        kind: 'critical_result',
        level: 'high',
        summary: `Critical lab result awaiting review: ${describeResult(r)}`,
        at: r.observedAt ?? r.createdAt,
        resourceType: 'lab_result',
        resourceId: r.id,
      });
    }
    if (critical.total > critical.items.length) {
      reasons.push({
        kind: 'critical_result',
        level: 'high',
        summary: `${critical.total - critical.items.length} more critical lab results awaiting review`,
        at: null,
        resourceType: null,
        resourceId: null,
      });
    }
    for (const f of interactions) {
      const [a, b] = f.entries.map((e) => prescriptions[e.index]);
      reasons.push({
        kind: 'interaction',
        level: INTERACTION_LEVEL[f.severity],
        summary: `${f.severity[0].toUpperCase()}${f.severity.slice(1)} interaction between active prescriptions ${a.medication} and ${b.medication}: ${f.rule.description}`,
        at: null,
        resourceType: 'prescription',
        resourceId: b.id,
      });
    }
    for (const c of conflicts) {
      const p = prescriptions[c.entry.index];
      reasons.push({
        kind: 'allergy_conflict',
        level: CONFLICT_LEVEL[c.severity],
        summary: `Active prescription ${p.medication} conflicts with the recorded ${c.allergy.type} to ${c.allergy.substance} (${c.severity})`,
        at: null,
        resourceType: 'prescription',
        resourceId: p.id,
      });
    }
    for (const a of allergies) {
      reasons.push({
        kind: 'allergy',
        level: a.criticality === 'high' ? 'medium' : 'low',
        summary: `${a.type === 'intolerance' ? 'Intolerance' : 'Allergy'}: ${a.substance}${a.reaction ? ` (${a.reaction})` : ''}${a.criticality === 'high' ? ', high criticality' : ''}`,
        at: null,
        resourceType: 'allergy',
        resourceId: a.id,
      });
    }
    for (const e of reactions) {
      reasons.push({
        kind: 'adverse_event',
        level: 'medium',
        summary: `Serious adverse reaction to ${e.suspectedDrug}: ${e.reaction} (${e.seriousnessCriteria.join(', ')})`,
        at: e.createdAt,
        resourceType: 'adverse_event',
        resourceId: e.id,
      });
    }
    if (missed.length) {
      reasons.push({
        kind: 'missed_immunization',
        level: 'low',
        summary: `${missed.length} missed immunization${missed.length === 1 ? '' : 's'}: ${missed.slice(0, 5).map(describeDose).join('; ')}`,
        at: null,
        resourceType: 'immunization',
        resourceId: missed[0].id,
      });
    }
    reasons.sort((x, y) => rank(y.level) - rank(x.level));
    auditPatientRead(ctx, 'assess', 'patient_risk', patient, { reasons: reasons.length });
    return {
      patientId: patient.id,
      level: reasons[0]?.level ?? 'low',
      reasons,
      news2: score,
      criticalResultsPendingReview: critical.total,
      interactions: interactions.map(interactionOut),
      allergyConflicts: conflicts.map(conflictOut),
      activeMedications: prescriptions.map((p) => p.medication),
      allergies: allergies.map((a) => a.substance),
      assessedAt: now,
    };
  }
}
