import {
  Arg,
  Args,
  createUnionType,
  Ctx,
  FieldResolver,
  getMetadataStorage,
  ID,
  Mutation,
  Query,
  Resolver,
  Root,
  type ClassType,
} from 'type-graphql';
import { byIds, PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { requireClinicalRead } from '../access/patient-graph';
import { patientDataSources } from '../patient-data';
import { Patient } from '../patients/patient.entity';
import { JourneyEvent } from './journey.entity';
import { JourneyService } from './journey.service';
import { JourneyEntry, JourneyPage, RecordJourneyEventInput } from './journey.types';

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
    @Arg('input', { description: 'The fields of the new journey event' }) input: RecordJourneyEventInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.record(ctx, patientId, input);
  }
}

/**
 * The record a journey entry names: one type per source of the journey that is a type of the graph (a clinical
 * record, a lab order or result, a prescription, an immunization, a journey event, ...). Built from the sources the
 * modules declare (`patientData` with a `timeline`), so a module adding one adds its type here.
 */
let recordTypes: ClassType[] | undefined;
function journeyRecordTypes(): ClassType[] {
  if (!recordTypes) {
    const graphTypes = new Set(getMetadataStorage().objectTypes.map((t) => t.target));
    recordTypes = patientDataSources()
      .filter((s) => s.timeline && graphTypes.has(s.entity as ClassType))
      .map((s) => s.entity as ClassType);
  }
  return recordTypes;
}

export const JourneyRecord = createUnionType({
  name: 'JourneyRecord',
  description: 'The record a journey entry names, of the type its resourceType says',
  types: () => journeyRecordTypes() as [ClassType, ...ClassType[]],
  resolveType: (value) => (value as object).constructor as ClassType,
});

/** `patient { journey }`: the rule of `patientJourney` (clinical:read), on a patient the caller reads. */
@Resolver(() => Patient)
export class PatientJourneyResolver {
  private readonly service = new JourneyService();

  @FieldResolver(() => JourneyPage, {
    nullable: true,
    description:
      "The patient's care journey, newest first, as patientJourney has it; read per patient (for a chart, not a list). Clinical data: null with a FORBIDDEN error for a caller without clinical:read",
  })
  async journey(@Root() patient: Patient, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    await requireClinicalRead(ctx, patient);
    return this.service.timelineOf(ctx, patient, args);
  }
}

@Resolver(() => JourneyEntry)
export class JourneyEntryResolver {
  @FieldResolver(() => JourneyRecord, {
    nullable: true,
    description: 'The record itself (its type per resourceType); batched, one query per kind of record in the answer',
  })
  record(@Root() entry: JourneyEntry, @Ctx() ctx: SubgraphContext) {
    // Only the sources that are types of the graph: a kept CDS alert or score has no type to answer with.
    const source = patientDataSources().find((s) => s.section === entry.resourceType && s.timeline);
    if (!source || !journeyRecordTypes().includes(source.entity as ClassType)) return null;
    return ctx.loader<string, object>(`journey-record:${source.section}`, byIds(ctx.em, source.entity)).load(entry.resourceId);
  }
}
