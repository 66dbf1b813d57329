import { ArgsType, Field, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { PayloadOf } from '../../../shared/user-errors';
import { IsCalendarDate, IsText } from '../../../shared/validation';
import { Allergy, AllergyCategory, AllergyCriticality, AllergySeverity, AllergyStatus, AllergyType } from './allergy.entity';

@InputType({ description: 'The allergy or intolerance to record' })
export class RecordAllergyInput {
  @Field({ description: 'What the patient reacts to; one active allergy per substance (any letter case)' })
  @IsText(200)
  substance!: string;

  @Field({ nullable: true })
  @IsText(1000)
  reaction?: string;

  @Field(() => AllergySeverity, { nullable: true })
  severity?: AllergySeverity;

  @Field(() => AllergyType, { nullable: true, description: 'allergy when omitted' })
  type?: AllergyType;

  @Field(() => AllergyCategory, { nullable: true })
  category?: AllergyCategory;

  @Field(() => AllergyCriticality, { nullable: true })
  criticality?: AllergyCriticality;

  @Field(() => LocalDate, { nullable: true, description: 'Not in the future' })
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

  @Field(() => AllergySeverity, { nullable: true })
  severity?: AllergySeverity | null;

  @Field(() => AllergyType, { nullable: true })
  type?: AllergyType;

  @Field(() => AllergyCategory, { nullable: true })
  category?: AllergyCategory | null;

  @Field(() => AllergyCriticality, { nullable: true })
  criticality?: AllergyCriticality | null;

  @Field(() => LocalDate, { nullable: true, description: 'Not in the future' })
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

@ObjectType({
  description:
    'What recordAllergy answers: the new allergy, or what the user must fix (a bad field, an active allergy to the substance already recorded)',
})
export class RecordAllergyPayload extends PayloadOf(Allergy, 'allergy') {}

@ObjectType({
  description:
    'What updateAllergy answers: the changed allergy, or what the user must fix (a bad field, a second active allergy to the substance)',
})
export class UpdateAllergyPayload extends PayloadOf(Allergy, 'allergy') {}

@ObjectType({ description: 'Allergy records of a patient, by cursor' })
export class AllergyConnection extends ConnectionOf(Allergy, 'Allergy') {}
