import type { EntityManager } from '../../../shared/db';
import { Immunization, DoseState } from '../immunizations/immunization.entity';
import { MISSED_AFTER_DAYS, VACCINES, addDays, today } from '../immunizations/vaccine-schedule';
import { LabResult, LabResultReviewStatus } from '../labs/lab.entity';
import { AdverseEvent, EarlyWarningScore } from './cds.entity';

/**
 * What the platform's own records say about a patient's risk right now: the latest NEWS2 score, critical lab
 * results nobody has reviewed, missed immunizations, and recent serious adverse reactions. Read by the patient risk
 * assessment and by the patient-view CDS service.
 */

export async function latestNews2(em: EntityManager, patientId: string): Promise<EarlyWarningScore | null> {
  return em.findOne(EarlyWarningScore, { patientId }, { orderBy: { observedAt: 'desc', createdAt: 'desc' } });
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
