import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
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
