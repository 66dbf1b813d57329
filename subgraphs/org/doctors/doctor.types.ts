import { ArrayMaxSize, MaxLength } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { Decimal } from '../../../shared/money';
import { PageArgs, PageOf } from '../../../shared/model';
import { ORG_ROLES } from '../../../shared/permissions';
import { PayloadOf } from '../../../shared/user-errors';
import { IsCountryCode, IsCurrency, IsInRange, IsMoney, IsOneOf, IsPhone, IsText } from '../../../shared/validation';
import { DoctorProfile, DoctorVerification } from './doctor.entity';

export const MAX_LIST_ITEMS = 20;

/** A search filter: blank means no filter (a search box sent empty), so only the length is checked. */
const SearchText = () => MaxLength(100, { message: 'must be at most 100 characters' });

/** The profile fields a doctor (or an administrator) may set; required ones differ between create and update. */
@InputType({ description: 'The fields of a new doctor profile: license, specialty and contact' })
export class CreateDoctorInput {
  @Field(() => ID, { nullable: true, description: 'Administrators only: create the profile of this user' })
  userId?: string;

  @Field({ nullable: true, description: "The user's first name when omitted" })
  @IsText(100)
  firstName?: string;

  @Field({ nullable: true, description: "The user's last name when omitted" })
  @IsText(100)
  lastName?: string;

  @Field({ nullable: true, description: 'Form of address, such as Dr' })
  @IsText(50)
  title?: string;

  @Field()
  @IsText(100)
  specialty!: string;

  @Field(() => [String], { nullable: true })
  @ArrayMaxSize(MAX_LIST_ITEMS, { message: `must have at most ${MAX_LIST_ITEMS} items` })
  @IsText(100, { each: true })
  subSpecialties?: string[];

  @Field({ description: 'Unique within its issuing country (spacing and letter case ignored)' })
  @IsText(50)
  licenseNumber!: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 code of the issuing country' })
  @IsCountryCode()
  licenseCountry?: string;

  @Field({ nullable: true })
  @IsText(5000)
  bio?: string;

  @Field(() => [String], { nullable: true })
  @ArrayMaxSize(MAX_LIST_ITEMS, { message: `must have at most ${MAX_LIST_ITEMS} items` })
  @IsText(50, { each: true })
  languages?: string[];

  @Field(() => Int, { nullable: true, description: '0 to 70' })
  @IsInRange(0, 70, 'years')
  yearsOfExperience?: number;

  @Field(() => Decimal, { nullable: true, description: 'Needs a currency; at most its ISO 4217 decimals ("2500.00" KES, "5000" UGX)' })
  @IsMoney({ currencyField: 'currency' })
  consultationFee?: string;

  @Field({ nullable: true, description: 'ISO 4217 code such as KES' })
  @IsCurrency()
  currency?: string;

  @Field({ nullable: true })
  @IsText(100)
  city?: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 country code' })
  @IsCountryCode()
  country?: string;

  @Field({ nullable: true, description: 'International format, such as +254712345678' })
  @IsPhone()
  phone?: string;
}

/** Every field optional; optional fields sent as null are cleared (names, specialty and license cannot be). */
@InputType({ description: 'The fields of a doctor profile to change; those left out stay' })
export class UpdateDoctorInput {
  @Field({ nullable: true })
  @IsText(100)
  firstName?: string;

  @Field({ nullable: true })
  @IsText(100)
  lastName?: string;

  @Field(() => String, { nullable: true })
  @IsText(50)
  title?: string | null;

  @Field({ nullable: true })
  @IsText(100)
  specialty?: string;

  @Field(() => [String], { nullable: true })
  @ArrayMaxSize(MAX_LIST_ITEMS, { message: `must have at most ${MAX_LIST_ITEMS} items` })
  @IsText(100, { each: true })
  subSpecialties?: string[] | null;

  @Field({ nullable: true, description: 'A new license sends an approved profile back to pending' })
  @IsText(50)
  licenseNumber?: string;

  @Field(() => String, { nullable: true })
  @IsCountryCode()
  licenseCountry?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(5000)
  bio?: string | null;

