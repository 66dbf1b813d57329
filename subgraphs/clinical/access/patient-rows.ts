import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { organizationsWith, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { PatientRow } from '../../../shared/audit/audit-trail';
import { Patient } from '../patients/patient.entity';
import { readablePatient, writablePatient } from './patient-access';

/** An outsider learns nothing of the row (404 naming `what`); a member without the clinical role is told why not. */
export const hiddenAs =
  (what: string) =>
  (err: unknown): never => {
    throw (err as { extensions?: { code?: string } }).extensions?.code === 'NOT_FOUND' ? errors.notFound(what) : err;
  };

/**
 * One row of a patient's data by id, when the caller may read that patient's data; 404 naming `what` otherwise
 * (also for rows `hidden` from reads, such as those entered in error). An outsider learns nothing of the row; a
 * member of the organization without the clinical role is told why not (403).
 */
export async function readableRow<T extends PatientRow>(
  ctx: SubgraphContext,
  entity: EntityClass<T>,
  id: string,
  what: string,
  hidden?: (row: T) => boolean,
): Promise<T> {
  requireViewer(ctx.viewer);
  const row = isUuid(id) ? await ctx.em.findOne(entity, { id } as FilterQuery<T>) : null;
  if (!row || hidden?.(row)) throw errors.notFound(what);
  await readablePatient(ctx, row.patientId).catch(hiddenAs(what));
  return row;
}

/** The row, when the caller may also change its patient's data (`allowSelf`: the patient may change their own). */
export async function writableRow<T extends PatientRow>(
  ctx: SubgraphContext,
  entity: EntityClass<T>,
  id: string,
  what: string,
  opts: { hidden?: (row: T) => boolean; allowSelf?: boolean } = {},
): Promise<T> {
  const row = await readableRow(ctx, entity, id, what, opts.hidden);
  await writablePatient(ctx, row.patientId, { allowSelf: opts.allowSelf });
  return row;
}

/**
 * Which rows a list without a patient filter shows the caller: those of organizations where the caller may read
 * clinical data, and those of the caller's own patient profiles (their own, or unaffiliated ones they created); a
 * platform administrator, who may read any patient, sees every row. Null when there are none, so the list is empty
 * without a query. Patients shared by consent are listed with a patient filter, which goes through `readablePatient`.
 */
export async function readableScope<T extends { patientId: string; organizationId?: string | null }>(
  ctx: SubgraphContext,
): Promise<FilterQuery<T> | null> {
  const viewer = requireViewer(ctx.viewer);
  const orgs = organizationsWith(viewer, 'clinical:read');
  if (!orgs) return {} as FilterQuery<T>;
  const own =
    viewer.apiKey || viewer.system
      ? []
      : await ctx.em.find(
          Patient,
          { $or: [{ userId: viewer.userId }, { organizationId: null, createdBy: viewer.userId }] },
          { fields: ['id'] },
        );
  const or: FilterQuery<T>[] = [
    ...(orgs.length ? [{ organizationId: { $in: orgs } } as FilterQuery<T>] : []),
    ...(own.length ? [{ patientId: { $in: own.map((p) => p.id) } } as FilterQuery<T>] : []),
  ];
  return or.length ? ({ $or: or } as FilterQuery<T>) : null;
}
