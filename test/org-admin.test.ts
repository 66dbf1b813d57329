import { OutboxEvent } from '../shared/outbox';
import { sha256 } from '../shared/tokens';
import { DoctorOrganization, DoctorProfile } from '../subgraphs/org/doctors/doctor.entity';
import { OrganizationInvitation } from '../subgraphs/org/organizations/invitation.entity';
import { Organization, OrganizationMember } from '../subgraphs/org/organizations/organization.entity';
import { signInAdmin, signUp, startApp, uniqueEmail, type Api, type SignedUp, type TestApp } from './support/app';
import { lastMail } from './support/mail';
import { addMember, createOrganization } from './support/org';
import { eventually } from './support/wait';

let app: TestApp;
let admin: Api;

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
});
afterAll(() => app.close());

/** An organization created by a fresh user (its ORG:ADMIN) with a nurse. */
async function team() {
  const owner = await signUp(app.api, { registration_role: 'DOCTOR' });
  const org = await createOrganization(owner.api);
  const nurse = await signUp(app.api, { registration_role: 'NURSE' });
  await addMember(app, org.id, nurse.user.id, 'ORG:NURSE');
  return { owner, org, nurse };
}

const fields = (res: { body: { error: { details?: { field: string }[] } } }) => res.body.error.details?.map((d) => d.field);

