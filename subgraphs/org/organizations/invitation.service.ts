import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { MEMBER_ADDED, type MemberAddedPayload } from './organization.events';
import { requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { randomToken, sha256 } from '../../../shared/tokens';
import { sendMail } from '../mail/send-mail';
import { recordSecurityEvent } from '../security/security-log';
import { forgetUser } from '../users/identity';
import { User } from '../users/user.entity';
import { INVITATION, InvitationStatus, OrganizationInvitation, invitationStatus } from './invitation.entity';
import type { AcceptInvitationArgs, InvitationListArgs, SendInvitationInput } from './invitation.types';
import { organizationWith } from './member.service';
import { Organization, OrganizationMember, OrganizationStatus } from './organization.entity';

const TOKEN_PROBLEM: Record<Exclude<InvitationStatus, InvitationStatus.pending>, string> = {
  accepted: 'has already been used',
  revoked: 'has been revoked',
  expired: 'has expired',
};

const isUniqueViolation = (err: unknown) => err instanceof UniqueConstraintViolationException;

/**
 * Invitations to join an organization. Organization administrators (`members:manage`) send, list and revoke them;
 * the person they were mailed to accepts with the token, signed in with that email, and becomes a member.
 */
export class InvitationService {
  async send(ctx: SubgraphContext, organizationId: string, input: SendInvitationInput): Promise<OrganizationInvitation> {
    const viewer = requireUser(ctx.viewer);
    const org = await organizationWith(ctx, organizationId, 'members:manage');
    if (org.status === OrganizationStatus.closed) throw errors.conflict('Cannot invite members to an organization that is closed');
    const email = input.email.trim().toLowerCase();
    const user = await ctx.em.findOne(User, { email }, { fields: ['id'] });
    if (user && (await ctx.em.count(OrganizationMember, { organization: org.id, user: user.id }))) {
      throw errors.duplicate(`${email} is already a member of this organization`);
    }
    const now = clock.now();
    // A pending invitation past its expiry no longer counts: store it as expired so a new one can take its place.
    await ctx.em.nativeUpdate(
      OrganizationInvitation,
      { organizationId: org.id, email, status: InvitationStatus.pending, expiresAt: { $lte: now } },
      { status: INVITATION.transitions.expire.to, updatedAt: now },
    );
    const pendingAlready = () => errors.duplicate(`${email} already has a pending invitation to this organization`);
    if (await ctx.em.count(OrganizationInvitation, { organizationId: org.id, email, status: InvitationStatus.pending })) {
      throw pendingAlready();
    }
    const token = randomToken(32);
    const invitation = ctx.em.create(OrganizationInvitation, {
      organizationId: org.id,
      email,
      role: input.role,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + config().INVITATION_TTL_SECONDS * 1000),
      invitedBy: viewer.userId,
    });
    recordSecurityEvent(ctx, {
      type: 'invitation_sent',
      organizationId: org.id,
      details: { invitation_id: invitation.id, email, role: input.role },
    });
    // Two invitations sent at the same moment: the partial unique index lets one in.
    await ctx.em.flush().catch((err) => {
      throw isUniqueViolation(err) ? pendingAlready() : err;
    });
    const link = new URL('/invitations/accept', config().PUBLIC_URL);
    link.searchParams.set('token', token);
    await sendMail(ctx.em, {
      to: email,
      subject: `You are invited to join ${org.name}`,
      text:
        `You are invited to join ${org.name} as ${input.role}. Accept the invitation: ${link}\n` +
        `Sign in with this email address to accept. The link works once, until ${invitation.expiresAt.toISOString()}.`,
      template: 'organization_invitation',
      data: { token, link: link.toString(), organization: org.name },
    });
    return invitation;
  }

  /** Newest first; `status` filters (expired includes pending ones past their expiry). */
  async list(ctx: SubgraphContext, organizationId: string, args: InvitationListArgs): Promise<PageResult<OrganizationInvitation>> {
    await organizationWith(ctx, organizationId, 'members:manage');
    const now = clock.now();
    const where: FilterQuery<OrganizationInvitation> = { organizationId };
    if (args.status === InvitationStatus.pending) Object.assign(where, { status: InvitationStatus.pending, expiresAt: { $gt: now } });
    else if (args.status === InvitationStatus.expired) {
      where.$or = [{ status: InvitationStatus.expired }, { status: InvitationStatus.pending, expiresAt: { $lte: now } }];
    } else if (args.status) where.status = args.status;
    return paginate(ctx.em, OrganizationInvitation, where, args);
  }

  /** Withdraws a pending invitation; its token stops working. Anything else is a 409. */
  async revoke(ctx: SubgraphContext, organizationId: string, id: string): Promise<OrganizationInvitation> {
    const viewer = requireUser(ctx.viewer);
    await organizationWith(ctx, organizationId, 'members:manage');
    const invitation = isUuid(id) ? await ctx.em.findOne(OrganizationInvitation, { id, organizationId }) : null;
    if (!invitation) throw errors.notFound('Invitation');
    const now = clock.now();
    const revoked = await ctx.em.nativeUpdate(
      OrganizationInvitation,
      { id, status: InvitationStatus.pending, expiresAt: { $gt: now } },
      { status: INVITATION.transitions.revoke.to, revokedBy: viewer.userId, revokedAt: now, updatedAt: now },
    );
    await ctx.em.refresh(invitation);
    // Not pending (any more): the machine says why.
    if (revoked !== 1) {
      INVITATION.next(invitationStatus(invitation, now), 'revoke');
      throw errors.conflict('The invitation is no longer pending');
    }
    recordSecurityEvent(ctx, { type: 'invitation_revoked', organizationId, details: { invitation_id: id, email: invitation.email } });
    await ctx.em.flush();
    return invitation;
  }

  /**
   * The signed-in user the invitation was sent to becomes a member with its role. The token works once: it is spent
   * by a conditional update in the transaction that adds the member and records `svc.organization.member_added`.
   */
  async accept(ctx: SubgraphContext, args: AcceptInvitationArgs): Promise<OrganizationMember> {
    const viewer = requireUser(ctx.viewer);
    const invitation = await ctx.em.findOne(OrganizationInvitation, { tokenHash: sha256(args.token.trim()) });
    if (!invitation) throw errors.invalidField('token', 'is not a valid invitation token');
    if (invitation.email !== viewer.email.toLowerCase()) {
      throw errors.forbidden('This invitation was sent to another email address; sign in with that address to accept it');
    }
    const now = clock.now();
    const state = invitationStatus(invitation, now);
    if (state !== InvitationStatus.pending) throw errors.invalidField('token', TOKEN_PROBLEM[state]);
    const org = await ctx.em.findOne(Organization, { id: invitation.organizationId });
    if (!org) throw errors.invalidField('token', 'is not a valid invitation token');
    if (org.status === OrganizationStatus.closed) throw errors.conflict('Cannot join an organization that is closed');
    const alreadyMember = () => errors.duplicate('You are already a member of this organization');
    if (await ctx.em.count(OrganizationMember, { organization: org.id, user: viewer.userId })) throw alreadyMember();
    const member = await ctx.em
      .transactional(async (em) => {
        const spent = await em.nativeUpdate(
          OrganizationInvitation,
          { id: invitation.id, status: InvitationStatus.pending, expiresAt: { $gt: now } },
          { status: INVITATION.transitions.accept.to, acceptedBy: viewer.userId, acceptedAt: now, updatedAt: now },
        );
        if (spent !== 1) throw errors.invalidField('token', 'has already been used or revoked');
        const created = em.create(OrganizationMember, {
          organization: em.getReference(Organization, org.id),
          user: em.getReference(User, viewer.userId),
          role: invitation.role,
        });
        const payload: MemberAddedPayload = { organization_id: org.id, user_id: viewer.userId, role: invitation.role };
        emitEvent(em, 'org', MEMBER_ADDED, payload);
        recordSecurityEvent(
          { ...ctx, em },
          {
            type: 'invitation_accepted',
            userId: viewer.userId,
            organizationId: org.id,
            details: { invitation_id: invitation.id, role: invitation.role },
          },
        );
        return created;
      })
      .catch((err) => {
        // Joined meanwhile through another invitation: the membership's unique index refuses the second.
        throw isUniqueViolation(err) ? alreadyMember() : err;
      });
    await forgetUser(viewer.userId);
    ctx.viewer = { ...viewer, memberships: [...viewer.memberships, { organizationId: org.id, role: invitation.role }] };
    return member;
  }
}
