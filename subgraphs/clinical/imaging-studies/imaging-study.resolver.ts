import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { ImagingStudy } from './imaging-study.entity';
import { ImagingStudyService } from './imaging-study.service';
import { CreateImagingStudyInput, ImagingStudyListArgs, ImagingStudyPage, UpdateImagingStudyStatusArgs } from './imaging-study.types';

/** `patient { imagingStudies }`: the newest imaging studies (not those entered in error), batched across patients. */
@Resolver(() => Patient)
export class PatientImagingStudiesResolver {
  @FieldResolver(() => [ImagingStudy], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  imagingStudies(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, ImagingStudy, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'imaging_study',
      where: "status <> 'entered_in_error'",
    });
  }
}

@Resolver(() => ImagingStudy)
export class ImagingStudyResolver {
  private readonly service = new ImagingStudyService();

  @Mutation(() => ImagingStudy, { description: "Record a patient's imaging study (clinicians of its organization)" })
  createImagingStudy(@Arg('input') input: CreateImagingStudyInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => ImagingStudyPage, {
    description: "Imaging studies of one patient, or of the caller's organizations and own profiles; newest first",
  })
  imagingStudies(@Args() args: ImagingStudyListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ImagingStudy, { nullable: true })
  imagingStudy(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => ImagingStudy, { description: 'Move an imaging study to another status (make available, cancel, enter in error)' })
  updateImagingStudyStatus(@Args() args: UpdateImagingStudyStatusArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.changeStatus(ctx, args);
  }
}
