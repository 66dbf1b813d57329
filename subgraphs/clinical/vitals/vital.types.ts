import { ArgsType, Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsInRange, IsNotFuture, IsText } from '../../../shared/validation';
import { Consciousness, VITAL_SIGNS, Vital, type VitalSign } from './vital.entity';

/** The plausible range of one measurement, written once in VITAL_SIGNS. */
const Plausible = (sign: VitalSign) => IsInRange(VITAL_SIGNS[sign].min, VITAL_SIGNS[sign].max, VITAL_SIGNS[sign].symbol);
const range = (sign: VitalSign) => `${VITAL_SIGNS[sign].min}–${VITAL_SIGNS[sign].max} ${VITAL_SIGNS[sign].symbol}`;

/** Every measurement is optional, but a record needs at least one. */
@InputType({ description: 'The vital signs measured (at least one), with units as in each field' })
export class RecordVitalInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => Float, { nullable: true, description: range('heartRate') })
  @Plausible('heartRate')
  heartRate?: number;

  @Field(() => Float, { nullable: true, description: `${range('bloodPressureSystolic')}; with the diastolic` })
  @Plausible('bloodPressureSystolic')
  bloodPressureSystolic?: number;

  @Field(() => Float, { nullable: true, description: `${range('bloodPressureDiastolic')}, below the systolic` })
  @Plausible('bloodPressureDiastolic')
  bloodPressureDiastolic?: number;

  @Field(() => Float, { nullable: true, description: range('temperature') })
  @Plausible('temperature')
  temperature?: number;

  @Field(() => Float, { nullable: true, description: range('respiratoryRate') })
  @Plausible('respiratoryRate')
  respiratoryRate?: number;

  @Field(() => Float, { nullable: true, description: range('oxygenSaturation') })
  @Plausible('oxygenSaturation')
  oxygenSaturation?: number;

  @Field(() => Consciousness, {
    nullable: true,
    description: 'Level of consciousness (ACVPU); NEWS2 counts a record without it as alert',
  })
  consciousness?: Consciousness;

  @Field({
    nullable: true,
    description: 'Breathing supplemental oxygen (true) or room air (false); NEWS2 counts a record without it as air',
  })
  supplementalOxygen?: boolean;

  @Field(() => Float, { nullable: true, description: range('weightKg') })
  @Plausible('weightKg')
  weightKg?: number;

  @Field(() => Float, { nullable: true, description: range('heightCm') })
  @Plausible('heightCm')
  heightCm?: number;

  @Field(() => Date, { nullable: true, description: 'When they were taken; now when omitted, never in the future' })
  @IsNotFuture()
  recordedAt?: Date;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

/** Every field optional; a measurement sent as null is removed (one must remain). */
@InputType({ description: 'The fields of a vital signs record to correct; those left out stay' })
export class UpdateVitalInput {
  @Field(() => Float, { nullable: true })
  @Plausible('heartRate')
  heartRate?: number | null;

  @Field(() => Float, { nullable: true })
  @Plausible('bloodPressureSystolic')
  bloodPressureSystolic?: number | null;

  @Field(() => Float, { nullable: true })
  @Plausible('bloodPressureDiastolic')
  bloodPressureDiastolic?: number | null;

  @Field(() => Float, { nullable: true })
  @Plausible('temperature')
  temperature?: number | null;

  @Field(() => Float, { nullable: true })
  @Plausible('respiratoryRate')
  respiratoryRate?: number | null;

  @Field(() => Float, { nullable: true })
  @Plausible('oxygenSaturation')
  oxygenSaturation?: number | null;

  @Field(() => Consciousness, { nullable: true, description: 'Level of consciousness (ACVPU); null removes it' })
  consciousness?: Consciousness | null;

  @Field(() => Boolean, { nullable: true, description: 'Supplemental oxygen (true) or room air (false); null removes it' })
  supplementalOxygen?: boolean | null;

  @Field(() => Float, { nullable: true })
  @Plausible('weightKg')
  weightKg?: number | null;

  @Field(() => Float, { nullable: true })
  @Plausible('heightCm')
  heightCm?: number | null;

  @Field(() => Date, { nullable: true })
  @IsNotFuture()
  recordedAt?: Date;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  notes?: string | null;
}

@ArgsType()
export class VitalListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;
}

@ObjectType()
export class VitalPage extends PageOf(Vital) {}

@ObjectType({ description: 'Vital records of a patient, by cursor' })
export class VitalConnection extends ConnectionOf(Vital, 'Vital') {}
