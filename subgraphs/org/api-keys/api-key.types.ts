import { ArrayMaxSize, ArrayMinSize } from 'class-validator';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { API_KEY_SCOPES } from '../../../shared/permissions';
import { IsOneOf, IsText } from '../../../shared/validation';
import { ApiKey, ApiKeyFields } from './api-key.entity';

@InputType({ description: 'The new API key: its name, scopes and expiry' })
export class CreateApiKeyInput {
  @Field(() => ID, { nullable: true, description: 'Required when the caller administers more than one organization' })
  organizationId?: string;

  @Field()
  @IsText(100)
  name!: string;

  @Field(() => [String], { description: `Any of: ${API_KEY_SCOPES.join(', ')}` })
  @ArrayMinSize(1, { message: 'must name at least one scope' })
  @ArrayMaxSize(API_KEY_SCOPES.length, { message: 'names too many scopes' })
  @IsOneOf(API_KEY_SCOPES, {}, { each: true })
  scopes!: string[];
}

@ArgsType()
export class ApiKeyListArgs extends PageArgs {
  @Field(() => ID, {
    nullable: true,
    description: 'One organization (api-keys:manage); every organization the caller administers when omitted',
  })
  organizationId?: string;
}

@ObjectType()
export class ApiKeyPage extends PageOf(ApiKey) {}

/** A key with its secret: answered only when the key is created or rotated. */
@ObjectType({ description: 'A new or rotated API key with its secret, shown this once' })
export class ApiKeyWithSecret extends ApiKeyFields {
  @Field({ description: 'The secret, sent as `X-API-Key`; shown only this once' })
  key!: string;

  @Field(() => Date, { nullable: true, description: 'Until when the previous secret keeps working (rotation)' })
  previousValidUntil?: Date | null;
}
