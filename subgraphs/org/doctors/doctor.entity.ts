import { Collection, Entity, Enum, Index, ManyToOne, OneToMany, Property, Unique, type Opt } from '@mikro-orm/core';
import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MoneyField } from '../../../shared/money';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';
import { Organization } from '../organizations/organization.entity';

export enum DoctorVerification {
  pending = 'pending',
  approved = 'approved',
  rejected = 'rejected',
}
registerEnumType(DoctorVerification, {
  name: 'DoctorVerification',
  description: "Where a doctor profile's license verification is: pending, approved or rejected",
});

/**
 * Verification, written once. `resubmit` is what an owner's edit of a rejected profile, or a new license on an
 * approved one, does: the profile waits for an administrator again.
 */
export const doctorVerification = stateMachine<DoctorVerification, 'approve' | 'reject' | 'resubmit'>('doctor profile', {
  approve: { from: [DoctorVerification.pending], to: DoctorVerification.approved },
  reject: { from: [DoctorVerification.pending], to: DoctorVerification.rejected },
  resubmit: { from: [DoctorVerification.rejected, DoctorVerification.approved], to: DoctorVerification.pending },
});

/** Search key of a specialty: letter case and spacing do not count ("Internal  Medicine" = "internal medicine"). */
export const specialtyKey = (specialty: string) => specialty.trim().replace(/\s+/g, ' ').toLowerCase();

/** A license is the same license whatever its spacing and letter case, within one issuing country. */
export const licenseKey = (number: string, country: string | null | undefined) =>
  `${country ?? ''}:${number.replace(/\s+/g, '').toUpperCase()}`;

/**
 * A doctor's profile: created when a DOCTOR registers (svc.auth.user_created) or through `POST /api/doctors`.
 * Contact and license fields are private (see DoctorResolver); the entity exposes only what anyone may read.
 */
@ObjectType('Doctor', { description: 'A doctor profile: license, specialty, verification and the organizations the doctor works in' })
@Directive('@key(fields: "id")')
@Entity({ tableName: 'doctor_profiles' })
export class DoctorProfile extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid', unique: true })
  userId!: string;

  @Field()
  @Property({ type: 'text' })
  firstName!: string;

  @Field()
  @Property({ type: 'text' })
  lastName!: string;

  @Field(() => String, { nullable: true, description: 'Form of address, such as Dr' })
  @Property({ type: 'text', nullable: true })
  title?: string | null;

  /** Private: DoctorResolver.email. */
  @Property({ type: 'text' })
  email!: string;

  /** Private: DoctorResolver.phone. */
  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true, description: 'Main specialty; a profile created by registration has none yet' })
  @Property({ type: 'text', nullable: true })
  specialty?: string | null;

  /** specialtyKey(specialty), what the specialty search filter compares. */
  @Index()
  @Property({ type: 'text', nullable: true })
  specialtyKey?: string | null;

  @Field(() => [String])
  @Property({ type: 'text[]', default: '{}' })
  subSpecialties: Opt<string[]> = [];

  /** Private: DoctorResolver.licenseNumber. */
  @Property({ type: 'text', nullable: true })
  licenseNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code of the country that issued the license' })
  @Property({ type: 'text', nullable: true })
  licenseCountry?: string | null;

  /** licenseKey(number, country): unique, so one license belongs to one profile even under concurrent writes. */
  @Property({ type: 'text', nullable: true, unique: true })
  licenseKey?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  bio?: string | null;

  @Field(() => [String])
  @Property({ type: 'text[]', default: '{}' })
  languages: Opt<string[]> = [];

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  yearsOfExperience?: number | null;

  @MoneyField<DoctorProfile>({
    currency: 'currency',
    nullable: true,
    description: 'The fee of one consultation; null when the doctor has not set one',
  })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  consultationFee?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 4217 currency of the consultation fee' })
  @Property({ type: 'text', nullable: true })
  currency?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code' })
  @Property({ type: 'text', nullable: true })
  country?: string | null;

  @Field(() => DoctorVerification)
  @Enum({ items: () => DoctorVerification })
  @Index()
  verificationStatus: Opt<DoctorVerification> = DoctorVerification.pending;

  /** Private: DoctorResolver.verificationReason. */
  @Property({ type: 'text', nullable: true })
  verificationReason?: string | null;

  @Field(() => Date, { nullable: true, description: 'When an administrator approved or rejected the profile' })
  @Property({ type: 'timestamptz', nullable: true })
  verifiedAt?: Date | null;

  /** Private: DoctorResolver.verifiedBy. */
  @Property({ type: 'uuid', nullable: true })
  verifiedBy?: string | null;

  @OneToMany(() => DoctorOrganization, (link) => link.doctor)
  organizationLinks = new Collection<DoctorOrganization>(this);
}

/** A doctor's link to an organization they work in (joined through the API or svc.organization.member_added). */
@Entity({ tableName: 'doctor_organizations' })
@Unique({ properties: ['doctor', 'organization'] })
export class DoctorOrganization extends BaseRecord {
  @ManyToOne(() => DoctorProfile, { deleteRule: 'cascade' })
  doctor!: DoctorProfile;

  @Index()
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  role!: string;
}
