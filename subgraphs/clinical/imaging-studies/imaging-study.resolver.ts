import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { transitionResolver } from '../../../shared/transitions';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { IMAGING_STUDY, ImagingStudy } from './imaging-study.entity';
import { ImagingStudyService } from './imaging-study.service';
import {
  CreateImagingStudyInput,
  CreateImagingStudyPayload,
  ImagingStudyListArgs,
  ImagingStudyPage,
  ImagingStudyTransitionArgs,
  ImagingStudyConnection,
} from './imaging-study.types';

const IMAGING_STUDY_LIST = patientList('imaging_study', ImagingStudy, { sortColumn: 'created_at', where: "status <> 'entered_in_error'" });

/** `patient { imagingStudies }`: the newest imaging studies (not those entered in error), batched across patients. */
@Resolver(() => Patient)
export class PatientImagingStudiesResolver {
  @FieldResolver(() => ImagingStudyConnection, {
    nullable: true,
    description:
      'Imaging studies, newest first (not those entered in error), by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  imagingStudies(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, IMAGING_STUDY_LIST, patient, args);
  }
}

@Resolver(() => ImagingStudy)
export class ImagingStudyResolver {
  private readonly service = new ImagingStudyService();

  @PayloadMutation(CreateImagingStudyPayload, {
    description:
      "Record a patient's imaging study (clinicians of its organization); a bad field or a Study Instance UID taken is a user error",
  })
  createImagingStudy(
    @Arg('input', { description: 'The fields of the new imaging study' }) input: CreateImagingStudyInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => ImagingStudyPage, {
    description: "Imaging studies of one patient, or of the caller's organizations and own profiles; newest first",
  })
  imagingStudies(@Args() args: ImagingStudyListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ImagingStudy, { nullable: true, description: 'An imaging study (DICOM metadata); NOT_FOUND when missing or not readable' })
  imagingStudy(@Arg('id', () => ID, { description: 'The imaging study' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }
}

/** One mutation per move of an imaging study; entered in error hides it from reads. */
export const ImagingStudyTransitionResolver = transitionResolver({
  type: () => ImagingStudy,
  machine: IMAGING_STUDY,
  args: ImagingStudyTransitionArgs,
  run: (ctx, args, action) => new ImagingStudyService().transition(ctx, args, action),
  mutations: {
    make_available: {
      name: 'makeImagingStudyAvailable',
      description: 'Mark a registered imaging study available: its images can be retrieved',
    },
    cancel: { name: 'cancelImagingStudy', description: 'Cancel a registered imaging study' },
    enter_in_error: {
      name: 'markImagingStudyEnteredInError',
      description: 'Mark an imaging study entered in error: kept, hidden from lists and reads',
    },
  },
});
