import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import { OrganizationRef, ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Patient } from './patient.entity';
import { PatientService } from './patient.service';
import { CreatePatientInput, PatientInput, PatientPage, PatientSearchArgs, UpdatePatientInput } from './patient.types';

@Resolver(() => Patient)
export class PatientResolver {
  private readonly service = new PatientService();

  @Mutation(() => Patient, { description: 'Create a patient profile' })
  createPatient(@Arg('input') input: CreatePatientInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => Patient, { nullable: true, description: "The signed-in patient's own profile" })
  myPatientProfile(@Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx);
  }

  @Query(() => Patient, { nullable: true })
  patient(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Patient)
  updatePatient(@Arg('id', () => ID) id: string, @Arg('input') input: UpdatePatientInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Query(() => PatientPage, { description: 'Patients registered with an organization' })
  organizationPatients(@Arg('organizationId', () => ID) organizationId: string, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @Mutation(() => Patient, { description: 'Register a patient with an organization; assigns a medical record number' })
  registerOrganizationPatient(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input') input: PatientInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.register(ctx, organizationId, input);
  }

  @Query(() => Patient, { nullable: true })
  organizationPatient(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('patientId', () => ID) patientId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.getInOrganization(ctx, organizationId, patientId);
  }

  @Query(() => PatientPage, { description: 'Find patients of an organization by medical record number' })
  searchOrganizationPatients(
    @Arg('organizationId', () => ID) organizationId: string,
    @Args() args: PatientSearchArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.searchByMrn(ctx, organizationId, args);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true })
  organization(@Root() patient: Patient) {
    return ref(patient.organizationId);
  }

  static resolveReference(reference: { id: string }, ctx: SubgraphContext) {
    return new PatientService().resolveReference(ctx, reference.id);
  }
}
