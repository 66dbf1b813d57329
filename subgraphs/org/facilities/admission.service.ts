import type { FilterQuery } from '@mikro-orm/core';
import { auditChange, auditRead, type AuditEntry } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import {
  keysetConnection,
  windowOf,
  type Connection,
  type ConnectionArgs,
  type KeysetList,
  type KeysetScope,
} from '../../../shared/connection';
import { organizationsWith, requireViewer } from '../../../shared/permissions';
import { lockedChange } from '../../../shared/locked-change';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import type { TopicDefinition } from '../../../shared/events';
import { PATIENT_ADMITTED, PATIENT_DISCHARGED, PATIENT_TRANSFERRED, type AdmissionEventPayload } from './admission.events';
import { requirePatientOf } from '../../../shared/refs';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import type { SubgraphContext } from '../../../shared/subgraph';
import { OrganizationMember } from '../organizations/organization.entity';
import { ADMISSION, Admission, AdmissionStatus, AdmissionTransfer, DischargeDisposition, Room } from './facility.entity';
import type { AdmissionListArgs, AdmitPatientInput, DischargeInput, TransferInput } from './facility.types';
import { requireOrganization } from './organization-scope';
import { lockRoom, requireFreeBed } from './room.service';

const WHAT = 'Admission';

const PATIENT_ADMISSIONS: KeysetList<Admission> = {
  name: 'patient:admission',
  entity: Admission,
  parentColumn: 'patient_id',
  sortColumn: 'admitted_at',
};

/** An admission is patient data: every read and change of one is audited. */
const admissionAudit = (action: string, a: Admission, details: Record<string, unknown> = {}): AuditEntry => ({
  action,
  resourceType: 'admission',
  resourceId: a.id,
  patientId: a.patientId,
  organizationId: a.organizationId,
  details,
});

const trimmed = (value: string | null | undefined) => value?.trim() || null;

/** Records an admission's move in the outbox, in the transaction that makes it. */
function recordMove(
  em: EntityManager,
  topic: TopicDefinition,
  admission: Admission,
  at: Date,
  by: string,
  extra: Partial<AdmissionEventPayload> = {},
): void {
  const payload: AdmissionEventPayload = {
    admission_id: admission.id,
    organization_id: admission.organizationId,
    patient_id: admission.patientId,
    room_id: admission.room.id,
    ...extra,
    at: at.toISOString(),
    by,
  };
  emitEvent(em, 'org', topic, payload);
}

export class AdmissionService {
  /**
   * Admits a patient into a room of the organization. The room's row is locked while its beds are counted, so two
   * admissions into the last bed run one after the other and the second is refused.
   */
  async admit(ctx: SubgraphContext, organizationId: string, input: AdmitPatientInput): Promise<Admission> {
    const viewer = await requireOrganization(ctx, organizationId, 'admissions:write', WHAT);
    const issues: FieldIssue[] = [];
    if (!isUuid(input.patientId)) issues.push({ field: 'patientId', message: 'must be a patient id' });
    if (!isUuid(input.roomId)) issues.push({ field: 'roomId', message: 'must be a room id' });
    const doctorId = input.attendingDoctorId ?? null;
    if (doctorId !== null && !(isUuid(doctorId) && (await this.isMember(ctx, organizationId, doctorId)))) {
      issues.push({ field: 'attendingDoctorId', message: 'must be the user id of a member of the organization' });
    }
    if (issues.length) throw errors.validation(issues);
    await requirePatientOf(ctx, input.patientId, organizationId);
    const admittedAt = input.admittedAt ?? clock.now();
    return ctx.em.transactional(async (em) => {
      const room = await lockRoom(em, organizationId, input.roomId);
      const current = await em.findOne(Admission, { organizationId, activePatientId: input.patientId });
      if (current) throw errors.duplicate(`The patient is already admitted in this organization (admission ${current.id})`);
      await requireFreeBed(em, room);
      const admission = em.create(Admission, {
        organizationId,
        patientId: input.patientId,
        room,
        reason: trimmed(input.reason),
        attendingDoctorId: doctorId,
        admittedAt,
        admittedBy: viewer.userId,
        notes: trimmed(input.notes),
        activePatientId: input.patientId,
      });
      auditChange(ctx, admissionAudit('create', admission, { room_id: room.id }), em);
      recordMove(em, PATIENT_ADMITTED, admission, admittedAt, viewer.userId);
      return admission;
    });
  }

