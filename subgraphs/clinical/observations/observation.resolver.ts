import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { Observation } from './observation.entity';
import { ObservationService } from './observation.service';
import {
  ObservationConnection,
  ObservationListArgs,
  ObservationPage,
  RecordObservationInput,
  UpdateObservationInput,
} from './observation.types';

const OBSERVATION_LIST = patientList('observation', Observation, { sortColumn: 'effective_at', where: "status <> 'entered_in_error'" });

/** `patient { observations }`: the newest observations, batched across patients. */
@Resolver(() => Patient)
export class PatientObservationsResolver {
  @FieldResolver(() => ObservationConnection, {
    nullable: true,
    description:
      'Observations, newest first (when made), by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  observations(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, OBSERVATION_LIST, patient, args);
  }
}

@Resolver(() => Observation)
export class ObservationResolver {
  private readonly service = new ObservationService();

  @Mutation(() => Observation, { description: 'Record an observation (LOINC-coded) about a patient (clinicians of its organization)' })
  recordObservation(
    @Arg('input', { description: 'The fields of the new observation' }) input: RecordObservationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => ObservationPage, {
    description: "Observations of one patient, or of the caller's organizations and own profiles; newest first",
  })
  observations(@Args() args: ObservationListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Observation, { nullable: true, description: 'An observation; NOT_FOUND when missing or not readable' })
  observation(@Arg('id', () => ID, { description: 'The observation' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Observation, { description: 'Change an observation or its status; changing a final one amends it' })
  updateObservation(
    @Arg('id', () => ID, { description: 'The observation' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateObservationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Observation, { description: 'Mark an observation entered in error: kept, hidden from lists and reads' })
  markObservationEnteredInError(@Arg('id', () => ID, { description: 'The observation' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }
}
