import type { EntityClass } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import type { SubgraphContext } from '../../../shared/subgraph';
import { accessBasis } from './patient-access';
import { auditRead } from '../../../shared/audit/audit-trail';
import type { Patient } from '../patients/patient.entity';

const sqlCache = new Map<string, string>();

/**
 * The patient graph: `patient { clinicalRecords vitals labResults ... }` for one patient or a page of them costs one
 * query per field, whatever the number of patients (a DataLoader gathers the patients, a window function takes the
 * newest `limit` rows of each). The parent Patient was authorized for `patients:read`, which every member role (a
 * receptionist too) and `patients:read` API keys hold; clinical data needs `clinical:read`, so each field checks
 * it itself: without it the field is null with a FORBIDDEN error and the rest of the patient still answers. The
 * read is audited per patient.
 */
export async function recentForPatient<T extends { patientId: string }>(
  ctx: SubgraphContext,
  entity: EntityClass<T>,
  patient: Patient,
  opts: { limit: number; resourceType: string; orderBy?: string; where?: string },
): Promise<T[]> {
  if (!(await accessBasis(ctx, patient, 'clinical:read')))
    throw errors.forbidden('Reading clinical data needs the clinical:read permission');
  const meta = ctx.em.getMetadata().get(entity.name);
  const schema = meta.schema ?? ctx.em.config.get('schema');
  const order = opts.orderBy ?? 'created_at desc, id';
  const filter = opts.where ? ` and (${opts.where})` : '';
  const key = `${schema}.${meta.className}|${order}|${filter}`;
  let sql = sqlCache.get(key);
  if (!sql) {
    const columns = meta.props
      .filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length)
      .flatMap((p) => p.fieldNames.map((f) => `"${f}"`));
    sql =
      `select ${columns.join(', ')} from (select *, row_number() over (partition by patient_id order by ${order}) as rn ` +
      `from "${schema}"."${meta.tableName}" where patient_id in (?)${filter}) ranked where rn <= ? order by patient_id, rn`;
    sqlCache.set(key, sql);
  }
  const loader = ctx.loader<string, T[]>(`recent:${key}:${opts.limit}`, async (patientIds) => {
    const rows = await ctx.em
      .getConnection()
      .execute<Record<string, unknown>[]>(sql!, [patientIds, opts.limit], 'all', ctx.em.getTransactionContext());
    const byPatient = new Map<string, T[]>();
    for (const row of rows) {
      const item = ctx.em.map(entity, row as never);
      const list = byPatient.get(item.patientId) ?? [];
      list.push(item);
      byPatient.set(item.patientId, list);
    }
    return patientIds.map((id) => byPatient.get(id) ?? []);
  });
  auditRead(ctx, { action: 'list', resourceType: opts.resourceType, patientId: patient.id, organizationId: patient.organizationId });
  return loader.load(patient.id) as Promise<T[]>;
}
