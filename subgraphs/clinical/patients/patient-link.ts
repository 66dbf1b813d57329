import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import { idLinkFields } from '../../../shared/refs';
import type { PatientRow } from '../../../shared/audit/audit-trail';
import { byIds, isUuid } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { accessBasis, loadPatient } from '../access/patient-access';
import { Patient } from './patient.entity';
import { PatientService } from './patient.service';

/**
 * `patient` beside `patientId` on a record of this subgraph: batched (one query for every record of a response),
 * under the rule of `patient(id)` (who may read the patient), and null when the caller may not.
 */
export function patientField<T extends { patientId?: string | null }>(entity: ClassType<T>): ClassType {
  @Resolver(() => entity)
  class PatientLink {
    private readonly service = new PatientService();

    @FieldResolver(() => Patient, {
      nullable: true,
      description: 'The patient it belongs to; null when the caller may not read the patient',
    })
    patient(@Root() row: T, @Ctx() ctx: SubgraphContext): Promise<Patient | null> | null {
      return row.patientId ? this.service.resolveReference(ctx, row.patientId) : null;
    }
  }
  Object.defineProperty(PatientLink, 'name', { value: `${entity.name}PatientLink` });
  return PatientLink;
}

/** A record field beside an id naming another record of this subgraph: `{ serviceRequest: { id: 'serviceRequestId', type: ServiceRequest } }`. */
export type RecordFields<T> = Record<
  string,
  { id: keyof T & string; type: ClassType<PatientRow>; description?: string; hidden?: (row: PatientRow) => boolean }
>;

/**
 * A resolver giving `entity` an object field beside each id naming another patient record of this subgraph
 * (`serviceRequestId` → `serviceRequest`): batched (one query per kind of record for a whole response), under the
 * rule of the record's root lookup (its patient's clinical data: `clinical:read`, the patient, a consent), and null
 * when there is no id, the record is hidden (entered in error) or the caller may not read it.
 */
export function recordFields<T extends object>(entity: ClassType<T>, fields: RecordFields<T>): ClassType {
  const links = Object.entries(fields).map(([field, link]) => [
    field,
    {
      id: link.id,
      type: link.type,
      description: link.description ?? `The record \`${link.id}\` names; null when there is none or the caller may not read it`,
      resolve: async (id: string, ctx: SubgraphContext): Promise<PatientRow | null> => {
        if (!ctx.viewer || !isUuid(id)) return null;
        const row = await ctx.loader<string, PatientRow>(`record:${link.type.name}`, byIds(ctx.em, link.type)).load(id);
        if (!row || link.hidden?.(row)) return null;
        const patient = await loadPatient(ctx, row.patientId);
        return patient && (await accessBasis(ctx, patient, 'clinical:read')) ? row : null;
      },
    },
  ]);
  return idLinkFields(entity, 'RecordLinks', Object.fromEntries(links));
}
