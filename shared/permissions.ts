import { errors } from './errors';
import { isPlatformAdmin, membershipRole, membershipRoles, type Viewer } from './viewer';

/**
 * Organization roles. A member holds one or more of these in each organization they belong to (the first is their
 * primary role); a permission held by any of them is held.
 * Platform roles (`SUPER:ADMIN`, `APP:ADMIN`) live on the user and pass every organization check.
 */
export const ORG_ROLES = [
  'ORG:ADMIN',
  'ORG:DOCTOR',
  'ORG:NURSE',
  'ORG:PHARMACIST',
  'ORG:LAB_TECHNICIAN',
  'ORG:RECEPTIONIST',
  'ORG:BILLING',
  'ORG:STAFF',
] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

const CLINICIANS: OrgRole[] = ['ORG:ADMIN', 'ORG:DOCTOR', 'ORG:NURSE'];
const EVERY_MEMBER: OrgRole[] = [...ORG_ROLES];
/** Who may read clinical data (minimum necessary: not billing, reception or general staff). */
const CLINICAL_READERS: OrgRole[] = ['ORG:ADMIN', 'ORG:DOCTOR', 'ORG:NURSE', 'ORG:PHARMACIST', 'ORG:LAB_TECHNICIAN'];

/**
 * The one permissions table. Each organization permission names the organization roles that hold it and the API
 * key scope that grants it to a developer key of the same organization (none: keys never get it). Platform
 * permissions name platform roles. docs/permissions.md prints both tables.
 */
