import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { JourneyEvent } from './journey.entity';
import { JourneyService } from './journey.service';
import { JourneyPage, RecordJourneyEventInput } from './journey.types';

@Resolver(() => JourneyEvent)
export class JourneyResolver {
  private readonly service = new JourneyService();

  @Query(() => JourneyPage, { description: "A patient's care journey, newest first: events, records, labs, prescriptions, immunizations" })
  patientJourney(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.timeline(ctx, patientId, args);
  }

  @Mutation(() => JourneyEvent, { description: "Record an event on a patient's journey (clinicians, or the patient)" })
  recordJourneyEvent(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Arg('input') input: RecordJourneyEventInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.record(ctx, patientId, input);
  }
}
