import { Matches } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsNotFuture, IsText } from '../../../shared/validation';
import { Observation, ObservationCategory, ObservationInterpretation, ObservationStatus } from './observation.entity';
import { LOINC_CODE } from './loinc';

/** UCUM codes have no spaces: `mm[Hg]`, `/min`, `10*3/uL`. */
const IsUnit = () => (target: object, key: string | symbol) => {
  IsText(50)(target, key);
  Matches(/^\S+$/, { message: 'must be a UCUM unit code, such as mm[Hg] or /min' })(target, key);
};

@InputType({ description: 'The fields of a new observation' })
export class RecordObservationInput {
  @Field(() => ID)
  patientId!: string;

  @Field({ description: 'LOINC code, such as 8867-4 (heart rate)' })
  @Matches(LOINC_CODE, { message: 'must be a LOINC code such as 8867-4' })
  code!: string;

  @Field({ nullable: true, description: 'The LOINC name when omitted for a known code' })
  @IsText(500)
  display?: string;

  @Field(() => ObservationCategory, { nullable: true, description: "The code's own for a known code when omitted" })
  category?: ObservationCategory;

  @Field(() => Float, { nullable: true, description: 'A numeric result, with unit' })
  valueQuantity?: number;

  @Field({ nullable: true, description: 'UCUM code; a known LOINC code accepts only its own units' })
  @IsUnit()
  unit?: string;

  @Field({ nullable: true, description: 'A text result (instead of valueQuantity)' })
  @IsText(2000)
  valueString?: string;

  @Field(() => ObservationStatus, { nullable: true, description: 'registered, preliminary or final (default)' })
  status?: ObservationStatus;

  @Field(() => Date, { nullable: true, description: 'Now when omitted; never in the future' })
  @IsNotFuture()
  effectiveAt?: Date;

  @Field(() => ObservationInterpretation, { nullable: true })
  interpretation?: ObservationInterpretation;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

/** Every field optional; optional fields sent as null are cleared. Changing a final observation amends it. */
@InputType({ description: 'The fields of an observation to change; those left out stay' })
export class UpdateObservationInput {
  @Field(() => String, { nullable: true })
  @IsText(500)
  display?: string | null;

  @Field(() => ObservationCategory, { nullable: true })
  category?: ObservationCategory;

  @Field(() => Float, { nullable: true })
  valueQuantity?: number | null;

  @Field(() => String, { nullable: true })
  @IsUnit()
  unit?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  valueString?: string | null;

  @Field(() => ObservationStatus, { nullable: true, description: 'A transition: preliminary, final, amended or cancelled' })
  status?: ObservationStatus;

  @Field(() => Date, { nullable: true })
  @IsNotFuture()
  effectiveAt?: Date;

  @Field(() => ObservationInterpretation, { nullable: true })
  interpretation?: ObservationInterpretation | null;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  notes?: string | null;
}

@ArgsType()
export class ObservationListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field({ nullable: true, description: 'LOINC code' })
  @Matches(LOINC_CODE, { message: 'must be a LOINC code such as 8867-4' })
  code?: string;

  @Field(() => ObservationCategory, { nullable: true, description: 'Only observations in this category; every category when omitted' })
  category?: ObservationCategory;

  @Field(() => ObservationStatus, { nullable: true, description: 'Only observations in this status; every status when omitted' })
  status?: ObservationStatus;
}

@ObjectType()
export class ObservationPage extends PageOf(Observation) {}

@ObjectType({ description: 'Observations by cursor, newest first' })
export class ObservationConnection extends ConnectionOf(Observation, 'Observation') {}