  async list(ctx: SubgraphContext, organizationId: string, args: AdmissionListArgs): Promise<PageResult<Admission>> {
    await requireOrganization(ctx, organizationId, 'admissions:read', WHAT);
    const issues: FieldIssue[] = [];
    if (args.roomId != null && !isUuid(args.roomId)) issues.push({ field: 'roomId', message: 'must be a room id' });
    if (args.patientId != null && !isUuid(args.patientId)) issues.push({ field: 'patientId', message: 'must be a patient id' });
    if (issues.length) throw errors.validation(issues);
    const where: FilterQuery<Admission> = { organizationId };
    if (args.status) where.status = args.status;
    if (args.roomId) where.room = args.roomId;
    if (args.patientId) where.patientId = args.patientId;
    const page = await paginate(ctx.em, Admission, where, args, { admittedAt: 'desc', id: 'asc' });
    auditRead(
      ctx,
      page.items.map((a) => admissionAudit('list', a)),
    );
    return page;
  }

  /**
   * `patient { admissions }`: the patient's admissions in the organizations where the caller reads admissions (the
   * rule of `organizationAdmissions`), latest first, by cursor; FORBIDDEN without admissions:read anywhere.
   */
  async forPatient(ctx: SubgraphContext, patientId: string, args: ConnectionArgs): Promise<Connection<Admission>> {
    windowOf(args);
    const orgs = organizationsWith(requireViewer(ctx.viewer), 'admissions:read');
    if (orgs && !orgs.length) throw errors.forbidden('Reading admissions needs the admissions:read permission');
    const scope: KeysetScope | undefined = orgs ? { sql: 'organization_id in (?)', params: [orgs] } : undefined;
    const connection = await keysetConnection(ctx, PATIENT_ADMISSIONS, patientId, args, scope);
    auditRead(
      ctx,
      connection.nodes.map((a) => admissionAudit('list', a)),
    );
    return connection;
  }

  async get(ctx: SubgraphContext, organizationId: string, id: string): Promise<Admission> {
    await requireOrganization(ctx, organizationId, 'admissions:read', WHAT);
    const admission = await this.find(ctx, organizationId, id);
    auditRead(ctx, admissionAudit('read', admission));
    return admission;
  }

  /** Ends the stay: `disposition` says where the patient went; the bed is free from then on. */
  async discharge(ctx: SubgraphContext, organizationId: string, id: string, input: DischargeInput): Promise<Admission> {
    const viewer = await requireOrganization(ctx, organizationId, 'admissions:write', WHAT);
    const found = await this.find(ctx, organizationId, id);
    return this.locked(ctx, found.id, (em, admission) => {
      admission.status = ADMISSION.next(admission.status, 'discharge');
      const now = clock.now();
      // Admitted a moment "ahead" (clock skew) and discharged at once: the stay cannot end before it began.
      const dischargedAt = input.dischargedAt ?? (now < admission.admittedAt ? admission.admittedAt : now);
      if (dischargedAt < admission.admittedAt) throw errors.invalidField('dischargedAt', 'must not be before the admission');
      admission.dischargedAt = dischargedAt;
      admission.dischargedBy = viewer.userId;
      admission.disposition = input.disposition ?? DischargeDisposition.other;
      admission.dischargeSummary = trimmed(input.dischargeSummary);
      admission.activePatientId = null;
      recordMove(em, PATIENT_DISCHARGED, admission, dischargedAt, viewer.userId, { disposition: admission.disposition });
    });
  }

