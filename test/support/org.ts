import { forgetUser } from '../../subgraphs/org/users/identity';
import { OrganizationMember } from '../../subgraphs/org/organizations/organization.entity';
import { User } from '../../subgraphs/org/users/user.entity';
import { Organization } from '../../subgraphs/org/organizations/organization.entity';
import type { Api, TestApp } from './app';

export async function createOrganization(api: Api, fields: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const res = await api.post('/api/organizations', { name: `Clinic ${Math.random().toString(36).slice(2, 8)}`, type: 'clinic', ...fields });
  if (res.status !== 201) throw new Error(`create organization failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/**
 * Puts a user in an organization with a role, straight in storage: membership management (invitations) has its
 * own endpoints and tests; here it only arranges who is who.
 */
export async function addMember(app: TestApp, organizationId: string, userId: string, role: string): Promise<void> {
  const em = app.em('org');
  em.create(OrganizationMember, {
    organization: em.getReference(Organization, organizationId),
    user: em.getReference(User, userId),
    role,
  });
  await em.flush();
  await forgetUser(userId);
}
