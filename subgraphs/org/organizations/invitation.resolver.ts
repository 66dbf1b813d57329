import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { InvitationStatus, OrganizationInvitation, invitationStatus } from './invitation.entity';
import { InvitationService } from './invitation.service';
import {
  AcceptInvitationArgs,
  InvitationListArgs,
  OrganizationInvitationPage,
  SendInvitationInput,
  SendInvitationPayload,
} from './invitation.types';
import { Organization, OrganizationMember } from './organization.entity';
import { OrganizationService } from './organization.service';

@Resolver(() => OrganizationInvitation)
export class InvitationResolver {
  private readonly service = new InvitationService();

  @RequiresOrgPermission('members:manage')
  @PayloadMutation(SendInvitationPayload, {
    description:
      'Invite someone by email to join with a role (members:manage); the token goes by mail. A member already or an invitation pending is a user error',
  })
  sendInvitation(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'Who to invite, and with which role' }) input: SendInvitationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.send(ctx, organizationId, input);
  }

  @RequiresOrgPermission('members:manage')
  @Query(() => OrganizationInvitationPage, { description: "An organization's invitations, newest first (members:manage)" })
  organizationInvitations(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: InvitationListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.list(ctx, organizationId, args);
  }

  @RequiresOrgPermission('members:manage')
  @Mutation(() => OrganizationInvitation, { description: 'Revoke a pending invitation (members:manage)' })
  revokeInvitation(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('id', () => ID, { description: 'The organization invitation' }) id: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.revoke(ctx, organizationId, id);
  }

  @Mutation(() => OrganizationMember, { description: 'Accept an invitation sent to the signed-in user; answers the new membership' })
  acceptInvitation(@Args() args: AcceptInvitationArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.accept(ctx, args);
  }

  @FieldResolver(() => InvitationStatus, { description: 'pending, accepted, revoked, or expired (pending past expires_at)' })
  status(@Root() invitation: OrganizationInvitation): InvitationStatus {
    return invitationStatus(invitation);
  }

  @FieldResolver(() => Organization, { description: 'The organization the invitation is to' })
  organization(@Root() invitation: OrganizationInvitation, @Ctx() ctx: SubgraphContext) {
    return new OrganizationService().load(ctx, invitation.organizationId);
  }
}
