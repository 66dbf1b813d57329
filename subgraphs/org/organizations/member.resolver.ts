import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { can } from '../../../shared/permissions';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { User } from '../users/user.entity';
import { visibleUser } from '../users/user.resolver';
import { memberUser, MemberService } from './member.service';
import { MemberListArgs, MemberRoleArgs, OrganizationMemberPage } from './member.types';
import { Organization, OrganizationMember } from './organization.entity';
import { OrganizationService } from './organization.service';

/** `organization { members }`: for callers who may list the members (null for everyone else). */
@Resolver(() => Organization)
export class OrganizationMembersResolver {
  private readonly service = new MemberService();

  @FieldResolver(() => OrganizationMemberPage, { nullable: true, description: 'Members, oldest first; members and administrators only' })
  members(@Root() org: Organization, @Args() args: MemberListArgs, @Ctx() ctx: SubgraphContext) {
    if (!can(ctx.viewer, 'organizations:read', org.id)) return null;
    return this.service.page(ctx, org.id, args);
  }
}

@Resolver(() => OrganizationMember)
export class MemberResolver {
  private readonly service = new MemberService();

  @Query(() => OrganizationMemberPage, { description: "An organization's members, oldest first" })
  organizationMembers(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: MemberListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.list(ctx, organizationId, args);
  }

  @RequiresOrgPermission('members:manage')
  @Mutation(() => OrganizationMember, { description: "Change a member's role (members:manage); the last ORG:ADMIN stays" })
  updateMemberRole(@Args() args: MemberRoleArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.changeRole(ctx, args);
  }

  @Mutation(() => OrganizationMember, {
    description: 'Remove a member (members:manage) or leave (the member themself); answers the removed membership',
  })
  removeMember(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('userId', () => ID, { description: 'The user' }) userId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.remove(ctx, organizationId, userId);
  }

  @FieldResolver(() => ID)
  organizationId(@Root() member: OrganizationMember): string {
    return member.organization.id;
  }

  @FieldResolver(() => Organization, { description: 'The organization of the membership' })
  organization(@Root() member: OrganizationMember, @Ctx() ctx: SubgraphContext) {
    return new OrganizationService().load(ctx, member.organization.id);
  }

  @FieldResolver(() => ID)
  userId(@Root() member: OrganizationMember): string {
    return member.user.id;
  }

  @FieldResolver(() => User, { nullable: true, description: 'The member: who they are, under the rule of user(id)' })
  user(@Root() member: OrganizationMember, @Ctx() ctx: SubgraphContext) {
    return visibleUser(ctx, member.user.id);
  }

  @FieldResolver(() => String, { nullable: true })
  async email(@Root() member: OrganizationMember, @Ctx() ctx: SubgraphContext) {
    return (await memberUser(ctx, member))?.email ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  async firstName(@Root() member: OrganizationMember, @Ctx() ctx: SubgraphContext) {
    return (await memberUser(ctx, member))?.firstName ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  async lastName(@Root() member: OrganizationMember, @Ctx() ctx: SubgraphContext) {
    return (await memberUser(ctx, member))?.lastName ?? null;
  }

  @FieldResolver(() => Date, { description: 'When the user became a member' })
  joinedAt(@Root() member: OrganizationMember): Date {
    return member.createdAt;
  }
}
