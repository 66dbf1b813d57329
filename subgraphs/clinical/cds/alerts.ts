import type { EntityManager } from '../../../shared/db';
import { emitEvent } from '../../../shared/outbox';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditRowChange } from '../../../shared/audit/audit-trail';
import { CdsAlert, CdsAlertKind } from './cds.entity';
import { CRITICAL_CARD, CRITICAL_SCORE } from './cds.events';

const RESOURCE = 'cds_alert';

/** The patient a finding is about. */
interface AlertTarget {
  id: string;
  organizationId?: string | null;
}

/**
 * Critical findings, raised once each: the alert row and its event are written in the caller's next flush (one
 * transaction). A finding already raised (same `dedupeKey`: the same score, the same draft order against the same
 * allergy) raises nothing again, so a repeated hook call or a retried request emits no second event.
 */
async function fresh(em: EntityManager, dedupeKeys: string[]): Promise<Set<string>> {
  if (!dedupeKeys.length) return new Set();
  const seen = await em.find(CdsAlert, { dedupeKey: { $in: dedupeKeys } }, { fields: ['dedupeKey'] });
  const taken = new Set(seen.map((a) => a.dedupeKey));
  return new Set(dedupeKeys.filter((k) => !taken.has(k)));
}

export interface CriticalCard {
  dedupeKey: string;
  summary: string;
  detail?: string | null;
}

/** Critical cards a CDS service answered about a patient of the platform. */
export async function raiseCriticalCards(
  ctx: SubgraphContext,
  target: AlertTarget,
  service: { id: string; hook: string },
  hookInstance: string,
  cards: CriticalCard[],
): Promise<number> {
  const keys = cards.map((c) => `${service.id}:${target.id}:${c.dedupeKey}`);
  const todo = await fresh(ctx.em, keys);
  let raised = 0;
  cards.forEach((card, i) => {
    if (!todo.has(keys[i])) return;
    todo.delete(keys[i]);
    const alert = ctx.em.create(CdsAlert, {
      patientId: target.id,
      organizationId: target.organizationId ?? null,
      kind: CdsAlertKind.critical_card,
      source: service.id,
      level: 'critical',
      summary: card.summary,
      detail: card.detail ?? null,
      dedupeKey: keys[i],
      hookInstance,
      raisedBy: ctx.viewer?.userId ?? null,
    });
    auditRowChange(ctx, 'create', RESOURCE, alert, { kind: alert.kind, source: alert.source });
    emitEvent(ctx.em, 'clinical', CRITICAL_CARD, {
      alert_id: alert.id,
      patient_id: alert.patientId,
      organization_id: alert.organizationId ?? null,
      service_id: service.id,
      hook: service.hook,
      hook_instance: hookInstance,
      summary: alert.summary,
      raised_by: alert.raisedBy ?? null,
    });
    raised++;
  });
  return raised;
}

/** A score computed for a patient that reached its urgent threshold. */
export async function raiseCriticalScore(
  ctx: SubgraphContext,
  target: AlertTarget,
  score: { name: 'news2' | 'qsofa'; dedupeKey: string; value: number; risk: string; summary: string; detail?: string },
): Promise<boolean> {
  const key = `${score.name}:${target.id}:${score.dedupeKey}`;
  if (!(await fresh(ctx.em, [key])).size) return false;
  const alert = ctx.em.create(CdsAlert, {
    patientId: target.id,
    organizationId: target.organizationId ?? null,
    kind: CdsAlertKind.critical_score,
    source: score.name,
    level: score.risk,
    summary: score.summary,
    detail: score.detail ?? null,
    dedupeKey: key,
    hookInstance: null,
    raisedBy: ctx.viewer?.userId ?? null,
  });
  auditRowChange(ctx, 'create', RESOURCE, alert, { kind: alert.kind, source: alert.source, level: alert.level });
  emitEvent(ctx.em, 'clinical', CRITICAL_SCORE, {
    alert_id: alert.id,
    patient_id: alert.patientId,
    organization_id: alert.organizationId ?? null,
    score: score.name,
    value: score.value,
    risk: score.risk,
    summary: score.summary,
    raised_by: alert.raisedBy ?? null,
  });
  return true;
}
