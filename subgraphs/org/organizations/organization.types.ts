import { IsOptional } from 'class-validator';
import { ArgsType, Field, Float, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { TransitionArgs } from '../../../shared/transitions';
import { IsCountryCode, IsEmailAddress, IsInRange, IsPhone, IsText } from '../../../shared/validation';
import { Organization, OrganizationStatus, OrganizationType } from './organization.entity';

@InputType({ description: 'The fields of a new organization' })
export class CreateOrganizationInput {
  @Field()
  @IsText(200)
  name!: string;

  @Field(() => OrganizationType, { nullable: true, description: 'clinic when omitted' })
  type?: OrganizationType;

  @Field({ nullable: true })
  @IsEmailAddress()
  email?: string;

  @Field({ nullable: true })
  @IsPhone()
  phone?: string;

  @Field({ nullable: true })
  @IsText(500)
  address?: string;

  @Field({ nullable: true })
  @IsText(100)
  city?: string;

  @Field({ nullable: true })
  @IsCountryCode()
  country?: string;

  @Field(() => Float, { nullable: true, description: 'WGS 84 latitude in degrees, -90 to 90; given together with longitude' })
  @IsInRange(-90, 90, 'degrees')
  latitude?: number;

  @Field(() => Float, { nullable: true, description: 'WGS 84 longitude in degrees, -180 to 180; given together with latitude' })
  @IsInRange(-180, 180, 'degrees')
  longitude?: number;
}

/** Every field optional; a field sent as null clears it (name and type cannot be cleared). */
@InputType({ description: 'The fields of an organization to change; those left out stay' })
export class UpdateOrganizationInput {
  @Field({ nullable: true })
  @IsOptional()
  @IsText(200)
  name?: string;

  @Field(() => OrganizationType, { nullable: true })
  type?: OrganizationType;

  @Field(() => String, { nullable: true })
  @IsEmailAddress()
  email?: string | null;

  @Field(() => String, { nullable: true })
  @IsPhone()
  phone?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(500)
  address?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(100)
  city?: string | null;

  @Field(() => String, { nullable: true })
  @IsCountryCode()
  country?: string | null;

  @Field(() => Float, { nullable: true, description: 'WGS 84 latitude in degrees, -90 to 90; set and cleared together with longitude' })
  @IsInRange(-90, 90, 'degrees')
  latitude?: number | null;

  @Field(() => Float, { nullable: true, description: 'WGS 84 longitude in degrees, -180 to 180; set and cleared together with latitude' })
  @IsInRange(-180, 180, 'degrees')
  longitude?: number | null;
}

@ArgsType()
export class OrganizationListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Case-insensitive match on the name' })
  @IsText(100)
  search?: string;

  @Field(() => OrganizationStatus, { nullable: true, description: 'Administrators only; others see active ones' })
  status?: OrganizationStatus;
}

@ObjectType()
export class OrganizationPage extends PageOf(Organization) {}

@ArgsType()
export class OrganizationTransitionArgs extends TransitionArgs {
  @Field(() => String, { nullable: true, description: 'Why, kept with the organization and in the security audit' })
  @IsText(500)
  override reason?: string | null;
}
