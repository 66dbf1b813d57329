import { Entity, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

/** A supplier in the directory every facility shares: whom purchase orders go to, and whose catalogue products come from. */
@ObjectType('Supplier', { description: 'A supplier of medicines and supplies, shared by every facility' })
@Entity({ tableName: 'suppliers' })
export class Supplier extends BaseRecord {
  @Field()
  @Index()
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'E.164, such as +254712345678' })
  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  address?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code' })
  @Property({ type: 'text', nullable: true })
  country?: string | null;

  @Field(() => Float, { nullable: true, description: 'WGS 84 latitude in degrees (for emergency routing)' })
  @Property({ type: 'double', nullable: true })
  latitude?: number | null;

  @Field(() => Float, { nullable: true, description: 'WGS 84 longitude in degrees (for emergency routing)' })
  @Property({ type: 'double', nullable: true })
  longitude?: number | null;

  @Field(() => Boolean, { description: 'Inactive suppliers take no purchase orders' })
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  createdBy!: string;
}
