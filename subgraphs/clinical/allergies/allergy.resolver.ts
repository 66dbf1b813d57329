import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { Allergy } from './allergy.entity';
import { AllergyService } from './allergy.service';
import {
  AllergyListArgs,
  AllergyPage,
  RecordAllergyInput,
  RecordAllergyPayload,
  UpdateAllergyInput,
  UpdateAllergyPayload,
  AllergyConnection,
} from './allergy.types';

const ALLERGY_LIST = patientList('allergy', Allergy, { sortColumn: 'created_at' });

/** `patient { allergies }`: the newest allergies (every status), batched across patients. */
@Resolver(() => Patient)
export class PatientAllergiesResolver {
  @FieldResolver(() => AllergyConnection, {
    nullable: true,
    description:
      'Allergies of every status, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  allergies(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, ALLERGY_LIST, patient, args);
  }
}

@Resolver(() => Allergy)
export class AllergyResolver {
  private readonly service = new AllergyService();

  @PayloadMutation(RecordAllergyPayload, {
    description:
      "Record a patient's allergy (clinicians of its organization, or the patient); a bad field or an allergy already recorded is a user error",
  })
  recordAllergy(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Arg('input', { description: 'The fields of the new allergy' }) input: RecordAllergyInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.record(ctx, patientId, input);
  }

  @Query(() => AllergyPage, { description: "A patient's allergies, newest first" })
  patientAllergies(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: AllergyListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => Allergy, { nullable: true, description: 'An allergy or intolerance; NOT_FOUND when missing or not readable' })
  allergy(@Arg('id', () => ID, { description: 'The allergy' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @PayloadMutation(UpdateAllergyPayload, {
    description: 'Correct an allergy or change its status; a bad field or making a second active allergy to the substance is a user error',
  })
  updateAllergy(
    @Arg('id', () => ID, { description: 'The allergy' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateAllergyInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }
}