  /**
   * Moves an admitted patient to another room of the organization, under the same bed rule as an admission. Both
   * rooms are locked in id order, so two transfers between the same rooms in opposite directions cannot deadlock.
   */
  async transfer(ctx: SubgraphContext, organizationId: string, id: string, input: TransferInput): Promise<Admission> {
    const viewer = await requireOrganization(ctx, organizationId, 'admissions:write', WHAT);
    if (!isUuid(input.roomId)) throw errors.invalidField('roomId', 'must be a room id');
    const found = await this.find(ctx, organizationId, id);
    return this.locked(ctx, found.id, async (em, admission) => {
      ADMISSION.next(admission.status, 'transfer');
      const fromRoomId = admission.room.id;
      if (fromRoomId === input.roomId) throw errors.invalidField('roomId', 'must be another room than the one the patient is in');
      const rooms = new Map<string, Room>();
      for (const roomId of [fromRoomId, input.roomId].sort()) rooms.set(roomId, await lockRoom(em, organizationId, roomId));
      const target = rooms.get(input.roomId)!;
      await requireFreeBed(em, target);
      const at = clock.now();
      em.create(AdmissionTransfer, {
        admission,
        fromRoomId,
        toRoomId: target.id,
        at,
        by: viewer.userId,
        reason: trimmed(input.reason),
      });
      admission.room = em.getReference(Room, target.id, { wrapped: true });
      recordMove(em, PATIENT_TRANSFERRED, admission, at, viewer.userId, { from_room_id: fromRoomId });
    });
  }

  /** The moves of an admission, oldest first, batched across admissions. */
  transfers(ctx: SubgraphContext, admission: Admission): Promise<AdmissionTransfer[]> {
    return ctx
      .loader<string, AdmissionTransfer[]>('admission-transfers', async (ids) => {
        const rows = await ctx.em.find(AdmissionTransfer, { admission: { $in: [...ids] } }, { orderBy: { at: 'asc', id: 'asc' } });
        return ids.map((id) => rows.filter((t) => t.admission.id === id));
      })
      .load(admission.id) as Promise<AdmissionTransfer[]>;
  }

  /** Patients admitted now in each room, batched across rooms (the caller checked `admissions:read`). */
  currentInRoom(ctx: SubgraphContext, room: Room): Promise<Admission[]> {
    return ctx
      .loader<string, Admission[]>('room-admissions', async (roomIds) => {
        const rows = await ctx.em.find(
          Admission,
          { room: { $in: [...roomIds] }, status: AdmissionStatus.admitted },
          { orderBy: { admittedAt: 'asc', id: 'asc' } },
        );
        return roomIds.map((id) => rows.filter((a) => a.room.id === id));
      })
      .load(room.id) as Promise<Admission[]>;
  }

  private async find(ctx: SubgraphContext, organizationId: string, id: string): Promise<Admission> {
    const admission = isUuid(id) ? await ctx.em.findOne(Admission, { id, organizationId }) : null;
    if (!admission) throw errors.notFound(WHAT);
    return admission;
  }

  /** Applies `change` with the admission's row locked, so a discharge and a transfer at once run one after the other. */
  private locked(
    ctx: SubgraphContext,
    id: string,
    change: (em: SubgraphContext['em'], admission: Admission) => void | Promise<void>,
  ): Promise<Admission> {
    return lockedChange(ctx, Admission, id, async (tx, admission) => {
      const before = { status: admission.status, room_id: admission.room.id };
      await change(tx.em, admission);
      auditChange(tx, admissionAudit('update', admission, { before, status: admission.status, room_id: admission.room.id }));
    });
  }

  private async isMember(ctx: SubgraphContext, organizationId: string, userId: string): Promise<boolean> {
    return (await ctx.em.count(OrganizationMember, { organization: organizationId, user: userId })) > 0;
  }
}
