import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE, PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { Immunization, ImmunizationAdverseEvent, ImmunizationStatus } from './immunization.entity';
import { doseStatus, ImmunizationService } from './immunization.service';
import {
  AdministerImmunizationInput,
  GenerateImmunizationScheduleInput,
  ImmunizationAdverseEventInput,
  ImmunizationPage,
  ImmunizationSchedule,
} from './immunization.types';
import { VACCINES } from './vaccine-schedule';

/** `patient { immunizations }`: the doses given, newest first, batched across patients. */
@Resolver(() => Patient)
export class PatientImmunizationsResolver {
  @FieldResolver(() => [Immunization], {
    nullable: true,
    description: 'Clinical data (null with FORBIDDEN without clinical:read): Vaccine doses given, newest first',
  })
  immunizations(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, Immunization, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'immunization',
      orderBy: 'administered_on desc, created_at desc, id',
      where: "state = 'administered'",
    });
  }
}

@Resolver(() => Immunization)
export class ImmunizationResolver {
  private readonly service = new ImmunizationService();

  @Query(() => ImmunizationSchedule, {
    nullable: true,
    description: "A patient's immunization schedule with each dose's status as of today",
  })
  immunizationSchedule(@Arg('patientId', () => ID) patientId: string, @Ctx() ctx: SubgraphContext) {
    return this.service.schedule(ctx, patientId);
  }

  @Mutation(() => ImmunizationSchedule, { description: 'Plan the WHO schedule from the date of birth; adds only what is missing' })
  generateImmunizationSchedule(
    @Arg('patientId', () => ID) patientId: string,
    @Arg('input', { defaultValue: {} }) input: GenerateImmunizationScheduleInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.generate(ctx, patientId, input);
  }

  @Mutation(() => Immunization, { description: 'Record a vaccine dose given to a patient' })
  administerImmunization(
    @Arg('patientId', () => ID) patientId: string,
    @Arg('input') input: AdministerImmunizationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.administer(ctx, patientId, input);
  }

  @Query(() => ImmunizationPage, { description: 'Doses not given more than 28 days past their due date' })
  missedImmunizations(@Arg('patientId', () => ID) patientId: string, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.missed(ctx, patientId, args);
  }

  @Mutation(() => ImmunizationAdverseEvent, { description: 'Report an adverse event following immunization (AEFI)' })
  reportImmunizationAdverseEvent(
    @Arg('patientId', () => ID) patientId: string,
    @Arg('input') input: ImmunizationAdverseEventInput,
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
