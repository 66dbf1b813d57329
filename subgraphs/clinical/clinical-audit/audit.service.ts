import type { FilterQuery } from '@mikro-orm/core';
import { AuditEvent } from '../../../shared/audit/audit-event.entity';
import { auditChange, auditOfPatient, auditOfResource, flushAudit } from '../../../shared/audit/audit-trail';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { canSeeOrganization, organizationsWith, requireUser, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { readablePatient } from '../access/patient-access';
import { RESOURCE_TYPE, type AuditSearchArgs, type AuditTrailArgs, type LogAuditEventInput } from './audit.types';

const NEWEST_FIRST = { createdAt: 'desc', id: 'asc' } as const;
const MAX_DETAILS = 4096;

/**
 * Which audit events a person may read: platform administrators all of them; everyone the events of their own
 * actions; an organization's administrators (`audit:read`) the events of their organization. API keys read none.
 */
function visible(viewer: Viewer): FilterQuery<AuditEvent> {
  if (isPlatformAdmin(viewer)) return {};
  const orgs = organizationsWith(viewer, 'audit:read') ?? [];
  return { $or: [{ actorId: viewer.userId }, ...(orgs.length ? [{ organizationId: { $in: orgs } }] : [])] };
}

function checkIds(pairs: [string, string | null | undefined][]): void {
  const issues: FieldIssue[] = pairs.flatMap(([field, v]) =>
    v !== undefined && v !== null && !isUuid(v) ? [{ field, message: 'must be an id' }] : [],
  );
  if (issues.length) throw errors.validation(issues);
}

function timeRange(args: AuditTrailArgs): FilterQuery<AuditEvent> {
  if (args.from && args.to && args.from.getTime() > args.to.getTime()) throw errors.invalidField('to', 'must not be before from');
  return {
    ...(args.from || args.to ? { createdAt: { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lt: args.to } : {}) } } : {}),
  };
}

/**
 * The clinical audit trail, read and written through the API: the same `audit_events` the platform writes on every
 * read and change of patient data. Buffered read audits are written before a query, so the trail is current.
 */
export class ClinicalAuditService {
  /**
   * Logs what happened on the caller's side. The actor is the caller, always (an `actorId` naming anyone else is a 403);
   * the patient must be one the caller may read, and the organization is the patient's (or one of the caller's).
   */
  async log(ctx: SubgraphContext, input: LogAuditEventInput): Promise<AuditEvent> {
    const viewer = requireViewer(ctx.viewer);
    checkIds([
      ['actorId', input.actorId],
      ['patientId', input.patientId],
      ['organizationId', input.organizationId],
    ]);
    if (input.actorId && input.actorId !== viewer.userId) throw errors.forbidden("Nobody logs an audit event in someone else's name");
    const details = input.details ?? {};
    if (JSON.stringify(details).length > MAX_DETAILS)
      throw errors.invalidField('details', `must be at most ${MAX_DETAILS} characters of JSON`);
    let organizationId = input.organizationId ?? null;
    let patientId: string | null = null;
    if (input.patientId) {
      const patient = await readablePatient(ctx, input.patientId);
      if (organizationId && organizationId !== (patient.organizationId ?? null))
        throw errors.invalidField('organizationId', "must be the patient's organization");
      patientId = patient.id;
      organizationId = patient.organizationId ?? null;
    } else if (organizationId && !canSeeOrganization(viewer, organizationId)) {
      throw errors.notFound('Organization');
    }
    const event = auditChange(ctx, {
      action: input.action,
      resourceType: input.resourceType,
      resourceId: input.resourceId ?? null,
      patientId,
      organizationId,
      // Marks what a client reported, apart from what the platform recorded itself; the client cannot set it otherwise.
      details: { ...details, origin: 'client' },
    });
    await ctx.em.flush();
    return event;
  }

  async get(ctx: SubgraphContext, id: string): Promise<AuditEvent> {
    const viewer = requireUser(ctx.viewer);
    if (!isUuid(id)) throw errors.notFound('Audit event');
    await flushAudit(ctx.em);
    const event = await ctx.em.findOne(AuditEvent, { $and: [{ id }, visible(viewer)] });
    if (!event) throw errors.notFound('Audit event');
    return event;
  }

  /** Who read or changed one record, among the events the caller may read; newest first. */
  async resourceTrail(
    ctx: SubgraphContext,
    resourceType: string,
    resourceId: string,
    args: AuditTrailArgs,
  ): Promise<PageResult<AuditEvent>> {
    const viewer = requireUser(ctx.viewer);
    const issues: FieldIssue[] = [];
    if (!RESOURCE_TYPE.test(resourceType))
      issues.push({ field: 'resourceType', message: 'must be snake_case letters, digits and underscores, such as clinical_note' });
    if (!resourceId || resourceId.length > 200) issues.push({ field: 'resourceId', message: 'must be 1 to 200 characters' });
    if (issues.length) throw errors.validation(issues);
    return this.page(ctx, [visible(viewer), { resourceType }, auditOfResource(resourceId), timeRange(args)], args);
  }

  /** What one user did: the caller's own trail, or anyone's for administrators (an organization's: within it). */
  async userTrail(ctx: SubgraphContext, userId: string, args: AuditTrailArgs): Promise<PageResult<AuditEvent>> {
    const viewer = requireUser(ctx.viewer);
    checkIds([['userId', userId]]);
    let scope: FilterQuery<AuditEvent>;
    if (userId === viewer.userId || isPlatformAdmin(viewer)) scope = {};
    else {
      const orgs = organizationsWith(viewer, 'audit:read') ?? [];
      if (!orgs.length) throw errors.forbidden("Only administrators read another user's audit trail");
      scope = { organizationId: { $in: orgs } };
    }
    return this.page(ctx, [scope, { actorId: userId }, timeRange(args)], args);
  }

  /** Events the caller may read, by actor, action, record, patient, organization and time; newest first. */
  async search(ctx: SubgraphContext, args: AuditSearchArgs): Promise<PageResult<AuditEvent>> {
    const viewer = requireUser(ctx.viewer);
    checkIds([
      ['actorId', args.actorId],
      ['patientId', args.patientId],
      ['organizationId', args.organizationId],
    ]);
    const filters: FilterQuery<AuditEvent> = {
      ...(args.actorId ? { actorId: args.actorId } : {}),
      ...(args.action ? { action: args.action } : {}),
      ...(args.resourceType ? { resourceType: args.resourceType } : {}),
      ...(args.organizationId ? { organizationId: args.organizationId } : {}),
    };
    // A list read is one event naming its records and patients: a record or patient matches it too.
    const named = [
      ...(args.resourceId ? [auditOfResource(args.resourceId)] : []),
      ...(args.patientId ? [auditOfPatient(args.patientId)] : []),
    ];
    return this.page(ctx, [visible(viewer), filters, ...named, timeRange(args)], args);
  }

  private async page(ctx: SubgraphContext, where: FilterQuery<AuditEvent>[], args: AuditTrailArgs): Promise<PageResult<AuditEvent>> {
    await flushAudit(ctx.em);
    return paginate(ctx.em, AuditEvent, { $and: where }, args, NEWEST_FIRST);
  }
}
