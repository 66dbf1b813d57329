import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import { RequiresOrgPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { transitionResolver } from '../../../shared/transitions';
import { membershipRole, membershipRoles } from '../../../shared/viewer';
import { ORGANIZATION, Organization } from './organization.entity';
import { OrganizationService } from './organization.service';
import {
  CreateOrganizationInput,
  OrganizationListArgs,
  OrganizationPage,
  OrganizationTransitionArgs,
  UpdateOrganizationInput,
} from './organization.types';

/** Platform administrators move an organization through its states, one mutation per move; closed is final. */
export const OrganizationTransitionResolver = transitionResolver({
  type: () => Organization,
  machine: ORGANIZATION,
  args: OrganizationTransitionArgs,
  run: (ctx, args, action) => new OrganizationService().transition(ctx, args, action),
  permission: 'admin:organizations',
  mutations: {
    activate: {
      name: 'activateOrganization',
      description: 'Approve a pending organization or reinstate a suspended one (platform administrators)',
    },
    suspend: { name: 'suspendOrganization', description: 'Put an active organization on hold (platform administrators)' },
    close: { name: 'closeOrganization', description: 'Close an organization for good (platform administrators); nothing leaves closed' },
  },
});

@Resolver(() => Organization)
export class OrganizationResolver {
  private readonly service = new OrganizationService();

  @Mutation(() => Organization, { description: 'Create an organization; the caller becomes its ORG:ADMIN' })
  createOrganization(
    @Arg('input', { description: 'The fields of the new organization' }) input: CreateOrganizationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => OrganizationPage, { description: 'Organizations the caller may see, filtered and paged' })
  organizations(@Args() args: OrganizationListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => OrganizationPage, { description: "The caller's organizations" })
  myOrganizations(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => Organization, { nullable: true, description: 'An organization; NOT_FOUND when missing or not visible to the caller' })
  organization(@Arg('id', () => ID, { description: 'The organization' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @RequiresOrgPermission('organizations:update', { organization: 'id' })
  @Mutation(() => Organization, { description: "Change an organization's details (its administrators)" })
  updateOrganization(
    @Arg('id', () => ID, { description: 'The organization' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateOrganizationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @FieldResolver(() => [String], { description: 'Every role the caller holds in this organization (empty when not a member)' })
  viewerRoles(@Root() org: Organization, @Ctx() ctx: SubgraphContext): string[] {
    return membershipRoles(ctx.viewer, org.id);
  }

  @FieldResolver(() => String, { nullable: true, description: "The caller's role in this organization" })
  viewerRole(@Root() org: Organization, @Ctx() ctx: SubgraphContext): string | null {
    return membershipRole(ctx.viewer, org.id) ?? null;
  }

  static resolveReference(ref: { id: string }, ctx: SubgraphContext) {
    return new OrganizationService().load(ctx, ref.id);
  }
}
