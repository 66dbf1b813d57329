import { BeforeCreate, BeforeUpdate, Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Directive, Field, Float, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';
import { User } from '../users/user.entity';

export enum OrganizationType {
  hospital = 'hospital',
  clinic = 'clinic',
  pharmacy = 'pharmacy',
  laboratory = 'laboratory',
  imaging_center = 'imaging_center',
  insurer = 'insurer',
  supplier = 'supplier',
  other = 'other',
}
registerEnumType(OrganizationType, {
  name: 'OrganizationType',
  description: 'What kind of organization it is: hospital, clinic, pharmacy, laboratory, imaging center, insurer, supplier or other',
});

export enum OrganizationStatus {
  pending = 'pending',
  active = 'active',
  suspended = 'suspended',
  closed = 'closed',
}
registerEnumType(OrganizationStatus, {
  name: 'OrganizationStatus',
  description: 'Where an organization is: pending, active, suspended or closed',
});

/**
 * activate: a pending organization is approved, a suspended one reinstated. suspend: an active one is put on hold.
 * close: for good; nothing leaves `closed`. Nothing returns to `pending`.
 */
export type OrganizationAction = 'activate' | 'suspend' | 'close';

export const ORGANIZATION = stateMachine<OrganizationStatus, OrganizationAction>('organization', {
  activate: { from: [OrganizationStatus.pending, OrganizationStatus.suspended], to: OrganizationStatus.active },
  suspend: { from: [OrganizationStatus.active], to: OrganizationStatus.suspended },
  close: { from: [OrganizationStatus.pending, OrganizationStatus.active, OrganizationStatus.suspended], to: OrganizationStatus.closed },
});

/** The one organization role an organization can never be without. */
export const ORG_ADMIN = 'ORG:ADMIN';

@ObjectType('Organization', { description: 'An organization: a hospital, clinic, pharmacy, laboratory or other member of the platform' })
@Directive('@key(fields: "id")')
@Entity({ tableName: 'organizations' })
export class Organization extends BaseRecord {
  @Field()
  @Property({ type: 'text' })
  name!: string;

  @Field(() => OrganizationType)
  @Enum({ items: () => OrganizationType })
  type: Opt<OrganizationType> = OrganizationType.clinic;

  @Field(() => OrganizationStatus)
  @Enum({ items: () => OrganizationStatus })
  @Index()
  status: Opt<OrganizationStatus> = OrganizationStatus.active;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
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

  @Field(() => Float, {
    nullable: true,
    description: 'Where the facility is: WGS 84 latitude in degrees, -90 to 90 (given with longitude)',
  })
  @Property({ type: 'double', nullable: true })
  latitude?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Where the facility is: WGS 84 longitude in degrees, -180 to 180 (given with latitude)',
  })
  @Property({ type: 'double', nullable: true })
  longitude?: number | null;

  @Field()
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => String, { nullable: true, description: 'Why the status last changed, as the administrator gave it' })
  @Property({ type: 'text', nullable: true })
  statusReason?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  statusChangedAt?: Date | null;
}

/** A user's place in an organization, with the roles they hold there. */
@ObjectType('OrganizationMember', { description: "A user's membership of an organization, with their roles" })
@Entity({ tableName: 'organization_members' })
@Unique({ properties: ['organization', 'user'] })
export class OrganizationMember extends BaseRecord {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'The primary organization role, such as ORG:ADMIN or ORG:DOCTOR (the first of `roles`)' })
  @Property({ type: 'text' })
  role!: string;

  @Field(() => [String], { description: 'Every organization role the member holds; a permission of any of them is theirs' })
  @Property({ type: 'text[]' })
  roles: Opt<string[]> = [];

  /** A membership made with one role holds that role; the primary role is always among the roles. */
  @BeforeCreate()
  @BeforeUpdate()
  keepRolesWithPrimary(): void {
    if (!this.roles.includes(this.role)) this.roles = [this.role, ...this.roles];
  }
}
