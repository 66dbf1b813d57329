import type { EntityClass } from '@mikro-orm/core';
import { keysetConnection, windowOf, type Connection, type ConnectionArgs, type KeysetList } from '../../../shared/connection';
import { errors } from '../../../shared/errors';
import type { SubgraphContext } from '../../../shared/subgraph';
import { accessBasis } from './patient-access';
import { auditRead } from '../../../shared/audit/audit-trail';
import type { Patient } from '../patients/patient.entity';

/**
 * The patient graph: `patient { vitals(first, after) { ... } }` is one page of a patient's list by cursor
 * (shared/connection.ts). For one patient or a page of them it costs one query per field (and one more for
 * `totalCount`), whatever the number of patients: a DataLoader gathers the patients, a window function takes each
 * one's page. The parent Patient was authorized for `patients:read`, which every member role (a receptionist too)
 * and `patients:read` API keys hold; clinical data needs `clinical:read`, so each field checks it itself: clinical data needs `clinical:read`, or the
 * field is null with a FORBIDDEN error and the rest of the patient still answers. The read is audited per patient.
 */
export async function connectionForPatient<T extends { id: string; patientId: string }>(
  ctx: SubgraphContext,
  list: KeysetList<T> & { resourceType: string },
  patient: Patient,
  args: ConnectionArgs,
): Promise<Connection<T>> {
  windowOf(args); // bad arguments are the caller's error whatever their permissions
  await requireClinicalRead(ctx, patient);
  const connection = await keysetConnection(ctx, list, patient.id, args);
  auditRead(ctx, { action: 'list', resourceType: list.resourceType, patientId: patient.id, organizationId: patient.organizationId });
  return connection;
}

/**
 * The rule of a clinical join on a patient the caller already reads (`patients:read`): its clinical data needs
 * `clinical:read` (or the patient's own profile, a consent, ...: `accessBasis`), else FORBIDDEN on the field only.
 */
export async function requireClinicalRead(ctx: SubgraphContext, patient: Patient): Promise<void> {
  if (!(await accessBasis(ctx, patient, 'clinical:read')))
    throw errors.forbidden('Reading clinical data needs the clinical:read permission');
}

/** A list of a patient's rows (`patient_id`), newest first by `sortColumn`, for `connectionForPatient`. */
export const patientList = <T>(
  resourceType: string,
  entity: EntityClass<T>,
  opts: Omit<KeysetList<T>, 'name' | 'entity' | 'parentColumn'>,
): KeysetList<T> & { resourceType: string } => ({
  name: `patient:${resourceType}`,
  resourceType,
  entity,
  parentColumn: 'patient_id',
  ...opts,
});
