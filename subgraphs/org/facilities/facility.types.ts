import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { PayloadOf } from '../../../shared/user-errors';
import { IsInRange, IsNotFuture, IsText } from '../../../shared/validation';
import { Admission, AdmissionStatus, DischargeDisposition, MAX_ROOM_CAPACITY, Room, RoomStatus, RoomType } from './facility.entity';

@InputType({ description: 'The fields of a new room' })
export class CreateRoomInput {
  @Field({ description: 'Unique in the organization, whatever the letter case' })
  @IsText(100)
  name!: string;

  @Field(() => RoomType, { nullable: true, description: '`other` when omitted' })
  type?: RoomType;

  @Field(() => Int, { nullable: true, description: `Beds (places), 1 (default) to ${MAX_ROOM_CAPACITY}` })
  @IsInRange(1, MAX_ROOM_CAPACITY)
  capacity?: number;

  @Field({ nullable: true })
  @IsText(50)
  floor?: string;

  @Field({ nullable: true })
  @IsText(100)
  ward?: string;

  @Field({ nullable: true })
  @IsText(100)
  department?: string;

  @Field(() => RoomStatus, { nullable: true, description: 'available when omitted' })
  status?: RoomStatus;
}

/** Every field optional; optional fields sent as null are cleared. */
@InputType({ description: 'The fields of a room to change; those left out stay' })
export class UpdateRoomInput {
  @Field({ nullable: true })
  @IsText(100)
  name?: string;

  @Field(() => RoomType, { nullable: true })
  type?: RoomType;

  @Field(() => Int, { nullable: true, description: 'Not below the number of patients admitted in it' })
  @IsInRange(1, MAX_ROOM_CAPACITY)
  capacity?: number;

  @Field(() => String, { nullable: true })
  @IsText(50)
  floor?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(100)
  ward?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(100)
  department?: string | null;

  @Field(() => RoomStatus, { nullable: true, description: 'closed only when nobody is admitted in it' })
  status?: RoomStatus;
}

@ArgsType()
export class RoomListArgs extends PageArgs {
  @Field(() => RoomType, { nullable: true, description: 'Only rooms of this type; every type when omitted' })
  type?: RoomType;

  @Field(() => RoomStatus, { nullable: true, description: 'Only rooms in this status; every status when omitted' })
  status?: RoomStatus;

  @Field({ nullable: true, description: 'true: rooms taking patients with a free bed; false: the others' })
  available?: boolean;
}

@ObjectType()
export class RoomPage extends PageOf(Room) {}

@ObjectType({ description: 'What createRoom answers: the new room, or what the user must fix (a bad field, a name taken)' })
export class CreateRoomPayload extends PayloadOf(Room, 'room') {}

@ObjectType({
  description:
    'What updateRoom answers: the changed room, or what the user must fix (a bad field, a name taken, a capacity below its patients, closing it with patients in)',
})
export class UpdateRoomPayload extends PayloadOf(Room, 'room') {}

@ObjectType({
  description:
    'What admitPatient answers: the new admission, or what the user must fix (a bad field, a room full or closed, a patient already admitted)',
})
export class AdmitPatientPayload extends PayloadOf(Admission, 'admission') {}

@ObjectType({
  description:
    'What transferAdmission answers: the moved admission, or what the user must fix (a bad field, the same room, a room full or closed, an admission no longer admitted)',
})
export class TransferAdmissionPayload extends PayloadOf(Admission, 'admission') {}

@InputType({ description: 'Who is admitted, into which room, and why' })
export class AdmitPatientInput {
  @Field(() => ID, { description: 'A patient of the organization (404 when unknown or not visible to the caller)' })
  patientId!: string;

  @Field(() => ID, { description: 'A room of the organization, available and with a free bed' })
  roomId!: string;

  @Field({ nullable: true })
  @IsText(1000)
  reason?: string;

  @Field(() => ID, { nullable: true, description: 'A member of the organization' })
  attendingDoctorId?: string;

  @Field(() => Date, { nullable: true, description: 'Now when omitted; never in the future' })
  @IsNotFuture()
  admittedAt?: Date;

  @Field({ nullable: true })
  @IsText(5000)
  notes?: string;
}

@InputType({ description: 'How the patient leaves: the disposition and notes' })
export class DischargeInput {
  @Field(() => DischargeDisposition, { nullable: true, description: '`other` (not stated) when omitted' })
  disposition?: DischargeDisposition;

  @Field({ nullable: true })
  @IsText(10000)
  dischargeSummary?: string;

  @Field(() => Date, { nullable: true, description: 'Now when omitted; not before the admission, never in the future' })
  @IsNotFuture()
  dischargedAt?: Date;
}

@InputType({ description: 'The room to move the patient to, and why' })
export class TransferInput {
  @Field(() => ID, { description: 'Another room of the organization, available and with a free bed' })
  roomId!: string;

  @Field({ nullable: true })
  @IsText(1000)
  reason?: string;
}

@ArgsType()
export class AdmissionListArgs extends PageArgs {
  @Field(() => AdmissionStatus, { nullable: true, description: 'Only admissions in this status; every status when omitted' })
  status?: AdmissionStatus;

  @Field(() => ID, { nullable: true, description: 'Only admissions to this room; every room when omitted' })
  roomId?: string;

  @Field(() => ID, { nullable: true, description: "Only this patient's admissions; every patient when omitted" })
  patientId?: string;
}

@ObjectType()
export class AdmissionPage extends PageOf(Admission) {}

@ObjectType({ description: 'Admissions by cursor, latest admission first' })
export class AdmissionConnection extends ConnectionOf(Admission, 'Admission') {}
