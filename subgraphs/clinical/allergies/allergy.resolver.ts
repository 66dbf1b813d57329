import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { Allergy } from './allergy.entity';
import { AllergyService } from './allergy.service';
import { AllergyListArgs, AllergyPage, RecordAllergyInput, UpdateAllergyInput } from './allergy.types';

/** `patient { allergies }`: the newest allergies (every status), batched across patients. */
@Resolver(() => Patient)
export class PatientAllergiesResolver {
  @FieldResolver(() => [Allergy], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  allergies(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, Allergy, patient, { limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE), resourceType: 'allergy' });
  }
}

@Resolver(() => Allergy)
export class AllergyResolver {
  private readonly service = new AllergyService();

  @Mutation(() => Allergy, { description: "Record a patient's allergy (clinicians of its organization, or the patient)" })
  recordAllergy(@Arg('patientId', () => ID) patientId: string, @Arg('input') input: RecordAllergyInput, @Ctx() ctx: SubgraphContext) {
    return this.service.record(ctx, patientId, input);
  }

  @Query(() => AllergyPage, { description: "A patient's allergies, newest first" })
  patientAllergies(@Arg('patientId', () => ID) patientId: string, @Args() args: AllergyListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => Allergy, { nullable: true })
  allergy(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Allergy, { description: 'Correct an allergy or change its status' })
  updateAllergy(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateAllergyInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }
}