describe('PATCH /api/organizations/:id/status', () => {
  it('lets a platform administrator suspend and reactivate an organization, keeping the reason', async () => {
    const { owner, org } = await team();
    const suspended = await admin.patch(`/api/organizations/${org.id}/status`, { status: 'suspended', reason: 'Licence expired' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({
      id: org.id,
      status: 'suspended',
      status_reason: 'Licence expired',
      status_changed_at: expect.any(String),
    });
    // Suspended organizations leave the directory; members still see theirs.
    const stranger = await signUp(app.api);
    expect((await stranger.api.get(`/api/organizations/${org.id}`)).status).toBe(404);
    expect((await owner.api.get(`/api/organizations/${org.id}`)).body.data.status).toBe('suspended');
    // State changes are also accepted as POST.
    const active = await admin.post(`/api/organizations/${org.id}/status`, { status: 'active' });
    expect(active.status).toBe(200);
    expect(active.body.data).toMatchObject({ status: 'active', status_reason: null });
  });

  it('is for platform administrators only: 403 for the organization admin, 401 without a token', async () => {
    const { owner, org } = await team();
    const own = await owner.api.patch(`/api/organizations/${org.id}/status`, { status: 'closed' });
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('FORBIDDEN');
    expect((await app.api.patch(`/api/organizations/${org.id}/status`, { status: 'closed' })).status).toBe(401);
    expect((await owner.api.get(`/api/organizations/${org.id}`)).body.data.status).toBe('active');
  });

  it('refuses illegal transitions with 409: a closed organization stays closed', async () => {
    const { org } = await team();
    expect((await admin.patch(`/api/organizations/${org.id}/status`, { status: 'active' })).status).toBe(409);
    expect((await admin.patch(`/api/organizations/${org.id}/status`, { status: 'pending' })).status).toBe(409);
    const closed = await admin.patch(`/api/organizations/${org.id}/status`, { status: 'closed', reason: 'Merged' });
    expect(closed.status).toBe(200);
    expect(closed.body.data.status).toBe('closed');
    const reopen = await admin.patch(`/api/organizations/${org.id}/status`, { status: 'active' });
    expect(reopen.status).toBe(409);
    expect(reopen.body.error).toMatchObject({ code: 'CONFLICT', message: 'Cannot activate an organization that is closed' });
    expect((await admin.patch(`/api/organizations/${org.id}/status`, { status: 'suspended' })).status).toBe(409);
    expect((await admin.patch(`/api/organizations/${org.id}/status`, { status: 'closed' })).status).toBe(409);
  });

  it('names a bad status (400) and answers 404 for unknown organizations', async () => {
    const { org } = await team();
    const bad = await admin.patch(`/api/organizations/${org.id}/status`, { status: 'asleep' });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['status']);
    expect(fields(await admin.patch(`/api/organizations/${org.id}/status`, {}))).toEqual(['status']);
    expect((await admin.patch('/api/organizations/00000000-0000-4000-8000-000000000000/status', { status: 'active' })).status).toBe(404);
  });

  it('works through GraphQL, one mutation per transition', async () => {
    const { org } = await team();
    const res = await admin.graphql('mutation($id: ID!) { suspendOrganization(id: $id, reason: "Audit") { id status statusReason } }', {
      id: org.id,
    });
    expect(res.body.data.suspendOrganization).toEqual({ id: org.id, status: 'suspended', statusReason: 'Audit' });
    const again = await admin.graphql('mutation($id: ID!) { suspendOrganization(id: $id) { id } }', { id: org.id });
    expect(again.body.errors[0].extensions).toMatchObject({
      code: 'CONFLICT',
      reason: 'ILLEGAL_TRANSITION',
      from: 'suspended',
      action: 'suspend',
    });
  });
});

describe('members', () => {
  it('lists every member with their user details for any member; outsiders get 404', async () => {
    const { owner, org, nurse } = await team();
    const res = await nurse.api.get(`/api/organizations/${org.id}/members`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    expect(res.body.data).toEqual([
      {
        user_id: owner.user.id,
        organization_id: org.id,
        email: owner.user.email,
        first_name: 'Test',
        last_name: 'User',
        role: 'ORG:ADMIN',
        // The owner registered as a doctor: they found the organization as its administrator and its doctor.
        roles: ['ORG:ADMIN', 'ORG:DOCTOR'],
        joined_at: expect.any(String),
      },
      expect.objectContaining({ user_id: nurse.user.id, email: nurse.user.email, role: 'ORG:NURSE', roles: ['ORG:NURSE'] }),
    ]);
    const paged = await owner.api.get(`/api/organizations/${org.id}/members?limit=1&page=2`);
    expect(paged.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([nurse.user.id]);
    const nurses = await owner.api.get(`/api/organizations/${org.id}/members?role=ORG:NURSE`);
    expect(nurses.body.meta.total).toBe(1);
    expect(fields(await owner.api.get(`/api/organizations/${org.id}/members?role=wizard`))).toEqual(['role']);

    const stranger = await signUp(app.api);
    const hidden = await stranger.api.get(`/api/organizations/${org.id}/members`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('NOT_FOUND');
    expect((await app.api.get(`/api/organizations/${org.id}/members`)).status).toBe(401);
    expect((await admin.get(`/api/organizations/${org.id}/members`)).body.meta.total).toBe(2);
    expect((await admin.get('/api/organizations/00000000-0000-4000-8000-000000000000/members')).status).toBe(404);
  });

  it('exposes members on the organization in GraphQL, only to those who may list them', async () => {
    const { org, nurse } = await team();
    const query = 'query($id: ID!) { organization(id: $id) { id members(limit: 5) { total items { email role } } } }';
    const mine = await nurse.api.graphql(query, { id: org.id });
    expect(mine.body.data.organization.members.total).toBe(2);
    expect(mine.body.data.organization.members.items).toContainEqual({ email: nurse.user.email, role: 'ORG:NURSE' });
    const stranger = await signUp(app.api);
    const other = await stranger.api.graphql(query, { id: org.id });
    expect(other.body.data.organization).toEqual({ id: org.id, members: null });
  });

  it('lets an ORG:ADMIN change a role; the member holds the new role from the next request on', async () => {
    const { owner, org, nurse } = await team();
    const res = await owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:DOCTOR' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user_id: nurse.user.id, role: 'ORG:DOCTOR', email: nurse.user.email });
    expect((await nurse.api.get(`/api/organizations/${org.id}`)).body.data.viewer_role).toBe('ORG:DOCTOR');

    const bad = await owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:WIZARD' });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['role']);
    expect((await owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, {})).status).toBe(400);
    const unknown = await owner.api.patch(`/api/organizations/${org.id}/members/00000000-0000-4000-8000-000000000000/role`, {
      role: 'ORG:NURSE',
    });
    expect(unknown.status).toBe(404);
    expect((await owner.api.patch(`/api/organizations/${org.id}/members/nope/role`, { role: 'ORG:NURSE' })).status).toBe(404);
  });

  it('refuses role changes to members without members:manage (403) and to outsiders (404)', async () => {
    const { owner, org, nurse } = await team();
    const self = await nurse.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:ADMIN' });
    expect(self.status).toBe(403);
    const stranger = await signUp(app.api);
    expect((await stranger.api.patch(`/api/organizations/${org.id}/members/${owner.user.id}/role`, { role: 'ORG:STAFF' })).status).toBe(
      404,
    );
    expect((await app.api.patch(`/api/organizations/${org.id}/members/${owner.user.id}/role`, { role: 'ORG:STAFF' })).status).toBe(401);
  });

  it('never lets an organization lose its last ORG:ADMIN', async () => {
    const { owner, org, nurse } = await team();
    const demote = await owner.api.patch(`/api/organizations/${org.id}/members/${owner.user.id}/role`, { role: 'ORG:DOCTOR' });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toMatch(/last ORG:ADMIN/);
    const leave = await owner.api.delete(`/api/organizations/${org.id}/members/${owner.user.id}`);
    expect(leave.status).toBe(409);
    const byAdmin = await admin.delete(`/api/organizations/${org.id}/members/${owner.user.id}`);
    expect(byAdmin.status).toBe(409);
    // With a second administrator, the first may step down.
    await owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:ADMIN' });
    const stepDown = await owner.api.patch(`/api/organizations/${org.id}/members/${owner.user.id}/role`, { role: 'ORG:DOCTOR' });
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.data.role).toBe('ORG:DOCTOR');
  });

  it('keeps an administrator when two administrators are demoted at the same moment', async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, org, nurse } = await team();
      await owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:ADMIN' });
      const results = await Promise.all([
        admin.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:NURSE' }),
        admin.patch(`/api/organizations/${org.id}/members/${owner.user.id}/role`, { role: 'ORG:DOCTOR' }),
      ]);
      // The second waits for the first (both lock the organization) and then finds it would remove the last admin.
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await app.em('org').count(OrganizationMember, { organization: org.id, role: 'ORG:ADMIN' })).toBe(1);
    }
  });

  it('keeps an administrator when two administrators demote each other at the same moment', async () => {
    const { owner, org, nurse } = await team();
    await owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:ADMIN' });
    const results = await Promise.all([
      owner.api.patch(`/api/organizations/${org.id}/members/${nurse.user.id}/role`, { role: 'ORG:NURSE' }),
      nurse.api.patch(`/api/organizations/${org.id}/members/${owner.user.id}/role`, { role: 'ORG:DOCTOR' }),
    ]);
    // One wins; the other is refused, as the last admin (409) or, if it starts after, as no longer an admin (403).
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    expect(await app.em('org').count(OrganizationMember, { organization: org.id, role: 'ORG:ADMIN' })).toBe(1);
  });

  it('removes a member (ORG:ADMIN) or lets a member leave; others get 403, outsiders 404', async () => {
    const { owner, org, nurse } = await team();
    const clerk = await signUp(app.api);
    await addMember(app, org.id, clerk.user.id, 'ORG:BILLING');
    expect((await nurse.api.delete(`/api/organizations/${org.id}/members/${clerk.user.id}`)).status).toBe(403);
    const stranger = await signUp(app.api);
    expect((await stranger.api.delete(`/api/organizations/${org.id}/members/${clerk.user.id}`)).status).toBe(404);
    expect((await stranger.api.delete(`/api/organizations/${org.id}/members/${stranger.user.id}`)).status).toBe(404);

    const removed = await owner.api.delete(`/api/organizations/${org.id}/members/${clerk.user.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ user_id: clerk.user.id, role: 'ORG:BILLING' });
    expect((await clerk.api.get(`/api/organizations/${org.id}/members`)).status).toBe(404);
    expect((await owner.api.delete(`/api/organizations/${org.id}/members/${clerk.user.id}`)).status).toBe(404);

    const left = await nurse.api.delete(`/api/organizations/${org.id}/members/${nurse.user.id}`);
    expect(left.status).toBe(200);
    const members = await owner.api.get(`/api/organizations/${org.id}/members`);
    expect(members.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([owner.user.id]);
  });

  it("drops the removed member's doctor link to the organization", async () => {
    const { owner, org } = await team();
    const doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
    await addMember(app, org.id, doctor.user.id, 'ORG:DOCTOR');
    const em = app.em('org');
    // The profile comes from the user_created consumer; the link is arranged here (member_added is not emitted by addMember).
    const profile = await eventually(() => em.findOne(DoctorProfile, { userId: doctor.user.id }), 'doctor profile');
    em.create(DoctorOrganization, { doctor: profile, organization: em.getReference(Organization, org.id), role: 'ORG:DOCTOR' });
    await em.flush();
    expect((await owner.api.delete(`/api/organizations/${org.id}/members/${doctor.user.id}`)).status).toBe(200);
    expect(await app.em('org').count(DoctorOrganization, { doctor: profile.id, organization: org.id })).toBe(0);
  });

  it('changes roles and removes members through GraphQL', async () => {
    const { owner, org, nurse } = await team();
    const changed = await owner.api.graphql(
      'mutation($org: ID!, $user: ID!) { updateMemberRole(organizationId: $org, userId: $user, role: "ORG:STAFF") { userId role organization { id } } }',
      { org: org.id, user: nurse.user.id },
    );
    expect(changed.body.data.updateMemberRole).toEqual({ userId: nurse.user.id, role: 'ORG:STAFF', organization: { id: org.id } });
    const removed = await owner.api.graphql(
      'mutation($org: ID!, $user: ID!) { removeMember(organizationId: $org, userId: $user) { userId } }',
      {
        org: org.id,
        user: nurse.user.id,
      },
    );
    expect(removed.body.data.removeMember).toEqual({ userId: nurse.user.id });
    const list = await owner.api.graphql('query($org: ID!) { organizationMembers(organizationId: $org) { total } }', { org: org.id });
    expect(list.body.data.organizationMembers.total).toBe(1);
  });
});

describe('invitations', () => {
  async function invite(api: Api, orgId: string, body: Record<string, unknown>) {
    const res = await api.post(`/api/organizations/${orgId}/invitations`, body);
    if (res.status !== 201) throw new Error(`invite: ${res.status} ${res.text}`);
    const mail = await lastMail(body.email as string, 'organization_invitation');
    return { invitation: res.body.data, token: mail.data!.token, mail };
  }

  it('mails a single-use token and keeps only its hash', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('invitee');
    const res = await owner.api.post(`/api/organizations/${org.id}/invitations`, { email, role: 'ORG:DOCTOR' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organization_id: org.id,
      email,
      role: 'ORG:DOCTOR',
      status: 'pending',
      invited_by: owner.user.id,
      accepted_at: null,
    });
    expect(res.body.data).not.toHaveProperty('token');
    const expires = Date.parse(res.body.data.expires_at) - Date.now();
    expect(expires).toBeGreaterThan(6.9 * 86400_000);
    expect(expires).toBeLessThanOrEqual(7 * 86400_000);
    const mail = await lastMail(email, 'organization_invitation');
    const token = mail.data!.token;
    expect(mail.data!.organization).toBe(org.name);
    expect(mail.data!.link).toMatch(new RegExp(`^https?://[^/]+/invitations/accept\\?token=${token}$`));
    const stored = await app.em('org').findOneOrFail(OrganizationInvitation, { id: res.body.data.id });
    expect(stored.tokenHash).toBe(sha256(token));

    const list = await owner.api.get(`/api/organizations/${org.id}/invitations`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([res.body.data.id]);
    expect(list.body.meta.total).toBe(1);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain(stored.tokenHash);
    expect((await owner.api.get(`/api/organizations/${org.id}/invitations?status=accepted`)).body.data).toEqual([]);
    expect(fields(await owner.api.get(`/api/organizations/${org.id}/invitations?status=lost`))).toEqual(['status']);
  });

  it('validates email and role, and refuses duplicates and existing members with 409', async () => {
    const { owner, org, nurse } = await team();
    const bad = await owner.api.post(`/api/organizations/${org.id}/invitations`, { email: 'not-an-email', role: 'ORG:KING' });
    expect(bad.status).toBe(400);
    expect(fields(bad)!.sort()).toEqual(['email', 'role']);
    const email = uniqueEmail('dup');
    await invite(owner.api, org.id, { email, role: 'ORG:NURSE' });
    const again = await owner.api.post(`/api/organizations/${org.id}/invitations`, { email: email.toUpperCase(), role: 'ORG:STAFF' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/pending invitation/);
    const member = await owner.api.post(`/api/organizations/${org.id}/invitations`, { email: nurse.user.email, role: 'ORG:STAFF' });
    expect(member.status).toBe(409);
    expect(member.body.error.message).toMatch(/already a member/);
  });

  it('lets one of two simultaneous invitations to the same address through', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('race');
    const results = await Promise.all(
      [1, 2, 3].map(() => owner.api.post(`/api/organizations/${org.id}/invitations`, { email, role: 'ORG:NURSE' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('is for members:manage: members get 403, outsiders 404, anonymous 401', async () => {
    const { org, nurse } = await team();
    const body = { email: uniqueEmail(), role: 'ORG:NURSE' };
    expect((await nurse.api.post(`/api/organizations/${org.id}/invitations`, body)).status).toBe(403);
    expect((await nurse.api.get(`/api/organizations/${org.id}/invitations`)).status).toBe(403);
    const stranger = await signUp(app.api);
    expect((await stranger.api.post(`/api/organizations/${org.id}/invitations`, body)).status).toBe(404);
    expect((await stranger.api.get(`/api/organizations/${org.id}/invitations`)).status).toBe(404);
    expect((await app.api.post(`/api/organizations/${org.id}/invitations`, body)).status).toBe(401);
  });

  it('makes the invited user a member with the role and records member_added', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('join');
    const { invitation, token } = await invite(owner.api, org.id, { email: email.replace('join', 'JOIN'), role: 'ORG:PHARMACIST' });
    const invitee = await signUp(app.api, { email });
    const res = await invitee.api.post('/api/organizations/invitations/accept', { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ organization_id: org.id, user_id: invitee.user.id, email, role: 'ORG:PHARMACIST' });
    // The new membership holds at once.
    expect((await invitee.api.get(`/api/organizations/${org.id}/members`)).status).toBe(200);
    const mine = await invitee.api.get('/api/organizations/me');
    expect(mine.body.data.map((o: { id: string; viewer_role: string }) => [o.id, o.viewer_role])).toEqual([[org.id, 'ORG:PHARMACIST']]);
    const events = await app
      .em('org')
      .find(OutboxEvent, { topic: 'svc.organization.member_added', payload: { organization_id: org.id, user_id: invitee.user.id } });
    expect(events.map((e) => e.payload)).toEqual([{ organization_id: org.id, user_id: invitee.user.id, role: 'ORG:PHARMACIST' }]);
    const listed = await owner.api.get(`/api/organizations/${org.id}/invitations?status=accepted`);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: invitation.id, status: 'accepted', accepted_by: invitee.user.id })]);

    const twice = await invitee.api.post('/api/organizations/invitations/accept', { token });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([{ field: 'token', message: 'has already been used' }]);
  });

  it('refuses the wrong user (403), unknown tokens (400) and anonymous callers (401)', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('right');
    const { token } = await invite(owner.api, org.id, { email, role: 'ORG:NURSE' });
    const wrong = await signUp(app.api);
    const res = await wrong.api.post('/api/organizations/invitations/accept', { token });
    expect(res.status).toBe(403);
    expect(await app.em('org').count(OrganizationMember, { organization: org.id, user: wrong.user.id })).toBe(0);
    const unknown = await wrong.api.post('/api/organizations/invitations/accept', { token: 'not-a-token' });
    expect(unknown.status).toBe(400);
    expect(fields(unknown)).toEqual(['token']);
    expect(fields(await wrong.api.post('/api/organizations/invitations/accept', {}))).toEqual(['token']);
    expect((await app.api.post('/api/organizations/invitations/accept', { token })).status).toBe(401);
    // The right user can still accept.
    const right = await signUp(app.api, { email });
    expect((await right.api.post('/api/organizations/invitations/accept', { token })).status).toBe(200);
  });

  it('refuses an expired invitation and lets a new one replace it', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('late');
    const { invitation, token } = await invite(owner.api, org.id, { email, role: 'ORG:NURSE' });
    await app.em('org').nativeUpdate(OrganizationInvitation, { id: invitation.id }, { expiresAt: new Date(Date.now() - 1000) });
    const invitee = await signUp(app.api, { email });
    const res = await invitee.api.post('/api/organizations/invitations/accept', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'token', message: 'has expired' }]);
    const expired = await owner.api.get(`/api/organizations/${org.id}/invitations?status=expired`);
    expect(expired.body.data.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([[invitation.id, 'expired']]);
    expect((await owner.api.get(`/api/organizations/${org.id}/invitations?status=pending`)).body.data).toEqual([]);
    expect((await owner.api.delete(`/api/organizations/${org.id}/invitations/${invitation.id}`)).status).toBe(409);
    const fresh = await invite(owner.api, org.id, { email, role: 'ORG:NURSE' });
    expect((await invitee.api.post('/api/organizations/invitations/accept', { token: fresh.token })).status).toBe(200);
  });

  it('revokes a pending invitation once; its token stops working', async () => {
    const { owner, org, nurse } = await team();
    const email = uniqueEmail('revoked');
    const { invitation, token } = await invite(owner.api, org.id, { email, role: 'ORG:NURSE' });
    expect((await nurse.api.delete(`/api/organizations/${org.id}/invitations/${invitation.id}`)).status).toBe(403);
    const other = await team();
    expect((await other.owner.api.delete(`/api/organizations/${other.org.id}/invitations/${invitation.id}`)).status).toBe(404);
    const res = await owner.api.delete(`/api/organizations/${org.id}/invitations/${invitation.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: invitation.id, status: 'revoked', revoked_by: owner.user.id });
    const again = await owner.api.delete(`/api/organizations/${org.id}/invitations/${invitation.id}`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot revoke an invitation that is revoked');
    expect((await owner.api.delete(`/api/organizations/${org.id}/invitations/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const invitee = await signUp(app.api, { email });
    const accept = await invitee.api.post('/api/organizations/invitations/accept', { token });
    expect(accept.status).toBe(400);
    expect(accept.body.error.details).toEqual([{ field: 'token', message: 'has been revoked' }]);
  });

  it('answers 409 when the invited user is already a member', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('member');
    const { token } = await invite(owner.api, org.id, { email, role: 'ORG:NURSE' });
    const invitee = await signUp(app.api, { email });
    await addMember(app, org.id, invitee.user.id, 'ORG:STAFF');
    const res = await invitee.api.post('/api/organizations/invitations/accept', { token });
    expect(res.status).toBe(409);
  });

  it('works through GraphQL', async () => {
    const { owner, org } = await team();
    const email = uniqueEmail('gql');
    const sent = await owner.api.graphql(
      'mutation($org: ID!, $input: SendInvitationInput!) { sendInvitation(organizationId: $org, input: $input) { invitation { id status email organization { id } } userErrors { field message code } } }',
      { org: org.id, input: { email, role: 'ORG:DOCTOR' } },
    );
    expect(sent.body.data.sendInvitation.userErrors).toEqual([]);
    expect(sent.body.data.sendInvitation.invitation).toMatchObject({ status: 'pending', email, organization: { id: org.id } });
    // Inviting the same email again while that invitation is pending is the user's to fix, and a bad role names the field.
    const again = await owner.api.graphql(
      'mutation($org: ID!, $input: SendInvitationInput!) { sendInvitation(organizationId: $org, input: $input) { invitation { id } userErrors { field message code } } }',
      { org: org.id, input: { email, role: 'ORG:NURSE' } },
    );
    expect(again.body.data.sendInvitation).toEqual({
      invitation: null,
      userErrors: [{ field: null, message: `${email} already has a pending invitation to this organization`, code: 'DUPLICATE' }],
    });
    const badRole = await owner.api.graphql(
      'mutation($org: ID!, $input: SendInvitationInput!) { sendInvitation(organizationId: $org, input: $input) { invitation { id } userErrors { field code } } }',
      { org: org.id, input: { email: uniqueEmail('gql'), role: 'ORG:WIZARD' } },
    );
    expect(badRole.body.data.sendInvitation).toEqual({ invitation: null, userErrors: [{ field: ['input', 'role'], code: 'INVALID' }] });
    const { data } = await lastMail(email, 'organization_invitation');
    const invitee: SignedUp = await signUp(app.api, { email, registration_role: 'DOCTOR' });
    const accepted = await invitee.api.graphql(
      'mutation($t: String!) { acceptInvitation(token: $t) { role organization { id viewerRole } } }',
      {
        t: data!.token,
      },
    );
    expect(accepted.body.data.acceptInvitation).toEqual({ role: 'ORG:DOCTOR', organization: { id: org.id, viewerRole: 'ORG:DOCTOR' } });
    const listed = await owner.api.graphql(
      'query($org: ID!) { organizationInvitations(organizationId: $org, status: accepted) { total } }',
      { org: org.id },
    );
    expect(listed.body.data.organizationInvitations.total).toBe(1);
  });
});
