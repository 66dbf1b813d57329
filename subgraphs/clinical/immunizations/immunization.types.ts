import { ArrayMaxSize, Min } from 'class-validator';
import { ConnectionOf } from '../../../shared/connection';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { PageOf } from '../../../shared/model';
import { IsCalendarDate, IsOneOf, IsText } from '../../../shared/validation';
import {
  Immunization,
  ImmunizationAdverseEvent,
  ImmunizationAdverseEventOutcome,
  ImmunizationAdverseEventSeverity,
  ImmunizationSite,
} from './immunization.entity';
import { OPTIONAL_VACCINE_CODES, VACCINE_CODES } from './vaccine-schedule';

@InputType({ description: 'Which schedule to generate for the patient' })
export class GenerateImmunizationScheduleInput {
  @Field(() => [String], {
    nullable: true,
    description: `Optional vaccines to add to the routine ones: ${OPTIONAL_VACCINE_CODES.join(', ')}`,
  })
  @ArrayMaxSize(OPTIONAL_VACCINE_CODES.length, { message: 'names too many vaccines' })
  @IsOneOf(OPTIONAL_VACCINE_CODES, {}, { each: true })
  include?: string[];
}

@InputType({ description: 'A dose given: the vaccine, dose number, lot and site' })
export class AdministerImmunizationInput {
  @Field({ description: VACCINE_CODES.join(', ') })
  @IsOneOf(VACCINE_CODES)
  vaccine!: string;

  @Field(() => Int, { nullable: true, description: 'The next dose not yet given when omitted' })
  @Min(1, { message: 'must be at least 1' })
  doseNumber?: number;

  @Field()
  @IsText(100)
  lotNumber!: string;

  @Field(() => ImmunizationSite)
  site!: ImmunizationSite;

  @Field(() => LocalDate, { nullable: true, description: 'Not in the future; today when omitted' })
  @IsCalendarDate()
  administeredOn?: string;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;

  @Field({ nullable: true, description: 'Why a dose that is too early or past its latest age is given anyway; the dose is flagged' })
  @IsText(500)
  overrideReason?: string;
}

@InputType({ description: 'The adverse event to report' })
export class ImmunizationAdverseEventInput {
  @Field(() => ID, { nullable: true, description: 'The administered dose it followed (or vaccine)' })
  immunizationId?: string;

  @Field({
    nullable: true,
    description: `The vaccine, when the dose is not recorded here (or immunizationId): ${VACCINE_CODES.join(', ')}`,
  })
  @IsOneOf(VACCINE_CODES)
  vaccine?: string;

  @Field(() => LocalDate, { description: 'Not in the future' })
  @IsCalendarDate()
  onsetDate!: string;

  @Field()
  @IsText(5000)
  description!: string;

  @Field(() => ImmunizationAdverseEventSeverity)
  severity!: ImmunizationAdverseEventSeverity;

  @Field({
    nullable: true,
    description:
      'Serious per the WHO AEFI classification (death, life-threatening, hospitalization, persistent disability, congenital ' +
      'anomaly). When omitted: true when the outcome is death or recovery with sequelae (a disability), else false — a ' +
      'severe reaction is not by itself a serious one',
  })
  serious?: boolean;

  @Field(() => ImmunizationAdverseEventOutcome, { nullable: true })
  outcome?: ImmunizationAdverseEventOutcome;
}

/** A patient's immunization schedule as of today, with the adverse events reported. */
@ObjectType({ description: "A patient's immunization schedule: the doses due, given and missed" })
export class ImmunizationSchedule {
  @Field(() => ID)
  patientId!: string;

  @Field(() => LocalDate)
  dateOfBirth!: string;

  @Field(() => LocalDate, { description: 'The date the statuses are relative to' })
  asOf!: string;

  @Field(() => Int, { description: 'Days after the due date a dose not given turns from overdue to missed' })
  missedAfterDays!: number;

  @Field({ description: 'Where the schedule comes from' })
  source!: string;

  @Field(() => Int, { nullable: true, description: 'Doses this generation added (generate only)' })
  created?: number | null;

  @Field(() => [Immunization], { description: 'Every dose, by due date' })
  doses!: Immunization[];

  @Field(() => [ImmunizationAdverseEvent], { description: 'Newest onset first' })
  adverseEvents!: ImmunizationAdverseEvent[];
}

@ObjectType()
export class ImmunizationPage extends PageOf(Immunization) {}

@ObjectType({ description: 'Immunization records of a patient, by cursor' })
export class ImmunizationConnection extends ConnectionOf(Immunization, 'Immunization') {}
