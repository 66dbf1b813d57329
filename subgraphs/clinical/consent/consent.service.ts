import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { keysetConnection, windowOf, type Connection, type ConnectionArgs, type KeysetScope } from '../../../shared/connection';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { can, requireUser } from '../../../shared/permissions';
import { organizationStatus } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, membershipRole, type Viewer } from '../../../shared/viewer';
import { loadPatient } from '../access/patient-access';
import { patientList } from '../access/patient-graph';
import { auditChange, auditRead } from '../../../shared/audit/audit-trail';
import { Patient } from '../patients/patient.entity';
import { CONSENT, Consent, ConsentStatus } from './consent.entity';
import type { ConsentListArgs, GrantConsentInput, RequestConsentInput } from './consent.types';

const RESOURCE = 'consent';

const CONSENT_LIST = patientList(RESOURCE, Consent, { sortColumn: 'created_at' });

/**
 * The consents of a patient a caller who does not decide for the patient is party to (as `consent(id)` has it): given
 * to them or their organizations, or asked for by them.
 */
function partyScope(viewer: Viewer): KeysetScope {
  const orgs = viewer.memberships.map((m) => m.organizationId);
  return {
    sql: `grantee_user_id = ? or requested_by = ?${orgs.length ? ' or grantee_organization_id in (?)' : ''}`,
    params: [viewer.userId, viewer.userId, ...(orgs.length ? [orgs] : [])],
  };
}

/**
 * Who decides for a patient: the patient, or (recording a consent given in person) a clinician of the patient's
 * organization, or a platform administrator.
 */
function decidesFor(viewer: Viewer, patient: Patient): boolean {
  if (patient.userId === viewer.userId || isPlatformAdmin(viewer)) return true;
  return !!patient.organizationId && can(viewer, 'clinical:write', patient.organizationId);
}

export class ConsentService {
  async grant(ctx: SubgraphContext, input: GrantConsentInput): Promise<Consent> {
    const viewer = requireUser(ctx.viewer);
    const patient = await this.patientFor(ctx, viewer, input.patientId);
    if (!decidesFor(viewer, patient)) throw errors.notFound('Patient');
    if (!input.granteeUserId === !input.granteeOrganizationId) {
      throw errors.invalidField('granteeUserId', 'or granteeOrganizationId is required (exactly one)');
    }
    for (const [field, value] of [
      ['granteeUserId', input.granteeUserId],
      ['granteeOrganizationId', input.granteeOrganizationId],
    ] as const) {
      if (value !== undefined && !isUuid(value)) throw errors.invalidField(field, 'must be an id');
    }
    if (input.granteeOrganizationId && !(await organizationStatus(ctx, input.granteeOrganizationId))) {
      throw errors.invalidField('granteeOrganizationId', 'must be an existing organization');
    }
    this.checkExpiry(input.expiresAt);
    const consent = ctx.em.create(Consent, {
      patientId: patient.id,
      granteeUserId: input.granteeUserId ?? null,
      granteeOrganizationId: input.granteeOrganizationId ?? null,
      status: ConsentStatus.active,
      purpose: input.purpose?.trim() ?? null,
      expiresAt: input.expiresAt ?? null,
      grantedAt: clock.now(),
    });
    this.audit(ctx, 'grant', consent);
    await ctx.em.flush();
    return consent;
  }

  /** A clinician asks a patient for access, for themselves or their organization; the patient then approves. */
  async request(ctx: SubgraphContext, input: RequestConsentInput): Promise<Consent> {
    const viewer = requireUser(ctx.viewer);
    if (input.granteeOrganizationId && !membershipRole(viewer, input.granteeOrganizationId)) {
      throw errors.invalidField('granteeOrganizationId', 'must be an organization you belong to');
    }
    this.checkExpiry(input.expiresAt);
    // A request for a patient id that names nobody is answered as one for a real patient of another organization:
    // asking must not tell whether a patient exists. Such a request simply never gets an answer.
    const consent = ctx.em.create(Consent, {
      patientId: input.patientId,
      granteeUserId: input.granteeOrganizationId ? null : viewer.userId,
      granteeOrganizationId: input.granteeOrganizationId ?? null,
      status: ConsentStatus.requested,
      purpose: input.purpose?.trim() ?? null,
      expiresAt: input.expiresAt ?? null,
      requestedBy: viewer.userId,
    });
    this.audit(ctx, 'request', consent);
    await ctx.em.flush();
    return consent;
  }

