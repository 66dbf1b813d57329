import { PayloadOf } from '../../../shared/user-errors';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsCalendarDate, IsCountryCode, IsEmailAddress, IsPhone, IsText } from '../../../shared/validation';
import { Gender, Patient } from './patient.entity';

@InputType({ description: 'A patient as given inside another input (its demographics)' })
export class PatientInput {
  @Field()
  @IsText(100)
  firstName!: string;

  @Field()
  @IsText(100)
  lastName!: string;

  // A String, not LocalDate: REST reports a bad date together with the other fields' problems (the subgraph checks it).
  @Field({ description: 'YYYY-MM-DD, not in the future' })
  @IsCalendarDate({ notFuture: true })
  dateOfBirth!: string;

  @Field(() => Gender, { nullable: true, description: 'REST also takes the value in any letter case' })
  gender?: Gender;

  @Field({ nullable: true, description: 'International format with a leading +' })
  @IsPhone()
  phone?: string;

  @Field({ nullable: true })
  @IsEmailAddress()
  email?: string;

  @Field({ nullable: true, description: 'Medical record number; assigned by the organization when omitted' })
  @IsText(50)
  mrn?: string;

  @Field({ nullable: true, description: 'National identity number as issued; needs nationalIdCountry' })
  @IsText(50)
  nationalId?: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 code of the country that issued nationalId, such as KE' })
  @IsCountryCode()
  nationalIdCountry?: string;
}

@InputType({ description: 'The fields of a new patient' })
export class CreatePatientInput extends PatientInput {
  @Field(() => ID, { nullable: true, description: 'Register the patient with this organization (members only)' })
  organizationId?: string;
}

/** Every field optional; optional fields sent as null are cleared. */
@InputType({ description: 'The fields of a patient to change; those left out stay' })
export class UpdatePatientInput {
  @Field({ nullable: true })
  @IsText(100)
  firstName?: string;

  @Field({ nullable: true })
  @IsText(100)
  lastName?: string;

  @Field({ nullable: true, description: 'YYYY-MM-DD, not in the future' })
  @IsCalendarDate({ notFuture: true })
  dateOfBirth?: string;

  @Field(() => Gender, { nullable: true, description: 'REST also takes the value in any letter case' })
  gender?: Gender | null;

  @Field(() => String, { nullable: true })
  @IsPhone()
  phone?: string | null;

  @Field(() => String, { nullable: true })
  @IsEmailAddress()
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'National identity number; null clears it (and its country)' })
  @IsText(50)
  nationalId?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code of the issuing country' })
  @IsCountryCode()
  nationalIdCountry?: string | null;
}

@ArgsType()
export class PatientSearchArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Medical record number, or the start of one (case-insensitive)' })
  @IsText(50)
  mrn?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Name words, each the start of the given or the family name, in any order (case-insensitive): "amina odh". ' +
      'With mrn, patients must match both',
  })
  @IsText(100)
  name?: string | null;
}

@ObjectType()
export class PatientPage extends PageOf(Patient) {
  @Field({
    description:
      "total is exact up to 1,000 matches; beyond that it is the database's estimate of the matches (never below 1,001) and this is true",
  })
  totalIsEstimate!: boolean;
}

@ObjectType({
  description: 'What createPatient answers: the new patient, or what the user must fix (a bad field, a medical record number taken)',
})
export class CreatePatientPayload extends PayloadOf(Patient, 'patient') {}

@ObjectType({
  description:
    'What createOrganizationPatient answers: the new patient, or what the user must fix (a bad field, a medical record number taken)',
})
export class CreateOrganizationPatientPayload extends PayloadOf(Patient, 'patient') {}

@ObjectType({ description: 'What updatePatient answers: the changed patient, or what the user must fix (a bad field)' })
export class UpdatePatientPayload extends PayloadOf(Patient, 'patient') {}
