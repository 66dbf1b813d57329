import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { OrganizationRef, ref } from '../../../shared/refs';
import { LocalDate } from '../../../shared/scalars';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { loadPatient } from '../access/patient-access';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { PatientTreatment, PatientTreatmentStatus, TreatmentProtocol, TreatmentProtocolVersion, TreatmentStep } from './treatment.entity';
import { PatientTreatmentService, plannedEndDate, TreatmentProtocolService } from './treatment.service';
import {
  AssignTreatmentInput,
  AssignTreatmentPayload,
  CreateTreatmentProtocolInput,
  CreateTreatmentProtocolPayload,
  PatientTreatmentConnection,
  PatientTreatmentListArgs,
  PatientTreatmentPage,
  ProtocolListArgs,
  TreatmentProtocolDeletion,
  TreatmentProtocolPage,
  UpdatePatientTreatmentInput,
  UpdateTreatmentProtocolInput,
  UpdateTreatmentProtocolPayload,
} from './treatment.types';

@Resolver(() => TreatmentProtocol)
export class TreatmentProtocolResolver {
  private readonly service = new TreatmentProtocolService();

  @PayloadMutation(CreateTreatmentProtocolPayload, {
    description:
      "Write a treatment protocol (the organization's doctors and administrators; platform administrators for the platform's own); a bad field or an active protocol of the same name is a user error",
  })
  createTreatmentProtocol(@Arg('input', { description: 'The protocol' }) input: CreateTreatmentProtocolInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => TreatmentProtocolPage, {
    description: "Protocols the caller may read: the platform's and those of their organizations; by name",
  })
  treatmentProtocols(@Args() args: ProtocolListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => TreatmentProtocol, { nullable: true, description: 'A treatment protocol' })
  treatmentProtocol(@Arg('id', () => ID, { description: 'The protocol id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @PayloadMutation(UpdateTreatmentProtocolPayload, {
    description:
      'Change a protocol: a new version; treatments keep following theirs. A retired protocol cannot change. A bad field or an active protocol of the same name is a user error',
  })
  updateTreatmentProtocol(
    @Arg('id', () => ID, { description: 'The protocol id' }) id: string,
    @Arg('input', { description: 'The changes' }) input: UpdateTreatmentProtocolInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => TreatmentProtocolDeletion, {
    description: 'Delete a protocol no treatment used; one that treatments use is retired instead',
  })
  deleteTreatmentProtocol(@Arg('id', () => ID, { description: 'The protocol id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }

  @FieldResolver(() => [TreatmentProtocolVersion], { description: 'Every version, oldest first (the current one last)' })
  versions(@Root() protocol: TreatmentProtocol, @Ctx() ctx: SubgraphContext) {
    return this.service.versions(ctx, protocol);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization it belongs to' })
  organization(@Root() protocol: TreatmentProtocol) {
    return ref(protocol.organizationId);
  }
}

@Resolver(() => PatientTreatment)
export class PatientTreatmentResolver {
  private readonly service = new PatientTreatmentService();

  @PayloadMutation(AssignTreatmentPayload, {
    description:
      "Put a patient on a protocol (clinicians of the patient's organization; the prescriber a doctor); a bad field or a patient already on the protocol is a user error",
  })
  assignTreatment(@Arg('input', { description: 'The assignment' }) input: AssignTreatmentInput, @Ctx() ctx: SubgraphContext) {
    return this.service.assign(ctx, input);
  }

  @Query(() => PatientTreatmentPage, { description: "A patient's treatments, latest start first" })
  patientTreatments(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: PatientTreatmentListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => PatientTreatment, { nullable: true, description: "A patient's treatment" })
  patientTreatment(@Arg('id', () => ID, { description: 'The treatment id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => PatientTreatment, {
    description: 'Record progress and, optionally, the status wanted (completed, or discontinued with a reason)',
  })
  updatePatientTreatment(
    @Arg('id', () => ID, { description: 'The treatment id' }) id: string,
    @Arg('input', { description: 'The changes' }) input: UpdatePatientTreatmentInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => PatientTreatment, { description: 'Record the step reached and a note on an active treatment' })
  recordTreatmentProgress(
    @Arg('id', () => ID, { description: 'The treatment id' }) id: string,
    @Arg('currentStep', () => Int, { nullable: true, description: 'The step reached' }) currentStep: number | undefined,
    @Arg('progressNote', () => String, { nullable: true, description: 'A note' }) progressNote: string | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, { currentStep: currentStep ?? undefined, progressNote: progressNote ?? undefined });
  }

  @Mutation(() => PatientTreatment, { description: 'Complete an active treatment' })
  completePatientTreatment(
    @Arg('id', () => ID, { description: 'The treatment id' }) id: string,
    @Arg('endDate', () => LocalDate, { nullable: true, description: 'Last day of treatment; today when omitted' })
    endDate: string | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, { status: PatientTreatmentStatus.completed, endDate: endDate ?? undefined });
  }

  @Mutation(() => PatientTreatment, { description: 'Stop an active treatment early, saying why' })
  discontinuePatientTreatment(
    @Arg('id', () => ID, { description: 'The treatment id' }) id: string,
    @Arg('reason', { description: 'Why it is stopped' }) reason: string,
    @Arg('endDate', () => LocalDate, { nullable: true, description: 'Last day of treatment; today when omitted' })
    endDate: string | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, {
      status: PatientTreatmentStatus.discontinued,
      discontinuationReason: reason,
      endDate: endDate ?? undefined,
    });
  }

  @FieldResolver(() => TreatmentProtocol, {
    nullable: true,
    description: 'The protocol as it is now (see protocolSteps for the version followed)',
  })
  protocol(@Root() treatment: PatientTreatment, @Ctx() ctx: SubgraphContext) {
    return this.service.protocolOf(ctx, treatment);
  }

  @FieldResolver(() => [TreatmentStep], { description: 'The steps of the protocol version followed' })
  protocolSteps(@Root() treatment: PatientTreatment, @Ctx() ctx: SubgraphContext) {
    return this.service.stepsOf(ctx, treatment);
  }

  @FieldResolver(() => LocalDate, { description: 'The last day if every step runs its course from the start date' })
  async plannedEndDate(@Root() treatment: PatientTreatment, @Ctx() ctx: SubgraphContext) {
    return plannedEndDate(treatment.startDate, await this.service.stepsOf(ctx, treatment));
  }

  @FieldResolver(() => Patient, { description: 'The patient' })
  patient(@Root() treatment: PatientTreatment, @Ctx() ctx: SubgraphContext) {
    return loadPatient(ctx, treatment.patientId);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: "The patient's organization" })
  organization(@Root() treatment: PatientTreatment) {
    return ref(treatment.organizationId);
  }
}

const PATIENT_TREATMENT_LIST = patientList('patient_treatment', PatientTreatment, { sortColumn: 'start_date', sortType: 'date' });

/** `patient { treatments }`: the latest treatments by cursor, batched across patients. */
@Resolver(() => Patient)
export class PatientTreatmentsResolver {
  @FieldResolver(() => PatientTreatmentConnection, {
    nullable: true,
    description: 'Treatments, latest start first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  treatments(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, PATIENT_TREATMENT_LIST, patient, args);
  }
}