export const PERMISSIONS = {
  'organizations:read': { roles: EVERY_MEMBER, scope: 'organizations:read' },
  'organizations:update': { roles: ['ORG:ADMIN'], scope: 'organizations:write' },
  'patients:read': { roles: EVERY_MEMBER, scope: 'patients:read' },
  'patients:write': { roles: [...CLINICIANS, 'ORG:RECEPTIONIST'], scope: 'patients:write' },
  'clinical:read': { roles: CLINICAL_READERS, scope: 'clinical:read' },
  'clinical:write': { roles: ['ORG:DOCTOR', 'ORG:NURSE'], scope: 'clinical:write' },
  'lab-results:write': { roles: ['ORG:LAB_TECHNICIAN', 'ORG:ADMIN'], scope: 'lab-results:write' },
  'prescriptions:sign': { roles: ['ORG:DOCTOR'], scope: null },
  'prescriptions:dispense': { roles: ['ORG:PHARMACIST', 'ORG:ADMIN'], scope: null },
  'invoices:read': { roles: ['ORG:ADMIN', 'ORG:BILLING', 'ORG:RECEPTIONIST'], scope: 'invoices:read' },
  'invoices:write': { roles: ['ORG:ADMIN', 'ORG:BILLING'], scope: 'invoices:write' },
  /** Payments the organization received (recorded at the desk, mobile money, payers' remittances). */
  'payments:read': { roles: ['ORG:ADMIN', 'ORG:BILLING', 'ORG:RECEPTIONIST'], scope: 'payments:read' },
  'payments:write': { roles: ['ORG:ADMIN', 'ORG:BILLING', 'ORG:RECEPTIONIST'], scope: 'payments:write' },
  /** Insurance claims (they carry diagnoses), their analytics, fraud flags and reconciliation. */
  'claims:read': { roles: ['ORG:ADMIN', 'ORG:BILLING'], scope: 'claims:read' },
  'claims:write': { roles: ['ORG:ADMIN', 'ORG:BILLING'], scope: 'claims:write' },
  /** Insurance policies of the organization's patients; enrolling them in plans. */
  'insurance:read': { roles: ['ORG:ADMIN', 'ORG:BILLING', 'ORG:RECEPTIONIST'], scope: 'insurance:read' },
  'insurance:write': { roles: ['ORG:ADMIN', 'ORG:BILLING', 'ORG:RECEPTIONIST'], scope: 'insurance:write' },
  'api-keys:manage': { roles: ['ORG:ADMIN'], scope: null },
  /** Data subject requests executed by the organization (the patient and platform administrators may too). */
  'patients:erase': { roles: ['ORG:ADMIN'], scope: null },
  'patients:export': { roles: ['ORG:ADMIN'], scope: null },
  /** Roles of members, removing members, invitations. */
  'members:manage': { roles: ['ORG:ADMIN'], scope: null },
  /** Diagnostic reports are signed (made final) by a doctor; outside any organization, a user registered as DOCTOR. */
  'reports:sign': { roles: ['ORG:DOCTOR'], scope: null },
  'rooms:write': { roles: ['ORG:ADMIN'], scope: 'rooms:write' },
  'admissions:read': { roles: [...CLINICAL_READERS, 'ORG:RECEPTIONIST'], scope: 'admissions:read' },
  'admissions:write': { roles: [...CLINICIANS, 'ORG:RECEPTIONIST'], scope: 'admissions:write' },
  /** Schedulable resources and their schedules. */
  'scheduling:read': { roles: EVERY_MEMBER, scope: 'scheduling:read' },
  'scheduling:write': { roles: ['ORG:ADMIN', 'ORG:RECEPTIONIST'], scope: 'scheduling:write' },
  /** Appointments of the organization: list, status, reschedule, cancel, appointment requests. */
  'appointments:read': { roles: [...CLINICIANS, 'ORG:RECEPTIONIST'], scope: 'appointments:read' },
  'appointments:write': { roles: [...CLINICIANS, 'ORG:RECEPTIONIST'], scope: 'appointments:write' },
  'leave:approve': { roles: ['ORG:ADMIN'], scope: null },
  /** The organization's audit trail of patient data: who read or changed what (everyone reads their own actions). */
  'audit:read': { roles: ['ORG:ADMIN'], scope: null },
  /** Edge devices running AI models: register them, and their heartbeats (a device's own key holds the scope). */
  'ai-devices:manage': { roles: ['ORG:ADMIN'], scope: 'ai-devices:write' },
  /** Supply marketplace: a facility's stock, its purchase orders and the orders patients place with it. */
  'inventory:read': { roles: ['ORG:ADMIN', 'ORG:PHARMACIST', 'ORG:DOCTOR', 'ORG:NURSE', 'ORG:STAFF'], scope: 'inventory:read' },
  'inventory:write': { roles: ['ORG:ADMIN', 'ORG:PHARMACIST'], scope: 'inventory:write' },
  'purchase-orders:approve': { roles: ['ORG:ADMIN'], scope: null },
  'supply-orders:read': { roles: ['ORG:ADMIN', 'ORG:PHARMACIST', 'ORG:STAFF', 'ORG:BILLING'], scope: 'supply-orders:read' },
  'supply-orders:write': { roles: ['ORG:ADMIN', 'ORG:PHARMACIST', 'ORG:STAFF'], scope: 'supply-orders:write' },
  'supply-orders:verify': { roles: ['ORG:PHARMACIST'], scope: null },
  /** Treatment protocols of the organization: create, revise, retire. */
  'protocols:write': { roles: ['ORG:ADMIN', 'ORG:DOCTOR'], scope: null },
  /** Feedback about the organization: list, read, triage, resolve. */
  'feedback:manage': { roles: ['ORG:ADMIN'], scope: null },
  /** Rosters: members, shift types, coverage requirements and published rosters; one's own swaps. */
  'workforce:read': { roles: EVERY_MEMBER, scope: 'workforce:read' },
  /** Rosters: create, generate, approve, publish; members and shift types; swaps for staff without an account; fairness. */
  'workforce:manage': { roles: ['ORG:ADMIN'], scope: null },
  /** Courses and assessments, enrolling others, awarding CME credits, everyone's training records. */
  'training:manage': { roles: ['ORG:ADMIN'], scope: null },
} satisfies Record<string, { roles: OrgRole[]; scope: string | null }>;

export type Permission = keyof typeof PERMISSIONS;

export const PLATFORM_PERMISSIONS = {
  'admin:users': ['SUPER:ADMIN'],
  'admin:health': ['SUPER:ADMIN'],
  'admin:security-events': ['SUPER:ADMIN', 'APP:ADMIN'],
  'admin:dlq': ['SUPER:ADMIN', 'APP:ADMIN'],
  'admin:queues': ['SUPER:ADMIN', 'APP:ADMIN'],
  'admin:organizations': ['SUPER:ADMIN', 'APP:ADMIN'],
  'admin:doctors': ['SUPER:ADMIN', 'APP:ADMIN'],
  /** The drug interaction knowledge decision support checks against. */
  'cds:knowledge': ['SUPER:ADMIN', 'APP:ADMIN'],
  /** The registry of AI models (built-in and external). */
  'ai:models': ['SUPER:ADMIN', 'APP:ADMIN'],
  'marketplace:catalog': ['SUPER:ADMIN', 'APP:ADMIN'],
  'admin:insurance': ['SUPER:ADMIN', 'APP:ADMIN'],
  /** Public health across organizations: dashboard, aggregate reports (export, push), all feedback. */
  'public-health': ['SUPER:ADMIN', 'APP:ADMIN'],
  /** The master patient index: matching, links, candidate review (SPEC restricts it to these two roles). */
  'mpi:manage': ['SUPER:ADMIN', 'APP:ADMIN'],
} satisfies Record<string, readonly string[]>;

