/**
 * The verified caller, built once at the edge (gateway or adapter) and handed to every subgraph.
 */
export interface Membership {
  organizationId: string;
  role: string;
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
  /** Set only by the edge for the platform's own work (verified inbound webhooks); never from a credential. */
  system?: 'webhooks';
}

/** The principal the edge acts as when it stores a verified webhook delivery. */
export const WEBHOOK_SYSTEM_VIEWER: Viewer = {
  userId: '00000000-0000-0000-0000-000000000000',
  email: 'webhooks@system',
  roles: [],
  registrationRole: 'SYSTEM',
  memberships: [],
  system: 'webhooks',
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
