import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ref } from '../../../shared/refs';
import { OrgPatient } from '../patient';
import { ConnectionArgs } from '../../../shared/connection';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { Organization } from '../organizations/organization.entity';
import { AdmissionService } from './admission.service';
import { Admission, AdmissionTransfer, Room } from './facility.entity';
import {
  AdmissionConnection,
  AdmissionListArgs,
  AdmissionPage,
  AdmitPatientInput,
  AdmitPatientPayload,
  CreateRoomInput,
  CreateRoomPayload,
  DischargeInput,
  RoomListArgs,
  RoomPage,
  TransferAdmissionPayload,
  TransferInput,
  UpdateRoomInput,
  UpdateRoomPayload,
} from './facility.types';
import { freeBeds, RoomService } from './room.service';

@Resolver(() => Room)
export class RoomResolver {
  private readonly service = new RoomService();
  private readonly admissionService = new AdmissionService();

  @RequiresOrgPermission('rooms:write', { hiddenAs: 'Room' })
  @PayloadMutation(CreateRoomPayload, { description: 'Create a room or ward (rooms:write); a bad field or a name taken is a user error' })
  createRoom(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'The fields of the new room' }) input: CreateRoomInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, organizationId, input);
  }

  @Query(() => RoomPage, { description: "An organization's rooms, by name (every member)" })
  organizationRooms(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: RoomListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.list(ctx, organizationId, args);
  }

  @Query(() => Room, {
    nullable: true,
    description: "A room of the organization's with its occupancy; NOT_FOUND when missing or another organization's",
  })
  room(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The room' }) id: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.get(ctx, organizationId, id);
  }

  @RequiresOrgPermission('rooms:write', { hiddenAs: 'Room' })
  @PayloadMutation(UpdateRoomPayload, {
    description:
      'Change a room: name, type, capacity (not below its patients), status, ...; a bad field, a name taken, a capacity below its patients or closing it with patients in is a user error',
  })
  updateRoom(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The room' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateRoomInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, organizationId, id, input);
  }

  @FieldResolver(() => Int, { description: 'Patients admitted in the room now' })
  occupied(@Root() room: Room, @Ctx() ctx: SubgraphContext) {
    return this.service.occupied(ctx, room);
  }

  @FieldResolver(() => Int, { description: 'Free beds: capacity less occupied while the room is available, else 0' })
  async availableBeds(@Root() room: Room, @Ctx() ctx: SubgraphContext) {
    return freeBeds(room, await this.service.occupied(ctx, room));
  }

  @FieldResolver(() => [Admission], {
    nullable: true,
    description: 'Patients admitted in the room now; null for callers without admissions:read',
  })
  admissions(@Root() room: Room, @Ctx() ctx: SubgraphContext) {
    return this.service.canSeeAdmissions(ctx, room) ? this.admissionService.currentInRoom(ctx, room) : null;
  }
}

@Resolver(() => Admission)
export class AdmissionResolver {
  private readonly service = new AdmissionService();
  private readonly rooms = new RoomService();

  @RequiresOrgPermission('admissions:write', { hiddenAs: 'Admission' })
  @PayloadMutation(AdmitPatientPayload, {
    description:
      'Admit a patient into a room with a free bed (admissions:write); a bad field, a room full or closed or a patient already admitted is a user error',
  })
  admitPatient(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'The patient, room and admission details' }) input: AdmitPatientInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.admit(ctx, organizationId, input);
  }

  @RequiresOrgPermission('admissions:read', { hiddenAs: 'Admission' })
  @Query(() => AdmissionPage, { description: "An organization's admissions, newest first (admissions:read)" })
  organizationAdmissions(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: AdmissionListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.list(ctx, organizationId, args);
  }

  @RequiresOrgPermission('admissions:read', { hiddenAs: 'Admission' })
  @Query(() => Admission, {
    nullable: true,
    description: "An admission of the organization's; NOT_FOUND when missing or another organization's",
  })
  admission(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The admission' }) id: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.get(ctx, organizationId, id);
  }

  @RequiresOrgPermission('admissions:write', { hiddenAs: 'Admission' })
  @Mutation(() => Admission, { description: 'Discharge an admitted patient' })
  dischargeAdmission(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The admission' }) id: string,
    @Arg('input', { description: 'The disposition, summary and time of discharge' }) input: DischargeInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.discharge(ctx, organizationId, id, input);
  }

  @RequiresOrgPermission('admissions:write', { hiddenAs: 'Admission' })
  @PayloadMutation(TransferAdmissionPayload, {
    description:
      'Move an admitted patient to another room with a free bed; a bad field, the same room, a room full or closed or an admission no longer admitted is a user error',
  })
  transferAdmission(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The admission' }) id: string,
    @Arg('input', { description: 'The room to move to, and why' }) input: TransferInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.transfer(ctx, organizationId, id, input);
  }

  @FieldResolver(() => ID)
  roomId(@Root() admission: Admission) {
    return admission.room.id;
  }

  @FieldResolver(() => Room, { description: 'The room the patient is in (the last one once discharged)' })
  room(@Root() admission: Admission, @Ctx() ctx: SubgraphContext) {
    return this.rooms.load(ctx, admission.room.id);
  }

  @FieldResolver(() => OrgPatient, {
    nullable: true,
    description: 'Resolved by the clinical subgraph; null when the patient does not exist or the caller may not see them',
  })
  patient(@Root() admission: Admission) {
    return ref(admission.patientId);
  }

  @FieldResolver(() => [AdmissionTransfer], { description: 'Moves between rooms, oldest first' })
  transfers(@Root() admission: Admission, @Ctx() ctx: SubgraphContext) {
    return this.service.transfers(ctx, admission);
  }
}

/** `organization { rooms }`: the rule of `organizationRooms` (every member), one organization per call. */
@Resolver(() => Organization)
export class OrganizationRoomsResolver {
  private readonly service = new RoomService();

  @FieldResolver(() => RoomPage, { nullable: true, description: "The organization's rooms, by name (every member); as organizationRooms" })
  rooms(@Root() org: Organization, @Args() args: RoomListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, org.id, args);
  }
}

/** `patient { admissions }`: the rule of `organizationAdmissions` (admissions:read), batched across patients. */
@Resolver(() => OrgPatient)
export class PatientAdmissionsResolver {
  private readonly service = new AdmissionService();

  @FieldResolver(() => AdmissionConnection, {
    nullable: true,
    description:
      "The patient's admissions in the organizations where the caller reads admissions, latest first, by cursor; null with a FORBIDDEN error without admissions:read",
  })
  admissions(@Root() patient: OrgPatient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.forPatient(ctx, patient.id, args);
  }
}

/** The rooms of a move, read with the admission they belong to. */
@Resolver(() => AdmissionTransfer)
export class AdmissionTransferResolver {
  private readonly rooms = new RoomService();

  @FieldResolver(() => Room, { description: 'The room the patient left' })
  fromRoom(@Root() transfer: AdmissionTransfer, @Ctx() ctx: SubgraphContext) {
    return this.rooms.load(ctx, transfer.fromRoomId);
  }

  @FieldResolver(() => Room, { description: 'The room the patient moved to' })
  toRoom(@Root() transfer: AdmissionTransfer, @Ctx() ctx: SubgraphContext) {
    return this.rooms.load(ctx, transfer.toRoomId);
  }
}
