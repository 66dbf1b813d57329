import { LockMode, raw, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { byIds, changedKeys, isUuid, paginate, patchFrom, type PageResult } from '../../../shared/model';
import { can } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Admission, AdmissionStatus, Room, RoomStatus, RoomType, roomNameKey } from './facility.entity';
import type { CreateRoomInput, RoomListArgs, UpdateRoomInput } from './facility.types';
import { requireOrganization, tableOf } from './organization-scope';

const WHAT = 'Room';

/** Beds a room offers now: none unless it is available, else its capacity less the patients admitted in it. */
export const freeBeds = (room: Room, occupied: number) =>
  room.status === RoomStatus.available ? Math.max(room.capacity - occupied, 0) : 0;

/** The room, locked until the transaction ends, when it belongs to the organization; 404 naming Room otherwise. */
export async function lockRoom(em: EntityManager, organizationId: string, id: string): Promise<Room> {
  const room = await em.findOne(Room, { id, organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!room) throw errors.notFound(WHAT);
  return room;
}

/** Patients admitted in a room, counted under its lock. */
export function countAdmitted(em: EntityManager, roomId: string): Promise<number> {
  return em.count(Admission, { room: roomId, status: AdmissionStatus.admitted });
}

/** A room takes one more patient only when it is available and has a free bed. Call with the room locked. */
export async function requireFreeBed(em: EntityManager, room: Room): Promise<void> {
  if (room.status !== RoomStatus.available) throw errors.conflict(`Room ${room.name} is ${room.status}; it takes no patients`);
  if ((await countAdmitted(em, room.id)) >= room.capacity)
    throw errors.conflict(`Room ${room.name} is full (${room.capacity} of ${room.capacity} beds taken)`);
}

export class RoomService {
  async create(ctx: SubgraphContext, organizationId: string, input: CreateRoomInput): Promise<Room> {
    const viewer = await requireOrganization(ctx, organizationId, 'rooms:write', WHAT);
    const name = input.name.trim();
    await this.checkName(ctx.em, organizationId, name);
    const room = ctx.em.create(Room, {
      organizationId,
      name,
      nameKey: roomNameKey(name),
      type: input.type ?? RoomType.other,
      capacity: input.capacity ?? 1,
      floor: input.floor?.trim() ?? null,
      ward: input.ward?.trim() ?? null,
      department: input.department?.trim() ?? null,
      status: input.status ?? RoomStatus.available,
      createdBy: viewer.userId,
    });
    await ctx.em.flush();
    return room;
  }

  /** Every member reads the organization's rooms, by name. */
  async list(ctx: SubgraphContext, organizationId: string, args: RoomListArgs): Promise<PageResult<Room>> {
    await requireOrganization(ctx, organizationId, 'organizations:read', WHAT);
    const where: FilterQuery<Room>[] = [{ organizationId }];
    if (args.type) where.push({ type: args.type });
    if (args.status) where.push({ status: args.status });
    if (args.available !== undefined && args.available !== null) {
      const admissions = tableOf(ctx.em, Admission);
      const hasFreeBed = (alias: string) =>
        `${alias}.capacity > (select count(*) from ${admissions} a where a.room_id = ${alias}.id and a.status = '${AdmissionStatus.admitted}')`;
      where.push(
        args.available
          ? { status: RoomStatus.available, [raw(hasFreeBed)]: [] }
          : { $or: [{ status: { $ne: RoomStatus.available } }, { [raw((alias: string) => `not (${hasFreeBed(alias)})`)]: [] }] },
      );
    }
    return paginate(ctx.em, Room, { $and: where }, args, { name: 'asc', id: 'asc' });
  }

  async get(ctx: SubgraphContext, organizationId: string, id: string): Promise<Room> {
    await requireOrganization(ctx, organizationId, 'organizations:read', WHAT);
    return this.find(ctx, organizationId, id);
  }

  /**
   * Renames, re-types or re-sizes a room, or changes its status. Under the room's lock, so an admission at the same
   * moment is counted: capacity never drops below the patients in it, and a room with patients is not closed.
   */
  async update(ctx: SubgraphContext, organizationId: string, id: string, input: UpdateRoomInput): Promise<Room> {
    await requireOrganization(ctx, organizationId, 'rooms:write', WHAT);
    const found = await this.find(ctx, organizationId, id);
    const patch = patchFrom(input, ['name', 'type', 'capacity', 'status']);
    for (const k of ['name', 'floor', 'ward', 'department'] as const) if (patch[k]) patch[k] = patch[k].trim();
    if (patch.name && roomNameKey(patch.name) !== found.nameKey) await this.checkName(ctx.em, organizationId, patch.name);
    return ctx.em.transactional(async (em) => {
      const room = await lockRoom(em, organizationId, found.id);
      const changed = changedKeys(room, patch);
      if (!changed.length) return room;
      if (changed.includes('capacity') || (changed.includes('status') && patch.status === RoomStatus.closed)) {
        const occupied = await countAdmitted(em, room.id);
        if (patch.capacity !== undefined && patch.capacity < occupied) {
          throw errors.conflict(`Room ${room.name} has ${occupied} admitted patients; its capacity cannot drop below that`);
        }
        if (patch.status === RoomStatus.closed && occupied > 0) {
          throw errors.conflict(`Room ${room.name} has ${occupied} admitted patients; transfer or discharge them before closing it`);
        }
      }
      em.assign(room, { ...patch, ...(patch.name ? { nameKey: roomNameKey(patch.name) } : {}) });
      return room;
    });
  }

  /** Patients admitted in the room now, batched across rooms. */
  occupied(ctx: SubgraphContext, room: Room): Promise<number> {
    return ctx
      .loader<string, number>('room-occupancy', async (roomIds) => {
        const rows: { room_id: string; n: number }[] = await ctx.em
          .createQueryBuilder(Admission, 'a')
          .select(['a.room_id', raw('count(*)::int as n')])
          .where({ room: { $in: [...roomIds] }, status: AdmissionStatus.admitted })
          .groupBy('a.room_id')
          .execute('all', false);
        const counts = new Map(rows.map((r) => [r.room_id, r.n]));
        return roomIds.map((id) => counts.get(id) ?? 0);
      })
      .load(room.id) as Promise<number>;
  }

  /** A room by id, batched; callers have authorized the record that refers to it. */
  load(ctx: SubgraphContext, id: string): Promise<Room | null> {
    return ctx.loader<string, Room>('room', byIds(ctx.em, Room)).load(id);
  }

  /** Who may see the patients in a room. */
  canSeeAdmissions(ctx: SubgraphContext, room: Room): boolean {
    return can(ctx.viewer, 'admissions:read', room.organizationId);
  }

  private async find(ctx: SubgraphContext, organizationId: string, id: string): Promise<Room> {
    const room = isUuid(id) ? await ctx.em.findOne(Room, { id, organizationId }) : null;
    if (!room) throw errors.notFound(WHAT);
    return room;
  }

  /** One room per name in an organization, whatever the letter case or spacing. */
  private async checkName(em: EntityManager, organizationId: string, name: string): Promise<void> {
    if (await em.count(Room, { organizationId, nameKey: roomNameKey(name) })) {
      throw errors.duplicate(`The organization already has a room named ${name}`);
    }
  }
}