  @Field(() => [String], { nullable: true })
  @ArrayMaxSize(MAX_LIST_ITEMS, { message: `must have at most ${MAX_LIST_ITEMS} items` })
  @IsText(50, { each: true })
  languages?: string[] | null;

  @Field(() => Int, { nullable: true })
  @IsInRange(0, 70, 'years')
  yearsOfExperience?: number | null;

  @Field(() => Decimal, { nullable: true })
  @IsMoney({ currencyField: 'currency' })
  consultationFee?: string | null;

  @Field(() => String, { nullable: true })
  @IsCurrency()
  currency?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(100)
  city?: string | null;

  @Field(() => String, { nullable: true })
  @IsCountryCode()
  country?: string | null;

  @Field(() => String, { nullable: true })
  @IsPhone()
  phone?: string | null;
}

export const VERIFY_DECISIONS = ['approve', 'reject'] as const;
export type VerifyDecision = (typeof VERIFY_DECISIONS)[number];
export const VerifyDoctorDecision = enumOf(VERIFY_DECISIONS, 'VerifyDoctorDecision', "A decision on a doctor's license: approve or reject");

@InputType({ description: "The decision on a doctor's license" })
export class VerifyDoctorInput {
  @Field(() => VerifyDoctorDecision, { nullable: true, description: VERIFY_DECISIONS.join(' or ') })
  @IsOneOf(VERIFY_DECISIONS)
  decision?: string;

  @Field({ nullable: true, description: 'Required when rejecting; shown to the doctor' })
  @IsText(2000)
  reason?: string;
}

@InputType({ description: 'The organization to link the doctor to, and the role there' })
export class JoinOrganizationInput {
  @Field(() => ID)
  organizationId!: string;

  @Field({
    nullable: true,
    description: 'Accepted for older clients and not used: the link takes the role the doctor holds in the organization',
  })
  @IsOneOf(ORG_ROLES)
  role?: string;
}

@ArgsType()
export class DoctorSearchArgs extends PageArgs {
  @Field({ nullable: true, description: 'First or last name, any letter case; every word must match one of them' })
  @SearchText()
  q?: string;

  @Field({ nullable: true, description: 'Same as q' })
  @SearchText()
  name?: string;

  @Field({ nullable: true, description: 'Main specialty, any letter case and spacing' })
  @SearchText()
  specialty?: string;

  @Field(() => ID, { nullable: true, description: 'Doctors linked to this organization' })
  organizationId?: string;

  @Field({ nullable: true, description: 'Doctors linked to an organization: its id, or part of its name (any letter case)' })
  @SearchText()
  organization?: string;

  @Field({ nullable: true, description: 'Any letter case' })
  @SearchText()
  city?: string;

  @Field({
    nullable: true,
    description:
      "Part of the doctor's city, or of the city or address of an organization they work in (any letter case), or a country code",
  })
  @SearchText()
  location?: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 country code' })
  @IsCountryCode()
  country?: string;
}

@ArgsType()
export class OrganizationDoctorsArgs extends PageArgs {
  @Field(() => DoctorVerification, { nullable: true, description: 'Members only; everyone else sees approved doctors' })
  verificationStatus?: DoctorVerification;
}

@ObjectType()
export class DoctorPage extends PageOf(DoctorProfile) {}

@ObjectType({
  description:
    'What createDoctorProfile answers: the profile, or what the user must fix (a bad field, a profile already filled in, a license number taken)',
})
export class CreateDoctorProfilePayload extends PayloadOf(DoctorProfile, 'doctor') {}

@ObjectType({
  description: 'What updateDoctorProfile answers: the changed profile, or what the user must fix (a bad field, a license number taken)',
})
export class UpdateDoctorProfilePayload extends PayloadOf(DoctorProfile, 'doctor') {}

@ObjectType({
  description:
    'What addDoctorToOrganization answers: the doctor with the new organization, or what the user must fix (a bad field, a doctor already linked)',
})
export class AddDoctorToOrganizationPayload extends PayloadOf(DoctorProfile, 'doctor') {}