  async approve(ctx: SubgraphContext, id: string): Promise<Consent> {
    const { consent, patient } = await this.visible(ctx, id);
    if (!decidesFor(ctx.viewer!, patient)) throw errors.forbidden('Only the patient (or their clinicians) can approve');
    consent.status = CONSENT.next(consent.status, 'approve');
    consent.grantedAt = clock.now();
    this.audit(ctx, 'approve', consent);
    await ctx.em.flush();
    return consent;
  }

  /** The patient withdraws it, or the grantee or requester gives it up; it stops working at once. */
  async revoke(ctx: SubgraphContext, id: string): Promise<Consent> {
    const { consent } = await this.visible(ctx, id);
    consent.status = CONSENT.next(consent.status, 'revoke');
    consent.revokedAt = clock.now();
    this.audit(ctx, 'revoke', consent);
    await ctx.em.flush();
    return consent;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Consent> {
    const { consent } = await this.visible(ctx, id);
    auditRead(ctx, { action: 'read', resourceType: RESOURCE, resourceId: consent.id, patientId: consent.patientId });
    return consent;
  }

  /** Consents about the caller as a patient, given to them, or asked for by them. */
  async mine(ctx: SubgraphContext, args: ConsentListArgs): Promise<PageResult<Consent>> {
    const viewer = requireUser(ctx.viewer);
    const own = await ctx.em.find(Patient, { userId: viewer.userId }, { fields: ['id'] });
    const orgs = viewer.memberships.map((m) => m.organizationId);
    const where: FilterQuery<Consent> = {
      $or: [
        ...(own.length ? [{ patientId: { $in: own.map((p) => p.id) } }] : []),
        { granteeUserId: viewer.userId },
        { requestedBy: viewer.userId },
        ...(orgs.length ? [{ granteeOrganizationId: { $in: orgs } }] : []),
      ],
    };
    if (args.status) where.status = args.status;
    return paginate(ctx.em, Consent, where, args);
  }

  /**
   * `patient { consents }`: every consent for whoever decides for the patient, otherwise those the caller is party to
   * (the rule of `consent(id)`); people only (API keys: FORBIDDEN). Batched across patients.
   */
  async forPatient(ctx: SubgraphContext, patient: Patient, args: ConnectionArgs): Promise<Connection<Consent>> {
    windowOf(args);
    const viewer = requireUser(ctx.viewer);
    const connection = await keysetConnection(
      ctx,
      CONSENT_LIST,
      patient.id,
      args,
      decidesFor(viewer, patient) ? undefined : partyScope(viewer),
    );
    auditRead(ctx, { action: 'list', resourceType: RESOURCE, patientId: patient.id, organizationId: patient.organizationId });
    return connection;
  }

  /** The consent and its patient, when the caller is party to it; 404 otherwise. */
  private async visible(ctx: SubgraphContext, id: string): Promise<{ consent: Consent; patient: Patient }> {
    const viewer = requireUser(ctx.viewer);
    const consent = isUuid(id) ? await ctx.em.findOne(Consent, { id }) : null;
    const patient = consent ? await loadPatient(ctx, consent.patientId) : null;
    const party =
      !!consent &&
      !!patient &&
      (decidesFor(viewer, patient) ||
        consent.granteeUserId === viewer.userId ||
        consent.requestedBy === viewer.userId ||
        (!!consent.granteeOrganizationId && !!membershipRole(viewer, consent.granteeOrganizationId)));
    if (!party) throw errors.notFound('Consent');
    return { consent: consent!, patient: patient! };
  }

  private async patientFor(ctx: SubgraphContext, viewer: Viewer, patientId?: string): Promise<Patient> {
    const patient = patientId
      ? await loadPatient(ctx, patientId)
      : await ctx.em.findOne(Patient, { userId: viewer.userId }, { orderBy: { createdAt: 'asc' } });
    if (!patient)
      throw patientId ? errors.notFound('Patient') : errors.invalidField('patientId', 'is required: you have no patient profile');
    return patient;
  }

  private checkExpiry(expiresAt?: Date): void {
    if (expiresAt && expiresAt.getTime() <= clock.nowMs()) throw errors.invalidField('expiresAt', 'must be in the future');
  }

  private audit(ctx: SubgraphContext, action: string, consent: Consent): void {
    auditChange(ctx, {
      action,
      resourceType: RESOURCE,
      resourceId: consent.id,
      patientId: consent.patientId,
      details: { grantee_user_id: consent.granteeUserId, grantee_organization_id: consent.granteeOrganizationId, status: consent.status },
    });
  }
}
