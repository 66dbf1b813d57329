import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { byIds, changedKeys, isUuid, paginate, patchFrom, type PageArgs, type PageResult } from '../../../shared/model';
import { normalizeAmount } from '../../../shared/money';
import {
  can,
  canSeeOrganization,
  hasPlatformPermission,
  requirePlatformPermission,
  requireUser,
  requireViewer,
} from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { sendMail } from '../mail/send-mail';
import { Organization, OrganizationMember, OrganizationStatus } from '../organizations/organization.entity';
import { forgetUser } from '../users/identity';
import { User } from '../users/user.entity';
import { DoctorOrganization, DoctorProfile, DoctorVerification, doctorVerification, licenseKey, specialtyKey } from './doctor.entity';
import type {
  CreateDoctorInput,
  DoctorSearchArgs,
  JoinOrganizationInput,
  OrganizationDoctorsArgs,
  UpdateDoctorInput,
  VerifyDoctorInput,
  VerifyDecision,
} from './doctor.types';
import { lockedChange } from '../../../shared/locked-change';

const WHAT = 'Doctor';
/** Directory order: by name, then id so pages never overlap. */
const BY_NAME = { lastName: 'asc', firstName: 'asc', id: 'asc' } as const;
const DEFAULT_JOIN_ROLE = 'ORG:DOCTOR';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
const emptyPage = (args: PageArgs): PageResult<DoctorProfile> => ({ items: [], total: 0, page: args.page, limit: args.limit });

/** A person (not an API key) acting on their own profile. */
const isOwner = (viewer: Viewer | undefined, doctor: DoctorProfile) =>
  !!viewer && !viewer.apiKey && !viewer.system && viewer.userId === doctor.userId;

/** Holders of `admin:doctors`: they verify profiles and see and change everyone's. */
const isDoctorAdmin = (viewer: Viewer | undefined) => hasPlatformPermission(viewer, 'admin:doctors');

/**
 * A profile is public by id while approved or pending (its `verification_status` says which; only approved ones are
 * listed in search); a rejected one only its owner and administrators see.
 */
const canSeeProfile = (viewer: Viewer | undefined, doctor: DoctorProfile) =>
  doctor.verificationStatus !== DoctorVerification.rejected || isOwner(viewer, doctor) || isDoctorAdmin(viewer);

/** Text fields kept trimmed; blank is refused by validation before this. */
const TEXT_FIELDS = ['firstName', 'lastName', 'title', 'specialty', 'licenseNumber', 'bio', 'city'] as const;

function tidy<T extends object>(fields: T): T {
  const out = { ...fields } as Record<string, unknown>;
  for (const k of TEXT_FIELDS) if (typeof out[k] === 'string') out[k] = (out[k] as string).trim();
  for (const k of ['subSpecialties', 'languages'] as const) {
    // A list sent as null is cleared; entries are trimmed and repeated ones dropped (any letter case).
    if (out[k] === null) out[k] = [];
    else if (Array.isArray(out[k])) out[k] = uniqueTexts(out[k] as string[]);
  }
  return out as T;
}

