import { wrap, type FilterQuery } from '@mikro-orm/core';
import { snakeCase } from '../../shared/case';
import type { EntityManager } from '../../shared/db';
import type { PatientDataSource, TimelineEntry } from '../../shared/module';

export type { PatientDataSource, TimelineEntry };

/**
 * Everything the clinical subgraph holds about a patient, declared by each module in its manifest (`patientData`).
 * The data export and erasure walk this list (a module missing from it would make the export incomplete: a test
 * checks every entity with a patientId is listed), and the care journey takes its timeline entries from the
 * sources that have one. The subgraph hands the list over once its modules are found.
 */
let sources: readonly PatientDataSource[] = [];

export function setPatientDataSources(list: readonly PatientDataSource[]): void {
  sources = list;
}

export function patientDataSources(): readonly PatientDataSource[] {
  return sources;
}

/** A row as the export writes it: snake_case keys, dates as ISO strings. */
function exported(row: object): Record<string, unknown> {
  const plain = wrap(row).toObject() as Record<string, unknown>;
  return Object.fromEntries(Object.entries(plain).map(([k, v]) => [snakeCase(k), v instanceof Date ? v.toISOString() : v]));
}

export async function exportSection(em: EntityManager, source: PatientDataSource, patientId: string): Promise<Record<string, unknown>[]> {
  const rows = await em.find(
    source.entity,
    { ...(source.ofPatient?.(patientId) ?? { patientId }), ...(source.where ?? {}) } as FilterQuery<{
      id: string;
      patientId?: string | null;
    }>,
    {
      orderBy: { createdAt: 'asc' } as never,
    },
  );
  return rows.map(exported);
}

export async function timelineOf(em: EntityManager, source: PatientDataSource, patientId: string, limit: number): Promise<TimelineEntry[]> {
  const t = source.timeline!;
  const where = { ...(source.ofPatient?.(patientId) ?? { patientId }), ...(source.where ?? {}), ...(t.where ?? {}) };
  const rows = await em.find(source.entity, where as FilterQuery<{ id: string; patientId?: string | null }>, {
    orderBy: { [t.at]: 'desc', createdAt: 'desc' } as never,
    limit,
  });
  return rows.map((row) => {
    const r = row as unknown as Record<string, unknown>;
    const at = r[t.at] as Date | string;
    return {
      occurredAt: at instanceof Date ? at : new Date(`${at}T00:00:00Z`),
      kind: t.kind,
      title: t.title(r),
      resourceType: source.section,
      resourceId: row.id,
    };
  });
}
