import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

export enum PrescriptionStatus {
  draft = 'draft',
  signed = 'signed',
  cancelled = 'cancelled',
}
registerEnumType(PrescriptionStatus, { name: 'PrescriptionStatus', description: 'Where a prescription is: draft, signed or cancelled' });

/**
 * edit: only a draft changes. sign: a doctor makes it valid; from then on it is fixed. cancel: before or after
 * signing; the e-prescriptions made from it that were not dispensed are cancelled with it.
 */
export const PRESCRIPTION = stateMachine<PrescriptionStatus, 'edit' | 'sign' | 'cancel'>('prescription', {
  edit: { from: [PrescriptionStatus.draft], to: PrescriptionStatus.draft },
  sign: { from: [PrescriptionStatus.draft], to: PrescriptionStatus.signed },
  cancel: { from: [PrescriptionStatus.draft, PrescriptionStatus.signed], to: PrescriptionStatus.cancelled },
});

export enum EPrescriptionStatus {
  pending = 'pending',
  transmitted = 'transmitted',
  dispensed = 'dispensed',
  cancelled = 'cancelled',
}
registerEnumType(EPrescriptionStatus, {
  name: 'EPrescriptionStatus',
  description: 'Where an e-prescription is: pending, transmitted to the pharmacy, dispensed or cancelled',
});

/**
 * transmit: the clinic sends it to the pharmacy. dispense: the pharmacy hands the medication out. refill: the patient
 * or their clinician asks for the next fill, which goes back to the pharmacy (one refill used; none left is a 409).
 * cancel: only through cancelling the prescription, and never once dispensed.
 */
export const EPRESCRIPTION = stateMachine<EPrescriptionStatus, 'transmit' | 'dispense' | 'refill' | 'cancel'>('e-prescription', {
  transmit: { from: [EPrescriptionStatus.pending], to: EPrescriptionStatus.transmitted },
  dispense: { from: [EPrescriptionStatus.transmitted], to: EPrescriptionStatus.dispensed },
  refill: { from: [EPrescriptionStatus.dispensed], to: EPrescriptionStatus.transmitted },
  cancel: { from: [EPrescriptionStatus.pending, EPrescriptionStatus.transmitted], to: EPrescriptionStatus.cancelled },
});

export const MAX_REFILLS = 12;

/** A medication order for a patient: written as a draft, signed by a doctor, then sent to pharmacies. */
@ObjectType('Prescription', { description: 'A prescription of a medication, a draft until signed' })
@Entity({ tableName: 'prescriptions' })
@Index({ properties: ['patientId', 'createdAt'] })
export class Prescription extends PatientRecord {
  @Field(() => ID, { description: 'Who wrote it' })
  @Index()
  @Property({ type: 'uuid' })
  prescriberId!: string;

  @Field()
  @Property({ type: 'text' })
  medication!: string;

  @Field()
  @Property({ type: 'text' })
  dosage!: string;

  @Field()
  @Property({ type: 'text' })
  frequency!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  duration?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  instructions?: string | null;

  @Field(() => Int, { description: `Refills allowed after the first fill, 0 to ${MAX_REFILLS}` })
  @Property({ type: 'integer', check: 'refills >= 0' })
  refills: Opt<number> = 0;

  @Field(() => PrescriptionStatus)
  @Enum({ items: () => PrescriptionStatus })
  status: Opt<PrescriptionStatus> = PrescriptionStatus.draft;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  signedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  signedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  cancellationReason?: string | null;
}

/** A signed prescription sent electronically to one pharmacy (an organization), and what the pharmacy did with it. */
@ObjectType('EPrescription', { description: 'A prescription sent electronically to a pharmacy, with its refills' })
@Entity({ tableName: 'eprescriptions' })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['pharmacyId', 'createdAt'] })
export class EPrescription extends BaseRecord {
  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  prescriptionId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, { nullable: true, description: "The prescribing organization (the patient's)" })
  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Field(() => ID, { description: 'The pharmacy organization it is sent to' })
  @Property({ type: 'uuid' })
  pharmacyId!: string;

  @Field(() => EPrescriptionStatus)
  @Enum({ items: () => EPrescriptionStatus })
  status: Opt<EPrescriptionStatus> = EPrescriptionStatus.pending;

  @Field(() => Int, { description: "Starts at the prescription's refills; each refill uses one" })
  @Property({ type: 'integer', check: 'refills_remaining >= 0' })
  refillsRemaining!: number;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  createdBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  transmittedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'The first transmission' })
  @Property({ type: 'timestamptz', nullable: true })
  transmittedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  dispensedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'The latest fill' })
  @Property({ type: 'timestamptz', nullable: true })
  dispensedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  refillRequestedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'The latest refill request' })
  @Property({ type: 'timestamptz', nullable: true })
  refillRequestedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;
}
