import { Arg, Args, Ctx, Directive, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import { OrganizationRef, ref } from '../../../shared/refs';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { accessBasis, loadPatient } from '../access/patient-access';
import { Patient } from './patient.entity';
import { PatientService } from './patient.service';
import {
  CreateOrganizationPatientPayload,
  CreatePatientInput,
  CreatePatientPayload,
  PatientInput,
  PatientPage,
  PatientSearchArgs,
  UpdatePatientInput,
  UpdatePatientPayload,
} from './patient.types';

@Resolver(() => Patient)
export class PatientResolver {
  private readonly service = new PatientService();

  @PayloadMutation(CreatePatientPayload, {
    description: 'Create a patient profile; a bad field or a medical record number taken is a user error',
  })
  createPatient(@Arg('input', { description: 'The fields of the new patient' }) input: CreatePatientInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => Patient, { nullable: true, description: "The signed-in patient's own profile" })
  myPatientProfile(@Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx);
  }

  @Query(() => Patient, {
    nullable: true,
    description:
      'A patient, under the clinical access rules (own profile, organization staff, consent); NOT_FOUND when missing or not readable',
  })
  patient(@Arg('id', () => ID, { description: 'The patient' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @PayloadMutation(UpdatePatientPayload, {
    description: "Change a patient's demographics (patients:write, or the patient themselves); a bad field is a user error",
  })
  updatePatient(
    @Arg('id', () => ID, { description: 'The patient' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdatePatientInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Query(() => PatientPage, { description: 'Patients registered with an organization' })
  organizationPatients(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @RequiresOrgPermission('patients:write')
  @PayloadMutation(CreateOrganizationPatientPayload, {
    description:
      'Create a patient of an organization; assigns a medical record number when none is given; a bad field or a number taken is a user error',
  })
  createOrganizationPatient(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'The fields of the new patient' }) input: PatientInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.register(ctx, organizationId, input);
  }

  @Query(() => Patient, {
    nullable: true,
    description: "A patient of an organization, as its staff sees it; NOT_FOUND when the patient is not the organization's",
  })
  organizationPatient(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.getInOrganization(ctx, organizationId, patientId);
  }

  @Query(() => PatientPage, {
    description: 'Find patients of an organization by the start of their medical record number and/or of their names',
  })
  searchOrganizationPatients(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: PatientSearchArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.search(ctx, organizationId, args);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true })
  organization(@Root() patient: Patient) {
    return ref(patient.organizationId);
  }

  /**
   * Asked by other subgraphs for their clinical fields (shared/clinical.ts): of the patients named, those whose clinical
   * data the caller may read, under the rule of the patients' own clinical lists. Not a read of the patients.
   */
  @Directive('@inaccessible')
  @Query(() => [ID], {
    description: "Of these patients, those whose clinical data the caller may read (for other subgraphs' clinical fields)",
  })
  async patientsWithClinicalAccess(
    @Arg('ids', () => [ID], { description: 'Patients the caller reads records of' }) ids: string[],
    @Ctx() ctx: SubgraphContext,
  ): Promise<string[]> {
    const readable = await Promise.all(
      ids.map(async (id) => {
        const patient = await loadPatient(ctx, id);
        return !!patient && !!(await accessBasis(ctx, patient, 'clinical:read'));
      }),
    );
    return ids.filter((_id, i) => readable[i]);
  }

  static resolveReference(reference: { id: string }, ctx: SubgraphContext) {
    return new PatientService().resolveReference(ctx, reference.id);
  }
}

/** `organization { patients }`: the rule of `organizationPatients` (patients:read there), one organization per call. */
@Resolver(() => OrganizationRef)
export class OrganizationPatientsResolver {
  private readonly service = new PatientService();

  @FieldResolver(() => PatientPage, {
    nullable: true,
    description: "The organization's patients, newest registered first (patients:read); as organizationPatients",
  })
  patients(@Root() org: OrganizationRef, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listForOrganization(ctx, org.id, args);
  }
}
