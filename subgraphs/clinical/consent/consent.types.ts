import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { Consent, ConsentStatus } from './consent.entity';

@InputType({ description: 'The consent the patient gives: to whom, for what and until when' })
export class GrantConsentInput {
  @Field(() => ID, { nullable: true, description: "The patient; the caller's own profile when omitted" })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'The clinician given access (or granteeOrganizationId)' })
  granteeUserId?: string;

  @Field(() => ID, { nullable: true, description: 'The organization given access (or granteeUserId)' })
  granteeOrganizationId?: string;

  @Field({ nullable: true })
  @IsText(500)
  purpose?: string;

  @Field(() => Date, { nullable: true, description: 'When access ends' })
  expiresAt?: Date;
}

@InputType({ description: 'The consent asked of the patient: for what and until when' })
export class RequestConsentInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => ID, { nullable: true, description: 'Ask on behalf of an organization the caller belongs to; else for the caller' })
  granteeOrganizationId?: string;

  @Field({ nullable: true })
  @IsText(500)
  purpose?: string;

  @Field(() => Date, { nullable: true })
  expiresAt?: Date;
}

@ArgsType()
export class ConsentListArgs extends PageArgs {
  @Field(() => ConsentStatus, { nullable: true, description: 'Only consents in this status; every status when omitted' })
  status?: ConsentStatus;
}

@ObjectType()
export class ConsentPage extends PageOf(Consent) {}

@ObjectType({ description: 'Consents by cursor, newest first' })
export class ConsentConnection extends ConnectionOf(Consent, 'Consent') {}
