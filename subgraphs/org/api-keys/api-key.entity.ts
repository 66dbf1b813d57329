import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

/** The fields of an API key, shared by the entity and by the answer that carries a new secret. */
@ObjectType()
export abstract class ApiKeyFields extends BaseRecord {
  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field()
  @Property({ type: 'text' })
  name!: string;

  @Field(() => [String], { description: 'Scopes of the form <resource>:<read|write>' })
  @Property({ type: 'text[]' })
  scopes!: string[];

  @Field({ description: 'The first characters of the current secret, to recognise it' })
  @Property({ type: 'text' })
  prefix!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Opt<Date> | null;
}

/** A developer API key: acts for one organization with only its scopes. Its secrets live in ApiKeySecret. */
@ObjectType('ApiKey', { description: 'A developer API key (its secret is shown once, when created or rotated)' })
@Entity({ tableName: 'api_keys' })
export class ApiKey extends ApiKeyFields {}

/**
 * A secret of an API key, stored as SHA-256. The current secret has no end; rotation gives the previous one an
 * end 24 hours later.
 */
@Entity({ tableName: 'api_key_secrets' })
export class ApiKeySecret extends BaseRecord {
  @ManyToOne(() => ApiKey, { deleteRule: 'cascade' })
  apiKey!: ApiKey;

  @Property({ type: 'text', unique: true })
  secretHash!: string;

  @Property({ type: 'timestamptz', nullable: true })
  validUntil?: Date | null;
}