function uniqueTexts(values: string[]): string[] {
  const seen = new Set<string>();
  return values.map((v) => v.trim()).filter((v) => !seen.has(v.toLowerCase()) && seen.add(v.toLowerCase()));
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export class DoctorService {
  /** The public directory: approved doctors only, filtered by name, specialty, organization and place. */
  async search(ctx: SubgraphContext, args: DoctorSearchArgs): Promise<PageResult<DoctorProfile>> {
    const where: Record<string, unknown> = { verificationStatus: DoctorVerification.approved };
    const words = [args.q, args.name]
      .filter((t): t is string => !!t)
      .join(' ')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    if (words.length) {
      where.$and = words.map((w) => ({
        $or: [{ firstName: { $ilike: `%${escapeLike(w)}%` } }, { lastName: { $ilike: `%${escapeLike(w)}%` } }],
      }));
    }
    const specialty = args.specialty ? specialtyKey(args.specialty) : '';
    if (specialty) where.specialtyKey = specialty;
    const city = args.city?.trim();
    if (city) where.city = { $ilike: escapeLike(city) };
    if (args.country) where.country = args.country;
    const and = (where.$and ??= []) as unknown[];
    if (args.organizationId) {
      if (!isUuid(args.organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
      and.push({ organizationLinks: { organization: args.organizationId } });
    }
    const organization = args.organization?.trim();
    if (organization) {
      and.push({
        organizationLinks: {
          organization: isUuid(organization) ? organization : { name: { $ilike: `%${escapeLike(organization)}%` } },
        },
      });
    }
    const location = args.location?.trim();
    if (location) {
      const like = { $ilike: `%${escapeLike(location)}%` };
      and.push({
        $or: [
          { city: like },
          ...(/^[a-z]{2}$/i.test(location) ? [{ country: location.toUpperCase() }] : []),
          { organizationLinks: { organization: { $or: [{ city: like }, { address: like }] } } },
        ],
      });
    }
    if (!and.length) delete where.$and;
    return paginate(ctx.em, DoctorProfile, where as FilterQuery<DoctorProfile>, args, BY_NAME);
  }

  async get(ctx: SubgraphContext, id: string): Promise<DoctorProfile> {
    const doctor = isUuid(id) ? await this.load(ctx, id) : null;
    if (!doctor || !canSeeProfile(ctx.viewer, doctor)) throw errors.notFound(WHAT);
    return doctor;
  }

  /** For references from other subgraphs: a profile the caller may not see resolves to null. */
  async reference(ctx: SubgraphContext, id: string): Promise<DoctorProfile | null> {
    const doctor = isUuid(id) ? await this.load(ctx, id) : null;
    return doctor && canSeeProfile(ctx.viewer, doctor) ? doctor : null;
  }

  async mine(ctx: SubgraphContext): Promise<DoctorProfile> {
    const viewer = requireUser(ctx.viewer);
    const doctor = await ctx.em.findOne(DoctorProfile, { userId: viewer.userId });
    if (!doctor) throw errors.notFound('Doctor profile');
    return doctor;
  }

  /**
   * Creates the caller's own profile (anyone signed in, whatever their registration role), or, for an
   * administrator passing `userId`, someone else's. It starts pending verification.
   */
  async create(ctx: SubgraphContext, input: CreateDoctorInput): Promise<DoctorProfile> {
    const viewer = requireUser(ctx.viewer);
    const { userId: requested, ...rest } = tidy(input);
    let userId = viewer.userId;
    if (requested !== undefined && requested !== null && requested !== viewer.userId) {
      if (!isDoctorAdmin(viewer)) throw errors.forbidden('Only administrators create doctor profiles for other people');
      userId = requested;
    }
    const user = isUuid(userId) ? await ctx.em.findOne(User, { id: userId }) : null;
    if (!user) throw errors.notFound('User');
    // Registering as DOCTOR leaves a profile stub (no specialty, no license yet) that this call completes; a
    // profile someone already filled in is a 409.
    const existing = await ctx.em.findOne(DoctorProfile, { userId });
    if (existing && (existing.specialty || existing.licenseKey)) {
      throw errors.duplicate(userId === viewer.userId ? 'You already have a doctor profile' : 'This user already has a doctor profile');
    }
    rest.consultationFee = this.fee(rest.consultationFee, rest.currency, 'consultationFee') ?? undefined;
    const key = licenseKey(rest.licenseNumber, rest.licenseCountry);
    await this.checkLicense(ctx, key, existing?.id ?? null);
    if (existing) {
      ctx.em.assign(existing, {
        ...rest,
        firstName: rest.firstName ?? existing.firstName,
        lastName: rest.lastName ?? existing.lastName,
        specialtyKey: specialtyKey(rest.specialty),
        licenseKey: key,
        subSpecialties: rest.subSpecialties ?? [],
        languages: rest.languages ?? [],
      });
      await ctx.em.flush();
      return existing;
    }
    const doctor = ctx.em.create(DoctorProfile, {
      ...rest,
      userId,
      email: user.email,
      firstName: rest.firstName ?? user.firstName,
      lastName: rest.lastName ?? user.lastName,
      specialtyKey: specialtyKey(rest.specialty),
      licenseKey: key,
      subSpecialties: rest.subSpecialties ?? [],
      languages: rest.languages ?? [],
    });
    await ctx.em.flush();
    return doctor;
  }

  /**
   * The owner or an administrator changes a profile; anyone else who can see it gets 403, others 404. The owner's
   * change to a rejected profile resubmits it, and a new license (number or country) on an approved profile needs
   * verification again: both go back to pending.
   */
  async update(ctx: SubgraphContext, id: string, input: UpdateDoctorInput): Promise<DoctorProfile> {
    requireViewer(ctx.viewer);
    const found = await this.get(ctx, id);
    const owner = isOwner(ctx.viewer, found);
    if (!owner && !isDoctorAdmin(ctx.viewer)) throw errors.forbidden('Only the doctor or an administrator may change this profile');
    const patch = tidy(patchFrom(input, ['firstName', 'lastName', 'specialty', 'licenseNumber'])) as Partial<DoctorProfile>;
    return this.locked(ctx, found.id, async (em, doctor) => {
      // The fee is written with its currency's decimals, so a new currency rewrites the fee it has ("2500.00" KES
      // becomes "2500" UGX) or is refused when the fee does not fit it.
      if (patch.consultationFee !== undefined || patch.currency !== undefined) {
        const fee = patch.consultationFee === undefined ? doctor.consultationFee : patch.consultationFee;
        const currency = patch.currency === undefined ? doctor.currency : patch.currency;
        const field = patch.consultationFee === undefined ? 'currency' : 'consultationFee';
        if (fee !== null && fee !== undefined) patch.consultationFee = this.fee(fee, currency, field);
      }
      const changed = changedKeys(doctor, patch).filter((k) => {
        const [before, after] = [doctor[k], patch[k]];
        return !(Array.isArray(before) && Array.isArray(after) && sameList(before, after));
      });
      if (!changed.length) return;
      const after = { ...doctor, ...patch } as DoctorProfile;
      const key = licenseKey(after.licenseNumber ?? '', after.licenseCountry);
      const licenseChanged = (changed.includes('licenseNumber') || changed.includes('licenseCountry')) && key !== doctor.licenseKey;
      if (licenseChanged && after.licenseNumber) await this.checkLicense(ctx, key, doctor.id);
      em.assign(doctor, patch);
      if (changed.includes('specialty')) doctor.specialtyKey = after.specialty ? specialtyKey(after.specialty) : null;
      if (licenseChanged) doctor.licenseKey = after.licenseNumber ? key : null;
      const resubmit =
        (owner && doctor.verificationStatus === DoctorVerification.rejected) ||
        (licenseChanged && doctor.verificationStatus === DoctorVerification.approved);
      if (resubmit) {
        doctor.verificationStatus = doctorVerification.next(doctor.verificationStatus, 'resubmit');
        // The verification fields describe the decision on the profile as it is now; there is none yet.
        doctor.verificationReason = null;
        doctor.verifiedAt = null;
        doctor.verifiedBy = null;
      }
    });
  }

  /** Profiles waiting for verification, newest first. */
  async pending(ctx: SubgraphContext, args: PageArgs): Promise<PageResult<DoctorProfile>> {
    requirePlatformPermission(ctx.viewer, 'admin:doctors');
    return paginate(ctx.em, DoctorProfile, { verificationStatus: DoctorVerification.pending }, args, { createdAt: 'desc', id: 'desc' });
  }

  /** An administrator approves or rejects a pending profile (a rejection needs a reason); the doctor is mailed. */
  async verify(ctx: SubgraphContext, id: string, input: VerifyDoctorInput): Promise<DoctorProfile> {
    const viewer = requirePlatformPermission(ctx.viewer, 'admin:doctors');
    const decision = input.decision as VerifyDecision | undefined;
    if (!decision) throw errors.invalidField('decision', 'is required: approve or reject');
    const reason = input.reason?.trim() || null;
    if (decision === 'reject' && !reason) throw errors.invalidField('reason', 'is required when rejecting');
    if (!isUuid(id) || !(await this.load(ctx, id))) throw errors.notFound(WHAT);
    const doctor = await this.locked(ctx, id, (_em, row) => {
      row.verificationStatus = doctorVerification.next(row.verificationStatus, decision);
      row.verificationReason = reason;
      row.verifiedAt = clock.now();
      row.verifiedBy = viewer.userId;
    });
    const approved = doctor.verificationStatus === DoctorVerification.approved;
    await sendMail(ctx.em, {
      to: doctor.email,
      subject: approved ? 'Your doctor profile is approved' : 'Your doctor profile was not approved',
      text: approved
        ? `Your doctor profile has been verified and is now listed in the directory.${reason ? `\n\n${reason}` : ''}`
        : `Your doctor profile was not approved: ${reason}\n\nYou can correct your profile; the change sends it for verification again.`,
      template: 'doctor_verification',
      data: { decision, ...(reason ? { reason } : {}) },
    });
    return doctor;
  }

  /**
   * Links a doctor to an organization. Its ORG:ADMIN (`members:manage`) or a platform administrator adds the doctor
   * as a member when they are not one yet (`svc.organization.member_added` in the same flush); the doctor may link
   * themselves only to an organization they already belong to. Only approved doctors join.
   */
  async join(ctx: SubgraphContext, id: string, input: JoinOrganizationInput): Promise<DoctorProfile> {
    const viewer = requireUser(ctx.viewer);
    const doctor = await this.get(ctx, id);
    const org = isUuid(input.organizationId) ? await ctx.em.findOne(Organization, { id: input.organizationId }) : null;
    if (!org || !(org.status === OrganizationStatus.active || canSeeOrganization(viewer, org.id))) throw errors.notFound('Organization');
    const membership = await ctx.em.findOne(OrganizationMember, { organization: org.id, user: doctor.userId });
    if (!isOwner(viewer, doctor) && !can(viewer, 'members:manage', org.id)) {
      throw errors.forbidden("Only the doctor, or the organization's administrators, link a doctor to it");
    }
    // Joining is the doctor's own act: membership comes from an invitation they accepted (or an organization they
    // created). Nobody attaches a doctor who did not agree, nor learns their private contact fields that way.
    if (!membership) {
      throw errors.forbidden(
        'The doctor is not a member of this organization: invite them (POST /api/organizations/:org_id/invitations); they join when they accept',
      );
    }
    // Like an invitation, joining does not wait for verification; a rejected profile cannot join.
    if (doctor.verificationStatus === DoctorVerification.rejected) {
      throw errors.conflict('A rejected doctor profile cannot join an organization');
    }
    if (await ctx.em.count(DoctorOrganization, { doctor: doctor.id, organization: org.id })) {
      throw errors.duplicate('This doctor is already linked to the organization');
    }
    // The membership is kept as it is; the link records the role the doctor holds there.
    ctx.em.create(DoctorOrganization, { doctor, organization: org, role: membership.role });
    await ctx.em.flush();
    return doctor;
  }

  /**
   * Unlinks a doctor from an organization (the doctor, its ORG:ADMIN, or a platform administrator). An ORG:DOCTOR
   * membership goes with the link; any other role stays (administrators leave through member removal). The
   * organization's members see its doctors whatever their verification status, so its ORG:ADMIN may unlink a
   * pending one too.
   */
  async leave(ctx: SubgraphContext, id: string, organizationId: string): Promise<DoctorProfile> {
    const viewer = requireViewer(ctx.viewer);
    const doctor = isUuid(id) ? await this.load(ctx, id) : null;
    if (!doctor) throw errors.notFound(WHAT);
    const self = isOwner(viewer, doctor) || isDoctorAdmin(viewer);
    if (!self && !canSeeOrganization(viewer, organizationId)) throw errors.notFound(canSeeProfile(viewer, doctor) ? 'Organization' : WHAT);
    const link = isUuid(organizationId)
      ? await ctx.em.findOne(DoctorOrganization, { doctor: doctor.id, organization: organizationId })
      : null;
    if (!link) {
      throw self || canSeeProfile(viewer, doctor) ? errors.notFound('Link between this doctor and organization') : errors.notFound(WHAT);
    }
    if (!self && !can(viewer, 'members:manage', organizationId)) throw errors.forbidden();
    ctx.em.remove(link);
    const membership = await ctx.em.findOne(OrganizationMember, { organization: organizationId, user: doctor.userId });
    const dropMembership = membership?.role === DEFAULT_JOIN_ROLE;
    if (membership && dropMembership) ctx.em.remove(membership);
    await ctx.em.flush();
    if (dropMembership) await forgetUser(doctor.userId);
    return doctor;
  }

  /**
   * Doctors linked to an organization. Members see every verification status; anyone else, signed in or not, sees
   * the approved doctors of an active organization (others are 404).
   */
  async listForOrganization(
    ctx: SubgraphContext,
    organizationId: string,
    args: OrganizationDoctorsArgs,
  ): Promise<PageResult<DoctorProfile>> {
    const org = isUuid(organizationId) ? await ctx.em.findOne(Organization, { id: organizationId }) : null;
    const member = canSeeOrganization(ctx.viewer, organizationId);
    if (!org || (!member && org.status !== OrganizationStatus.active)) throw errors.notFound('Organization');
    const status = member ? args.verificationStatus : (args.verificationStatus ?? DoctorVerification.approved);
    if (!member && status !== DoctorVerification.approved) return emptyPage(args);
    const where: FilterQuery<DoctorProfile> = { organizationLinks: { organization: organizationId } };
    if (status) where.verificationStatus = status;
    return paginate(ctx.em, DoctorProfile, where, args, BY_NAME);
  }

  /**
   * Whether the caller sees a profile's contact and license details: the doctor, platform administrators, and
   * members of an organization the doctor is linked to (`organizations:read`, API keys with that scope included).
   */
  async canSeePrivate(ctx: SubgraphContext, doctor: DoctorProfile): Promise<boolean> {
    const viewer = ctx.viewer;
    if (!viewer) return false;
    if (isOwner(viewer, doctor) || isDoctorAdmin(viewer)) return true;
    if (!viewer.apiKey && !viewer.memberships.length) return false;
    const links = await this.links(ctx, doctor.id);
    return links.some((l) => can(viewer, 'organizations:read', l.organization.id));
  }

  /** `Doctor.organizations`: active organizations, and others the caller belongs to. */
  async organizationsOf(ctx: SubgraphContext, doctor: DoctorProfile): Promise<Organization[]> {
    const links = await this.links(ctx, doctor.id);
    return links
      .map((l) => l.organization)
      .filter((org) => org.status === OrganizationStatus.active || canSeeOrganization(ctx.viewer, org.id));
  }

  /** Batched by request: the links (with their organizations) of every doctor in an answer cost one query. */
  async links(ctx: SubgraphContext, doctorId: string): Promise<DoctorOrganization[]> {
    const loader = ctx.loader<string, DoctorOrganization[]>('doctor-organizations', async (ids) => {
      const rows = await ctx.em.find(
        DoctorOrganization,
        { doctor: { $in: [...ids] } },
        { populate: ['organization'], orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      return ids.map((id) => rows.filter((r) => r.doctor.id === id));
    });
    return (await loader.load(doctorId)) ?? [];
  }

  load(ctx: SubgraphContext, id: string): Promise<DoctorProfile | null> {
    return ctx.loader<string, DoctorProfile>('doctor', byIds(ctx.em, DoctorProfile)).load(id);
  }

  /** Applies `change` with the profile locked, so an edit and a verification at the same moment run in turn. */
  private locked(
    ctx: SubgraphContext,
    id: string,
    change: (em: SubgraphContext['em'], row: DoctorProfile) => void | Promise<void>,
  ): Promise<DoctorProfile> {
    return lockedChange(ctx, DoctorProfile, id, (tx, row) => change(tx.em, row));
  }

  /** A consultation fee is an amount in a currency, written with that currency's decimals; `field` is named if it does not fit. */
  private fee(fee: string | null | undefined, currency: string | null | undefined, field: string): string | null {
    if (fee === null || fee === undefined) return null;
    if (!currency) throw errors.invalidField('currency', 'is required with a consultation fee');
    return normalizeAmount(fee, currency, field);
  }

  /** One profile per license and issuing country (spacing and letter case ignored). */
  private async checkLicense(ctx: SubgraphContext, key: string, exceptId: string | null): Promise<void> {
    const where: FilterQuery<DoctorProfile> = { licenseKey: key };
    if (exceptId) where.id = { $ne: exceptId };
    if (await ctx.em.count(DoctorProfile, where)) {
      throw errors.duplicate('A doctor profile with this license number is already registered for this country');
    }
  }
}
