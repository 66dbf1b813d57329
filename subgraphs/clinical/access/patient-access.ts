import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { byIds, isUuid } from '../../../shared/model';
import { can, requireViewer, type Permission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { Consent, ConsentStatus } from '../consent/consent.entity';
import { Patient } from '../patients/patient.entity';

/**
 * Who may see or change a patient's data, for every clinical module. A caller may read when they are a platform
 * administrator, the patient, a member of the patient's organization holding `permission`, the creator of a
 * patient outside any organization, or a clinician (or organization) with an active, unexpired consent from the
 * patient. Consent is looked up on every request, so a revocation applies to the next read. Anyone else is told
 * the patient does not exist.
 */
type Basis = 'admin' | 'self' | 'organization' | 'creator' | 'consent';

function directBasis(viewer: Viewer, p: Patient, permission: Permission): Basis | null {
  if (p.organizationId && can(viewer, permission, p.organizationId)) return 'organization';
  if (viewer.apiKey || viewer.system) return null;
  if (isPlatformAdmin(viewer)) return 'admin';
  if (p.userId && p.userId === viewer.userId) return 'self';
  if (!p.organizationId && p.createdBy === viewer.userId) return 'creator';
  return null;
}

/**
 * Consents in force for the viewer, batched per request by patient id. A consent to an organization reaches its
 * members who hold `permission` there: one to share clinical data reaches its clinical roles, not its front desk.
 */
function consentLoader(ctx: SubgraphContext, viewer: Viewer, permission: Permission) {
  return ctx.loader<string, boolean>(`active-consent:${permission}`, async (patientIds) => {
    const orgs = viewer.memberships.map((m) => m.organizationId).filter((o) => can(viewer, permission, o));
    const now = clock.now();
    const rows = await ctx.em.find(
      Consent,
      {
        patientId: { $in: [...patientIds] },
        status: ConsentStatus.active,
        $and: [
          { $or: [{ granteeUserId: viewer.userId }, ...(orgs.length ? [{ granteeOrganizationId: { $in: orgs } }] : [])] },
          { $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
        ],
      },
      { fields: ['patientId'] },
    );
    const granted = new Set(rows.map((r) => r.patientId));
    return patientIds.map((id) => granted.has(id));
  });
}

export async function accessBasis(ctx: SubgraphContext, patient: Patient, permission: Permission): Promise<Basis | null> {
  const viewer = ctx.viewer;
  if (!viewer) return null;
  const direct = directBasis(viewer, patient, permission);
  if (direct) return direct;
  if (viewer.apiKey || viewer.system) return null;
  return (await consentLoader(ctx, viewer, permission).load(patient.id)) ? 'consent' : null;
}

export function loadPatient(ctx: SubgraphContext, id: string): Promise<Patient | null> {
  return isUuid(id) ? ctx.loader<string, Patient>('patient', byIds(ctx.em, Patient)).load(id) : Promise.resolve(null);
}

/** The patient, when the caller may read its data under `permission` (default: clinical data); 404 otherwise. */
export async function readablePatient(ctx: SubgraphContext, patientId: string, permission: Permission = 'clinical:read'): Promise<Patient> {
  requireViewer(ctx.viewer);
  const patient = await loadPatient(ctx, patientId);
  if (!patient || !(await accessBasis(ctx, patient, permission))) {
    // A member of the organization who lacks the permission learns it exists, and why they are refused.
    if (patient?.organizationId && ctx.viewer!.memberships.some((m) => m.organizationId === patient.organizationId)) {
      throw errors.forbidden();
    }
    throw errors.notFound('Patient');
  }
  return patient;
}

/**
 * The patient, when the caller may change its data under `permission` (default: clinical data). Consent never
 * grants writes. `allowSelf` lets the patient change their own (allergies, journey events).
 */
export async function writablePatient(
  ctx: SubgraphContext,
  patientId: string,
  opts: { permission?: Permission; allowSelf?: boolean } = {},
): Promise<Patient> {
  const permission = opts.permission ?? 'clinical:write';
  const patient = await readablePatient(ctx, patientId, permission === 'clinical:write' ? 'clinical:read' : permission);
  const basis = directBasis(ctx.viewer!, patient, permission);
  if (!basis || (basis === 'self' && !opts.allowSelf)) throw errors.forbidden();
  return patient;
}
