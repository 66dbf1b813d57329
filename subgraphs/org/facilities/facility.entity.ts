import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt, type Ref } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ClinicalField, type ClinicalOwner } from '../../../shared/clinical';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum RoomType {
  consultation = 'consultation',
  ward = 'ward',
  icu = 'icu',
  operating_theatre = 'operating_theatre',
  emergency = 'emergency',
  laboratory = 'laboratory',
  imaging = 'imaging',
  isolation = 'isolation',
  other = 'other',
}
registerEnumType(RoomType, { name: 'RoomType', description: 'What a room is used for' });

/** Whether a room takes patients: available, or closed or under maintenance. It may move either way (back from maintenance), so there is no state machine. */
export enum RoomStatus {
  available = 'available',
  maintenance = 'maintenance',
  closed = 'closed',
}
registerEnumType(RoomStatus, {
  name: 'RoomStatus',
  description: 'Whether a room takes patients: available, or closed or under maintenance',
});

export const MAX_ROOM_CAPACITY = 500;

/** The key that makes two room names the same within an organization: case and spacing do not count. */
export const roomNameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** A room or ward of an organization; `capacity` is its number of beds (places). */
@ObjectType('Room', { description: 'A room of an organization, with its capacity and occupancy' })
@Entity({ tableName: 'rooms' })
@Unique({ properties: ['organizationId', 'nameKey'] })
export class Room extends BaseRecord {
  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Unique in the organization, whatever the letter case' })
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  nameKey!: string;

  @Field(() => RoomType)
  @Enum({ items: () => RoomType })
  type!: RoomType;

  @Field(() => Int, { description: `Beds (places), 1 to ${MAX_ROOM_CAPACITY}` })
  @Property({ type: 'integer', check: `(capacity >= 1) AND (capacity <= ${MAX_ROOM_CAPACITY})` })
  capacity: Opt<number> = 1;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  floor?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  ward?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  department?: string | null;

  @Field(() => RoomStatus)
  @Enum({ items: () => RoomStatus })
  status: Opt<RoomStatus> = RoomStatus.available;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  createdBy!: string;
}

export enum AdmissionStatus {
  admitted = 'admitted',
  discharged = 'discharged',
}
registerEnumType(AdmissionStatus, {
  name: 'AdmissionStatus',
  description: 'Where an admission is: the patient admitted (transfers keep it so) or discharged',
});

/** transfer: to another room while admitted. discharge: ends the stay; a discharged admission is final. */
export const ADMISSION = stateMachine<AdmissionStatus, 'transfer' | 'discharge'>('admission', {
  transfer: { from: [AdmissionStatus.admitted], to: AdmissionStatus.admitted },
  discharge: { from: [AdmissionStatus.admitted], to: AdmissionStatus.discharged },
});

export enum DischargeDisposition {
  home = 'home',
  transferred_out = 'transferred_out',
  deceased = 'deceased',
  against_medical_advice = 'against_medical_advice',
  other = 'other',
}
registerEnumType(DischargeDisposition, { name: 'DischargeDisposition', description: 'Where a patient went when discharged' });

/** Where an admission's clinical fields belong: its organization and its patient (shared/clinical.ts). */
function admissionOwner(a: Admission): ClinicalOwner {
  return { organizationId: a.organizationId, patientId: a.patientId };
}

/** A patient's stay in a room of an organization, from admission to discharge. */
@ObjectType('Admission', { description: "A patient's stay in a room of the organization, from admission to discharge" })
@Entity({ tableName: 'admissions' })
@Index({ properties: ['organizationId', 'admittedAt'] })
@Index({ properties: ['room', 'status'] })
@Unique({ properties: ['organizationId', 'activePatientId'] })
export class Admission extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { description: 'A patient of the clinical subgraph' })
  @Index()
  @Property({ type: 'uuid' })
  patientId!: string;

  /** The room the patient is in now (the last one while discharged). */
  @ManyToOne(() => Room, { ref: true })
  room!: Ref<Room>;

  @Field(() => AdmissionStatus)
  @Enum({ items: () => AdmissionStatus })
  status: Opt<AdmissionStatus> = AdmissionStatus.admitted;

  @ClinicalField(() => String, { description: 'Why the patient was admitted' }, admissionOwner)
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => ID, { nullable: true, description: 'A member of the organization' })
  @Property({ type: 'uuid', nullable: true })
  attendingDoctorId?: string | null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  admittedAt!: Date;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  admittedBy!: string;

  @ClinicalField(() => String, { description: 'Notes on the admission' }, admissionOwner)
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  dischargedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  dischargedBy?: string | null;

  @ClinicalField(() => String, { description: 'The summary of the stay written at discharge' }, admissionOwner)
  @Property({ type: 'text', nullable: true })
  dischargeSummary?: string | null;

  @Field(() => DischargeDisposition, { nullable: true })
  @Enum({ items: () => DischargeDisposition, nullable: true })
  disposition?: DischargeDisposition | null;

  /**
   * The patient id while admitted, else null: the unique index then allows one active admission per patient and
   * organization even under concurrent writes (nulls never collide).
   */
  @Property({ type: 'uuid', nullable: true })
  activePatientId?: string | null;
}

/** One move of an admitted patient from a room to another. */
@ObjectType('AdmissionTransfer', { description: 'One move of an admitted patient from one room to another' })
@Entity({ tableName: 'admission_transfers' })
export class AdmissionTransfer extends BaseRecord {
  @ManyToOne(() => Admission, { ref: true, index: true })
  admission!: Ref<Admission>;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  fromRoomId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  toRoomId!: string;

  @Field(() => Date, { description: 'When the patient moved' })
  @Property({ type: 'timestamptz', fieldName: 'transferred_at' })
  at!: Date;

  @Field(() => ID, { description: 'Who moved them' })
  @Property({ type: 'uuid', fieldName: 'transferred_by' })
  by!: string;

  @ClinicalField(() => String, { description: 'Why the patient was moved' }, async (t: AdmissionTransfer) =>
    admissionOwner(await t.admission.loadOrFail()),
  )
  @Property({ type: 'text', nullable: true })
  reason?: string | null;
}
