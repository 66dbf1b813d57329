import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { Vital } from './vital.entity';
import { VitalService } from './vital.service';
import { RecordVitalInput, UpdateVitalInput, VitalListArgs, VitalPage, VitalConnection } from './vital.types';

const VITAL_LIST = patientList('vital', Vital, { sortColumn: 'recorded_at', where: "status <> 'entered_in_error'" });

/** `patient { vitals }`: the newest vital sign records, batched across patients. */
@Resolver(() => Patient)
export class PatientVitalsResolver {
  @FieldResolver(() => VitalConnection, {
    nullable: true,
    description:
      'Vital sign records, newest measurement first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  vitals(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, VITAL_LIST, patient, args);
  }
}

@Resolver(() => Vital)
export class VitalResolver {
  private readonly service = new VitalService();

  @Mutation(() => Vital, { description: "Record a patient's vital signs (clinicians of its organization)" })
  recordVital(
    @Arg('input', { description: 'The fields of the new vital signs record' }) input: RecordVitalInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.record(ctx, input);
  }

  @Query(() => VitalPage, {
    description: "Vital sign records of one patient, or of the caller's organizations and own profiles; newest first",
  })
  vitals(@Args() args: VitalListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Vital, { nullable: true, description: 'A vital signs record; NOT_FOUND when missing or not readable' })
  vital(@Arg('id', () => ID, { description: 'The vital signs record' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Vital, { description: 'Correct a vital sign record; it becomes amended' })
  updateVital(
    @Arg('id', () => ID, { description: 'The vital signs record' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateVitalInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Vital, { description: 'Mark a vital sign record entered in error: kept, hidden from lists and reads' })
  markVitalEnteredInError(@Arg('id', () => ID, { description: 'The vital signs record' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }
}
