import { wrap, type EntityClass, type FilterQuery } from '@mikro-orm/core';
import { snakeCase } from '../../shared/case';
import type { EntityManager } from '../../shared/db';

/**
 * Everything the clinical subgraph holds about a patient, declared once per module. The data export walks this list
 * (a module missing from it would make the export incomplete: a test checks every entity with a patientId is
 * listed), and the care journey takes its timeline entries from the sources that have one.
 */
export interface TimelineEntry {
  occurredAt: Date;
  kind: string;
  title: string;
  resourceType: string;
  resourceId: string;
}

export interface PatientDataSource {
  /** The export section, snake_case (`clinical_records`). */
  section: string;
  entity: EntityClass<{ id: string; patientId?: string | null }>;
  /** Rows to leave out of the export (none by default). */
  where?: Record<string, unknown>;
  /**
   * How rows of this source appear on the patient's care journey, if they do: `at` names a timestamp or a
   * YYYY-MM-DD property, `where` keeps only the rows that are events (a dose given, not one planned).
   */
  timeline?: { kind: string; at: string; where?: Record<string, unknown>; title: (row: Record<string, unknown>) => string };
}

/** A row as the export writes it: snake_case keys, dates as ISO strings. */
function exported(row: object): Record<string, unknown> {
  const plain = wrap(row).toObject() as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(plain).map(([k, v]) => [snakeCase(k), v instanceof Date ? v.toISOString() : v]),
  );
}

export async function exportSection(em: EntityManager, source: PatientDataSource, patientId: string): Promise<Record<string, unknown>[]> {
  const rows = await em.find(source.entity, { patientId, ...(source.where ?? {}) } as FilterQuery<{ id: string; patientId?: string | null }>, {
    orderBy: { createdAt: 'asc' } as never,
  });
  return rows.map(exported);
}

export async function timelineOf(em: EntityManager, source: PatientDataSource, patientId: string, limit: number): Promise<TimelineEntry[]> {
  const t = source.timeline!;
  const where = { patientId, ...(source.where ?? {}), ...(t.where ?? {}) };
  const rows = await em.find(source.entity, where as FilterQuery<{ id: string; patientId?: string | null }>, {
    orderBy: { [t.at]: 'desc', createdAt: 'desc' } as never,
    limit,
  });
  return rows.map((row) => {
    const r = row as unknown as Record<string, unknown>;
    const at = r[t.at] as Date | string;
    return { occurredAt: at instanceof Date ? at : new Date(`${at}T00:00:00Z`), kind: t.kind, title: t.title(r), resourceType: source.section, resourceId: row.id };
  });
}
