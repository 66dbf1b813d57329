/**
 * The verified caller, built once at the edge (gateway or adapter) and handed to every subgraph.
 */
export interface Membership {
  organizationId: string;
  /** The member's primary role, as the wire has always shown it. */
  role: string;
  /** Every role the member holds (a clinic's founder can be its ORG:ADMIN and its ORG:DOCTOR); `[role]` when absent. */
  roles?: string[];
}

export interface ApiKeyPrincipal {
  id: string;
  organizationId: string;
  scopes: string[];
}

export interface Viewer {
  userId: string;
  sessionId?: string;
  email: string;
  /** Platform roles: `SUPER:ADMIN`, `APP:ADMIN`. */
  roles: string[];
  /** The role chosen at registration: `PATIENT`, `DOCTOR`, ... */
  registrationRole: string;
  memberships: Membership[];
  /** Present when the caller authenticated with a developer API key instead of a user session. */
  apiKey?: ApiKeyPrincipal;
  /** Set only by the platform for its own work (bus consumers asking other subgraphs); never from a credential. */
  system?: 'platform';
}

/** The principal the platform's own work acts as: it holds no role, membership or permission. */
export const SYSTEM_VIEWER: Viewer = {
  userId: '00000000-0000-0000-0000-000000000000',
  email: 'platform@system',
  roles: [],
  registrationRole: 'SYSTEM',
  memberships: [],
  system: 'platform',
};

export const PLATFORM_ADMIN_ROLES = ['SUPER:ADMIN', 'APP:ADMIN'] as const;

export function isPlatformAdmin(viewer: Viewer | undefined): boolean {
  return !!viewer && !viewer.apiKey && !viewer.system && viewer.roles.some((r) => r === 'SUPER:ADMIN' || r === 'APP:ADMIN');
}

export function isSuperAdmin(viewer: Viewer | undefined): boolean {
  return !!viewer && !viewer.apiKey && viewer.roles.includes('SUPER:ADMIN');
}

export function membershipRole(viewer: Viewer | undefined, organizationId: string): string | undefined {
  return viewer?.memberships.find((m) => m.organizationId === organizationId)?.role;
}

/** Every role the viewer holds in the organization (none when not a member). */
export function membershipRoles(viewer: Viewer | undefined, organizationId: string): string[] {
  const m = viewer?.memberships.find((x) => x.organizationId === organizationId);
  return m ? (m.roles?.length ? m.roles : [m.role]) : [];
}

/** Who a credential belongs to: the viewer loader the identity module provides and the edge is handed. */
export interface Authenticator {
  viewerFromAccessToken(token: string): Promise<Viewer>;
  viewerFromApiKey(secret: string): Promise<Viewer>;
}
