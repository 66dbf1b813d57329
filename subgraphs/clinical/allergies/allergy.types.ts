import { ArgsType, Field, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsCalendarDate, IsOneOf, IsText } from '../../../shared/validation';
import { ALLERGY_CATEGORIES, ALLERGY_CRITICALITIES, ALLERGY_SEVERITIES, ALLERGY_TYPES, Allergy, AllergyStatus } from './allergy.entity';

@InputType({ description: 'The allergy or intolerance to record' })
export class RecordAllergyInput {
  @Field({ description: 'What the patient reacts to; one active allergy per substance (any letter case)' })
  @IsText(200)
  substance!: string;

  @Field({ nullable: true })
  @IsText(1000)
  reaction?: string;

  @Field({ nullable: true, description: ALLERGY_SEVERITIES.join(', ') })
  @IsOneOf(ALLERGY_SEVERITIES)
  severity?: string;

  @Field({ nullable: true, description: `${ALLERGY_TYPES.join(', ')}; allergy when omitted` })
  @IsOneOf(ALLERGY_TYPES)
  type?: string;

  @Field({ nullable: true, description: ALLERGY_CATEGORIES.join(', ') })
  @IsOneOf(ALLERGY_CATEGORIES)
  category?: string;

  @Field({ nullable: true, description: ALLERGY_CRITICALITIES.join(', ') })
  @IsOneOf(ALLERGY_CRITICALITIES)
  criticality?: string;

  @Field({ nullable: true, description: 'YYYY-MM-DD, not in the future' })
  @IsCalendarDate({ notFuture: true })
  onsetDate?: string;

  @Field(() => AllergyStatus, { nullable: true, description: 'active when omitted' })
  status?: AllergyStatus;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

/** Every field optional; optional fields sent as null are cleared. */
@InputType({ description: 'The fields of an allergy to change; those left out stay' })
export class UpdateAllergyInput {
  @Field({ nullable: true })
  @IsText(200)
  substance?: string;

  @Field(() => String, { nullable: true })
  @IsText(1000)
  reaction?: string | null;

  @Field(() => String, { nullable: true })
  @IsOneOf(ALLERGY_SEVERITIES)
  severity?: string | null;

  @Field({ nullable: true })
  @IsOneOf(ALLERGY_TYPES)
  type?: string;

  @Field(() => String, { nullable: true })
  @IsOneOf(ALLERGY_CATEGORIES)
  category?: string | null;

  @Field(() => String, { nullable: true })
  @IsOneOf(ALLERGY_CRITICALITIES)
  criticality?: string | null;

  @Field(() => String, { nullable: true })
  @IsCalendarDate({ notFuture: true })
  onsetDate?: string | null;

  @Field(() => AllergyStatus, { nullable: true })
  status?: AllergyStatus;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  notes?: string | null;
}

@ArgsType()
export class AllergyListArgs extends PageArgs {
  @Field(() => AllergyStatus, { nullable: true, description: 'Only allergies in this status; every status when omitted' })
  status?: AllergyStatus;
}

@ObjectType()
export class AllergyPage extends PageOf(Allergy) {}

@ObjectType({ description: 'Allergy records of a patient, by cursor' })
export class AllergyConnection extends ConnectionOf(Allergy, 'Allergy') {}
