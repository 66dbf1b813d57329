import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { Vital } from './vital.entity';
import { VitalService } from './vital.service';
import { RecordVitalInput, UpdateVitalInput, VitalListArgs, VitalPage } from './vital.types';

/** `patient { vitals }`: the newest vital sign records, batched across patients. */
@Resolver(() => Patient)
export class PatientVitalsResolver {
  @FieldResolver(() => [Vital], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  vitals(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, Vital, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'vital',
      orderBy: 'recorded_at desc, id',
      where: "status <> 'entered_in_error'",
    });
  }
}

@Resolver(() => Vital)
export class VitalResolver {
  private readonly service = new VitalService();

  @Mutation(() => Vital, { description: "Record a patient's vital signs (clinicians of its organization)" })
  recordVital(@Arg('input') input: RecordVitalInput, @Ctx() ctx: SubgraphContext) {
    return this.service.record(ctx, input);
  }

  @Query(() => VitalPage, {
    description: "Vital sign records of one patient, or of the caller's organizations and own profiles; newest first",
  })
  vitals(@Args() args: VitalListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Vital, { nullable: true })
  vital(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Vital, { description: 'Correct a vital sign record; it becomes amended' })
  updateVital(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateVitalInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Vital, { description: 'Mark a vital sign record entered in error: kept, hidden from lists and reads' })
  deleteVital(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }
}