export type PlatformPermission = keyof typeof PLATFORM_PERMISSIONS;

/** Every scope an API key may hold: `<resource>:<read|write>` for the resources above. */
export const API_KEY_SCOPES: readonly string[] = [...new Set(Object.values(PERMISSIONS).flatMap((p) => (p.scope ? [p.scope] : [])))].sort();

/** Whether the viewer may use `permission` inside `organizationId`. */
export function can(viewer: Viewer | undefined, permission: Permission, organizationId: string): boolean {
  if (!viewer) return false;
  const rule = PERMISSIONS[permission];
  if (viewer.apiKey) {
    return !!rule.scope && viewer.apiKey.organizationId === organizationId && viewer.apiKey.scopes.includes(rule.scope);
  }
  if (isPlatformAdmin(viewer)) return true;
  return membershipRoles(viewer, organizationId).some((role) => (rule.roles as readonly string[]).includes(role));
}

/** The organizations where the viewer holds `permission`; null for platform administrators, who hold it in every one. */
export function organizationsWith(viewer: Viewer, permission: Permission): string[] | null {
  if (viewer.apiKey) return can(viewer, permission, viewer.apiKey.organizationId) ? [viewer.apiKey.organizationId] : [];
  if (isPlatformAdmin(viewer)) return null;
  return viewer.memberships.filter((m) => can(viewer, permission, m.organizationId)).map((m) => m.organizationId);
}

/** Whether the viewer belongs to the organization at all (or is a platform admin). */
export function canSeeOrganization(viewer: Viewer | undefined, organizationId: string): boolean {
  if (!viewer) return false;
  if (viewer.apiKey) return viewer.apiKey.organizationId === organizationId;
  return isPlatformAdmin(viewer) || !!membershipRole(viewer, organizationId);
}

export function requireViewer(viewer: Viewer | undefined): Viewer {
  if (!viewer) throw errors.unauthorized();
  return viewer;
}

/** Only people (not API keys) may act here. */
export function requireUser(viewer: Viewer | undefined): Viewer {
  const v = requireViewer(viewer);
  if (v.apiKey || v.system) throw errors.forbidden('This operation is not available to API keys');
  return v;
}

/** Whether the viewer is a person (not an API key) holding a platform permission. */
export function hasPlatformPermission(viewer: Viewer | undefined, permission: PlatformPermission): boolean {
  const roles: readonly string[] = PLATFORM_PERMISSIONS[permission];
  return !!viewer && !viewer.apiKey && !viewer.system && viewer.roles.some((r) => roles.includes(r));
}

/** A platform permission: 401 without credentials, 403 for any other role (and for API keys). */
export function requirePlatformPermission(viewer: Viewer | undefined, permission: PlatformPermission): Viewer {
  const v = requireUser(viewer);
  if (!hasPlatformPermission(v, permission)) throw errors.forbidden('This needs an administrator role');
  return v;
}

/** Whether `requireOrgPermission` lets the viewer through (the same rule, without the error). */
export function holdsOrgPermission(viewer: Viewer, organizationId: string, permission: Permission): boolean {
  return canSeeOrganization(viewer, organizationId) && can(viewer, permission, organizationId);
}

/**
 * Checks an organization-scoped permission. An outsider learns nothing (404 naming `hiddenAs`); a member whose
 * role lacks the permission is told so (403).
 */
export function requireOrgPermission(
  viewer: Viewer | undefined,
  organizationId: string,
  permission: Permission,
  hiddenAs = 'Organization',
): Viewer {
  const v = requireViewer(viewer);
  if (!canSeeOrganization(v, organizationId)) throw errors.notFound(hiddenAs);
  if (!can(v, permission, organizationId)) throw errors.forbidden();
  return v;
}
