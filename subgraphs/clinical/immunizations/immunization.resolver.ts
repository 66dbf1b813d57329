import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList, requireClinicalRead } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { Immunization, ImmunizationAdverseEvent, ImmunizationStatus } from './immunization.entity';
import { doseStatus, ImmunizationService } from './immunization.service';
import {
  AdministerImmunizationInput,
  GenerateImmunizationScheduleInput,
  ImmunizationAdverseEventInput,
  ImmunizationPage,
  ImmunizationSchedule,
  ImmunizationConnection,
} from './immunization.types';
import { VACCINES } from './vaccine-schedule';

const IMMUNIZATION_LIST = patientList('immunization', Immunization, {
  sortColumn: "coalesce(administered_on, (created_at at time zone 'UTC')::date)",
  sortType: 'date',
  where: "state = 'administered'",
});

/** `patient { immunizations immunizationSchedule }`: the doses given, newest first, batched across patients; the schedule. */
@Resolver(() => Patient)
export class PatientImmunizationsResolver {
  private readonly service = new ImmunizationService();

  @FieldResolver(() => ImmunizationConnection, {
    nullable: true,
    description:
      'Vaccine doses given, latest administration date first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  immunizations(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, IMMUNIZATION_LIST, patient, args);
  }

  @FieldResolver(() => ImmunizationSchedule, {
    nullable: true,
    description:
      "The patient's immunization schedule as immunizationSchedule(patientId) has it; read per patient (for a chart, not a list). Clinical data: null with a FORBIDDEN error for a caller without clinical:read",
  })
  async immunizationSchedule(@Root() patient: Patient, @Ctx() ctx: SubgraphContext) {
    await requireClinicalRead(ctx, patient);
    return this.service.scheduleOf(ctx, patient);
  }
}

@Resolver(() => Immunization)
export class ImmunizationResolver {
  private readonly service = new ImmunizationService();

  @Query(() => ImmunizationSchedule, {
    nullable: true,
    description: "A patient's immunization schedule with each dose's status as of today",
  })
  immunizationSchedule(@Arg('patientId', () => ID, { description: 'The patient' }) patientId: string, @Ctx() ctx: SubgraphContext) {
    return this.service.schedule(ctx, patientId);
  }

  @Mutation(() => ImmunizationSchedule, { description: 'Plan the WHO schedule from the date of birth; adds only what is missing' })
  generateImmunizationSchedule(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Arg('input', { defaultValue: {}, description: 'Optional vaccines to add; the routine schedule only when omitted' })
    input: GenerateImmunizationScheduleInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.generate(ctx, patientId, input);
  }

  @Mutation(() => Immunization, { description: 'Record a vaccine dose given to a patient' })
  administerImmunization(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Arg('input', { description: 'The dose given' }) input: AdministerImmunizationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.administer(ctx, patientId, input);
  }

  @Query(() => ImmunizationPage, { description: 'Doses not given more than 28 days past their due date' })
  missedImmunizations(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.missed(ctx, patientId, args);
  }

  @Mutation(() => ImmunizationAdverseEvent, { description: 'Report an adverse event following immunization (AEFI)' })
  reportImmunizationAdverseEvent(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Arg('input', { description: 'The adverse event' }) input: ImmunizationAdverseEventInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reportAdverseEvent(ctx, patientId, input);
  }

  @FieldResolver(() => ImmunizationStatus)
  status(@Root() dose: Immunization) {
    return doseStatus(dose);
  }

  @FieldResolver(() => String, { description: 'The vaccine as the WHO schedule names it' })
  vaccineName(@Root() dose: Immunization) {
    return VACCINES.get(dose.vaccine)?.name ?? dose.vaccine;
  }
}
