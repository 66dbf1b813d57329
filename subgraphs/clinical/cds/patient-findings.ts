import type { EntityManager } from '../../../shared/db';
import { Immunization, DoseState } from '../immunizations/immunization.entity';
import { MISSED_AFTER_DAYS, VACCINES, addDays, today } from '../immunizations/vaccine-schedule';
import { LabResult, LabResultReviewStatus } from '../labs/lab.entity';
import { Vital, VitalStatus } from '../vitals/vital.entity';
import { AdverseEvent, EarlyWarningScore } from './cds.entity';
import { NEWS2_MEASUREMENTS, news2OfRecord, type RecordNews2 } from './news2';

/**
 * What the platform's own records say about a patient's risk right now: NEWS2 (kept, or of the vital signs),
 * critical lab results nobody has reviewed, missed immunizations, and recent serious adverse reactions. Read by the
 * patient risk assessment and by the patient-view CDS service.
 */

export async function latestNews2(em: EntityManager, patientId: string): Promise<EarlyWarningScore | null> {
  return em.findOne(EarlyWarningScore, { patientId }, { orderBy: { observedAt: 'desc', createdAt: 'desc' } });
}

/** The NEWS2 of a patient now: a kept score, or the one computed from a vital signs record. */
export type CurrentNews2 = { kept: EarlyWarningScore; vital?: undefined } | { kept?: undefined; vital: Vital; result: RecordNews2 };

/**
 * The patient's NEWS2 now, from the latest kept score and the latest vital signs record that holds the five
 * measurements NEWS2 needs (not entered in error), whichever was observed later. The record is scored from its own
 * fields (consciousness and oxygen not recorded count as alert and air) unless the kept score was computed from that
 * very record after its last change, when the kept score (given the consciousness level and oxygen) stands.
 */
export async function currentNews2(em: EntityManager, patientId: string): Promise<CurrentNews2 | null> {
  const kept = await latestNews2(em, patientId);
  const complete = Object.fromEntries(NEWS2_MEASUREMENTS.map((f) => [f, { $ne: null }]));
  const vital = await em.findOne(
    Vital,
    { patientId, status: { $ne: VitalStatus.entered_in_error }, ...complete },
    { orderBy: { recordedAt: 'desc', id: 'asc' } },
  );
  const result = vital && news2OfRecord(vital);
  if (!vital || !result) return kept ? { kept } : null;
  if (kept && (kept.observedAt > vital.recordedAt || (kept.vitalId === vital.id && kept.createdAt >= vital.updatedAt))) return { kept };
  return { vital, result };
}

/** Critical results awaiting a clinician's review, newest first (at most `limit`, with the total). */
export async function criticalResultsPending(
  em: EntityManager,
  patientId: string,
  limit = 10,
): Promise<{ items: LabResult[]; total: number }> {
  const [items, total] = await em.findAndCount(
    LabResult,
    { patientId, critical: true, reviewStatus: LabResultReviewStatus.pending_review },
    { orderBy: { createdAt: 'desc', id: 'asc' }, limit },
  );
  return { items, total };
}

export function describeResult(r: LabResult): string {
  return `${r.display ?? r.code} ${r.value ?? ''}${r.unit ? ` ${r.unit}` : ''}${r.abnormalFlag ? ` (${r.abnormalFlag})` : ''}`
    .replace(/\s+/g, ' ')
    .trim();
}

/** Doses not given more than the schedule's grace period past their due date, and not yet past their latest age. */
export async function missedImmunizations(em: EntityManager, patientId: string): Promise<Immunization[]> {
  const now = today();
  return em.find(
    Immunization,
    {
      patientId,
      state: DoseState.scheduled,
      dueDate: { $lt: addDays(now, -MISSED_AFTER_DAYS) },
      $or: [{ latestDate: null }, { latestDate: { $gt: now } }],
    },
    { orderBy: { dueDate: 'asc', vaccine: 'asc', doseNumber: 'asc' }, limit: 50 },
  );
}

export function describeDose(d: Immunization): string {
  return `${VACCINES.get(d.vaccine)?.name ?? d.vaccine} dose ${d.doseNumber} (due ${d.dueDate})`;
}

/** Serious adverse reactions reported since `since`. */
export async function recentSeriousReactions(em: EntityManager, patientId: string, since: Date): Promise<AdverseEvent[]> {
  return em.find(AdverseEvent, { patientId, serious: true, createdAt: { $gte: since } }, { orderBy: { createdAt: 'desc' }, limit: 20 });
}
