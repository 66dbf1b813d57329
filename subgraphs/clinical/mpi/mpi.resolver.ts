import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds, PageArgs } from '../../../shared/model';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Patient } from '../patients/patient.entity';
import { PatientLink, PatientLinkEvent } from './mpi.entity';
import { MpiService } from './mpi.service';
import {
  LinkPatientsInput,
  MatchPatientsInput,
  MatchResult,
  PatientLinkPage,
  PatientMatchListArgs,
  ReviewPatientLinkInput,
  UnlinkPatientsInput,
} from './mpi.types';

const ADMINS = 'SUPER:ADMIN and APP:ADMIN only';

@Resolver(() => PatientLink)
export class MpiResolver {
  private readonly service = new MpiService();

  @RequiresPlatformPermission('mpi:manage')
  @Query(() => MatchResult, { description: `Patients matching a set of demographics, scored in [0, 1], best first (${ADMINS})` })
  matchPatients(
    @Arg('input', { description: "An existing patient's id, or the demographics" }) input: MatchPatientsInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.match(ctx, input);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Query(() => GraphQLJSONObject, {
    nullable: true,
    description: `A patient as a FHIR R4 Patient resource, with links to its linked records (${ADMINS})`,
  })
  mpiFhirPatient(@Arg('id', () => ID, { description: 'The patient' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.fhirPatient(ctx, id);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Query(() => PatientLinkPage, { description: `The records linked to a patient as the same person (${ADMINS})` })
  patientLinks(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.linksOf(ctx, patientId, args);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Query(() => PatientLinkPage, { description: `Match candidates waiting for review, best score first (${ADMINS})` })
  patientLinkCandidates(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.candidates(ctx, args);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Query(() => PatientLinkPage, { description: `Every match in any status: candidates, links, rejected and unlinked pairs (${ADMINS})` })
  patientMatches(@Args() args: PatientMatchListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.matches(ctx, args);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Query(() => PatientLink, { nullable: true, description: `One match with its history (${ADMINS})` })
  patientMatch(@Arg('id', () => ID, { description: 'The match (link) id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Mutation(() => PatientLink, { description: `Propose two records as the same person; the pair waits for review (${ADMINS})` })
  createPatientLink(
    @Arg('input', { description: 'The fields of the new patient link' }) input: LinkPatientsInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.propose(ctx, input);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Mutation(() => PatientLink, {
    description: `Link two records as the same person now; answers the link as it is when already linked (${ADMINS})`,
  })
  linkPatients(@Arg('input', { description: 'The two patients to link' }) input: LinkPatientsInput, @Ctx() ctx: SubgraphContext) {
    return this.service.link(ctx, input);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Mutation(() => PatientLink, {
    description: `Decide a candidate waiting for review: approve links the pair, reject (with a reason) keeps them apart (${ADMINS})`,
  })
  reviewPatientLink(
    @Arg('id', () => ID, { description: 'The candidate (link) id' }) id: string,
    @Arg('input', { description: 'The decision, with a reason when rejecting' }) input: ReviewPatientLinkInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.review(ctx, id, input);
  }

  @RequiresPlatformPermission('mpi:manage')
  @Mutation(() => PatientLink, { description: `Undo a link; the link and its history are kept, status unlinked (${ADMINS})` })
  unlinkPatients(
    @Arg('id', () => ID, { description: 'The link id' }) id: string,
    @Arg('input', { description: 'Why the link is undone' }) input: UnlinkPatientsInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.unlink(ctx, id, input);
  }

  @FieldResolver(() => Patient, { description: 'One record of the pair' })
  patient(@Root() link: PatientLink, @Ctx() ctx: SubgraphContext) {
    return ctx.loader<string, Patient>('patient', byIds(ctx.em, Patient)).load(link.patientId);
  }

  @FieldResolver(() => Patient, { description: 'The other record of the pair' })
  linkedPatient(@Root() link: PatientLink, @Ctx() ctx: SubgraphContext) {
    return ctx.loader<string, Patient>('patient', byIds(ctx.em, Patient)).load(link.linkedPatientId);
  }

  @FieldResolver(() => [PatientLinkEvent], { description: 'Every step of the link: who did what, when, and why; oldest first' })
  history(@Root() link: PatientLink, @Ctx() ctx: SubgraphContext) {
    return this.service.history(ctx, link);
  }
}
