import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { Organization } from '../organizations/organization.entity';
import { DoctorProfile } from './doctor.entity';
import { DoctorService } from './doctor.service';
import {
  CreateDoctorInput,
  CreateDoctorProfilePayload,
  DoctorPage,
  DoctorSearchArgs,
  JoinOrganizationInput,
  AddDoctorToOrganizationPayload,
  OrganizationDoctorsArgs,
  UpdateDoctorInput,
  UpdateDoctorProfilePayload,
  VerifyDoctorInput,
} from './doctor.types';

const PRIVATE = 'Private: the doctor, administrators and members of an organization the doctor is linked to; null for others';

@Resolver(() => DoctorProfile)
export class DoctorResolver {
  private readonly service = new DoctorService();

  @Public()
  @Query(() => DoctorPage, { description: 'The public directory of approved doctors, by name' })
  doctors(@Args() args: DoctorSearchArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.search(ctx, args);
  }

  @Public()
  @Query(() => DoctorProfile, { nullable: true, description: 'Approved profiles for anyone; others for their owner and administrators' })
  doctor(@Arg('id', () => ID, { description: 'The doctor profile' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Query(() => DoctorProfile, { nullable: true, description: "The caller's doctor profile" })
  myDoctorProfile(@Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx);
  }

  @RequiresPlatformPermission('admin:doctors')
  @Query(() => DoctorPage, { description: 'Profiles waiting for verification, newest first (admin:doctors)' })
  pendingDoctors(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.pending(ctx, args);
  }

  @Public()
  @Query(() => DoctorPage, { description: "An organization's doctors; outside it, the approved ones of an active organization" })
  organizationDoctors(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: OrganizationDoctorsArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @PayloadMutation(CreateDoctorProfilePayload, {
    description:
      "Create the caller's doctor profile (administrators: anyone's, with userId); a bad field, a profile already filled in or a license number taken is a user error",
  })
  createDoctorProfile(
    @Arg('input', { description: 'The fields of the new doctor profile' }) input: CreateDoctorInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @PayloadMutation(UpdateDoctorProfilePayload, {
    description: 'Change a doctor profile (the doctor or an administrator); a bad field or a license number taken is a user error',
  })
  updateDoctorProfile(
    @Arg('id', () => ID, { description: 'The doctor profile' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateDoctorInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @RequiresPlatformPermission('admin:doctors')
  @Mutation(() => DoctorProfile, { description: 'Approve or reject a pending profile (admin:doctors)' })
  verifyDoctor(
    @Arg('id', () => ID, { description: 'The doctor profile' }) id: string,
    @Arg('input', { description: 'The decision, with a reason when rejecting' }) input: VerifyDoctorInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.verify(ctx, id, input);
  }

  @PayloadMutation(AddDoctorToOrganizationPayload, {
    description:
      'Link an approved doctor to an organization, adding them as a member if needed; a bad field or a doctor already linked is a user error',
  })
  addDoctorToOrganization(
    @Arg('id', () => ID, { description: 'The doctor profile' }) id: string,
    @Arg('input', { description: 'The organization to join' }) input: JoinOrganizationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.join(ctx, id, input);
  }

  @Mutation(() => DoctorProfile, { description: 'Unlink a doctor from an organization (an ORG:DOCTOR membership goes too)' })
  removeDoctorFromOrganization(
    @Arg('id', () => ID, { description: 'The doctor profile' }) id: string,
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.leave(ctx, id, organizationId);
  }

  @FieldResolver(() => [Organization], { description: 'Organizations the doctor works in (active ones, and others the caller belongs to)' })
  organizations(@Root() doctor: DoctorProfile, @Ctx() ctx: SubgraphContext) {
    return this.service.organizationsOf(ctx, doctor);
  }

  @FieldResolver(() => String, { nullable: true, description: PRIVATE })
  async email(@Root() doctor: DoctorProfile, @Ctx() ctx: SubgraphContext) {
    return (await this.service.canSeePrivate(ctx, doctor)) ? doctor.email : null;
  }

  @FieldResolver(() => String, { nullable: true, description: `International format. ${PRIVATE}` })
  async phone(@Root() doctor: DoctorProfile, @Ctx() ctx: SubgraphContext) {
    return (await this.service.canSeePrivate(ctx, doctor)) ? (doctor.phone ?? null) : null;
  }

  @FieldResolver(() => String, { nullable: true, description: PRIVATE })
  async licenseNumber(@Root() doctor: DoctorProfile, @Ctx() ctx: SubgraphContext) {
    return (await this.service.canSeePrivate(ctx, doctor)) ? (doctor.licenseNumber ?? null) : null;
  }

  @FieldResolver(() => String, { nullable: true, description: `The administrator's reason for the decision. ${PRIVATE}` })
  async verificationReason(@Root() doctor: DoctorProfile, @Ctx() ctx: SubgraphContext) {
    return (await this.service.canSeePrivate(ctx, doctor)) ? (doctor.verificationReason ?? null) : null;
  }

  @FieldResolver(() => ID, { nullable: true, description: `The administrator who decided. ${PRIVATE}` })
  async verifiedBy(@Root() doctor: DoctorProfile, @Ctx() ctx: SubgraphContext) {
    return (await this.service.canSeePrivate(ctx, doctor)) ? (doctor.verifiedBy ?? null) : null;
  }

  static resolveReference(ref: { id: string }, ctx: SubgraphContext) {
    return new DoctorService().reference(ctx, ref.id);
  }
}
